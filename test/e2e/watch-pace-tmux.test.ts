// Spectators of quick bots: `arena serve --min-turn-ms` makes each turn of a
// scheduled match take at least that long, and `arena watch --speed` shows a
// match that runs faster than it can be read at that pace, saying how far
// behind live it is; l jumps to live. In a real terminal (tmux).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli';
import { startArena, type Arena } from '../support/serve-arena';
import { wellBehaved } from '../support/policies';
import { REPO_ROOT } from '../tui/helpers';
import { hasTmux, PERSON, tmuxServer } from '../tui/tmux-server';

const SCREEN_DEADLINE_MS = 40_000;
const MIN_TURN_MS = 25;

let arena: Arena;
let dir: string;
let sock: string;
let term: ReturnType<typeof tmuxServer>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-watch-pace-'));
  sock = join(dir, 'tmux.sock');
  term = tmuxServer(sock, SCREEN_DEADLINE_MS);
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved()], { minTurnMs: MIN_TURN_MS });
}, 60_000);

afterAll(async () => {
  if (hasTmux) term?.kill();
  await arena?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a paced server and a paced watch', () => {
  it('bad --speed and --min-turn-ms are usage errors that say what is wanted', async () => {
    for (const speed of ['-1', 'fast', '1e9']) {
      const r = await runCli(['watch', 'm_abc', '--speed', speed, '--url', arena.url], { env: {} });
      expect(r.code, speed).toBe(2);
      expect(r.stderr).toContain('--speed must be a number of events a second');
    }
    const r = await runCli(['serve', '--min-turn-ms', '1.5', '--data', join(dir, 'never')], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--min-turn-ms must be a whole number of milliseconds');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('serve --min-turn-ms: a scheduled match takes at least turns x MS', async () => {
    const [id] = await arena.tick();
    await arena.idle();
    const rec = (await arena.store.getMatch(id))!;
    expect(rec.status).toBe('completed');
    const turns = rec.replay.filter((e) => e.kind === 'roll').length;
    expect(turns).toBeGreaterThan(10);
    // Event stamps are whole milliseconds: allow one either side.
    const ms = Date.parse(rec.replay.at(-1)!.at) - Date.parse(rec.replay[0].at);
    expect(ms).toBeGreaterThanOrEqual(turns * MIN_TURN_MS - 2);
  }, 60_000);

  it.skipIf(!hasTmux)(
    'arena watch --speed of a running match says how many events behind live it is; l jumps to the end',
    async () => {
      const [id] = await arena.tick();
      const name = 'watch-pace';
      const code = join(dir, `${name}.code`);
      const cmd = `cd ${REPO_ROOT} && ${PERSON} node bin/arena watch ${id} --speed 2 --url ${arena.url}; echo $? > ${code}; read _`;
      term.tmux('new-session', '-d', '-s', name, '-x', '110', '-y', '45', cmd);
      const behind = /(\d+) events? behind live/;
      const screen = await term.screenWhere(
        name,
        (s) => Number(behind.exec(s)?.[1] ?? 0) >= 3,
        'at least 3 events behind live',
      );
      expect(screen).toContain('l jump to live');
      // The match ends on the server long before 2 events a second reach its end: the viewer is still behind.
      await arena.idle();
      const still = await term.screenWhere(name, (s) => behind.test(s), 'still behind once the match ended');
      expect(still).not.toContain('ENDED');
      // ? lists the keys, l among them; any key goes back.
      term.tmux('send-keys', '-t', name, '?');
      const help = await term.screenWhere(name, (s) => s.includes('arena watch: keys'), 'the help');
      expect(help).toMatch(/l\s+jump to live/);
      term.tmux('send-keys', '-t', name, 'x');
      await term.screenWhere(name, (s) => behind.test(s), 'the viewer again after the help');
      term.tmux('send-keys', '-t', name, 'l');
      const live = await term.screenWhere(name, (s) => s.includes('ENDED'), 'ENDED after l');
      expect(live).not.toMatch(behind);
      expect(live).toContain('game over');
      term.tmux('send-keys', '-t', name, 'q');
      const end = Date.now() + SCREEN_DEADLINE_MS;
      while (!/^\d+\n$/.test(existsSync(code) ? readFileSync(code, 'utf8') : '')) {
        if (Date.now() > end) throw new Error('arena watch never exited after q');
        await new Promise((res) => setTimeout(res, 25));
      }
      expect(readFileSync(code, 'utf8')).toBe('0\n');
    },
    120_000,
  );
});
