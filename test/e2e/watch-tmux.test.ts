// `arena watch` of a finished match in a real terminal (tmux): the seat
// panels show the true VP the game ended with (hidden VP cards included), as
// the log's last line and `arena replay` do, not the public VP of the last
// view (8 for a winner that won with 10). --plain's end line says it too.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followLive } from '../../src/client/live';
import { LiveSession } from '../../src/tui/live/session';
import type { LiveState } from '../../src/tui/live/state';
import { runCli } from '../support/run-cli';
import { startArena, type Arena } from '../support/serve-arena';
import { wellBehaved } from '../support/policies';
import { REPO_ROOT } from '../tui/helpers';
import { hasTmux, PERSON, tmuxServer } from '../tui/tmux-server';

const SCREEN_DEADLINE_MS = 40_000;

let arena: Arena;
let dir: string;
let sock: string;
let term: ReturnType<typeof tmuxServer>;
/** A finished match in which some seat held VP cards the public view never showed. */
let match: { id: string; state: LiveState };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-watch-tmux-'));
  sock = join(dir, 'tmux.sock');
  term = tmuxServer(sock, SCREEN_DEADLINE_MS);
  let n = 0;
  // Fixed seeds and ids: the same games every run (the test bots' choices are seeded by match and seat).
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved()], {
    newSeed: () => `watch-true-vp-${n}`,
    newMatchId: () => `m_watchvp${n}`,
  });
  for (n = 1; n <= 12 && !match; n++) {
    const [id] = await arena.tick();
    await arena.idle();
    const session = new LiveSession({ baseUrl: arena.url, matchId: id, follow: followLive });
    await session.run();
    const s = session.state;
    if (s.ended?.status === 'completed' && s.finalVp && s.finalVp.some((vp, seat) => vp > s.view!.scores[seat]))
      match = { id, state: s };
  }
}, 120_000);

afterAll(async () => {
  if (hasTmux) term?.kill();
  await arena?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each seat's panel head as the screen should show it: true VP, and how much of it was hidden. */
function panelHeads(s: LiveState): RegExp[] {
  return s.finalVp!.map((vp, seat) => {
    const hidden = vp - s.view!.scores[seat];
    return new RegExp(`${seat} ${s.names[seat]}\\s+VP ${vp}${hidden > 0 ? ` \\(${hidden} hidden\\)` : '(?! \\()'}`);
  });
}

describe('arena watch, once the match has ended, shows the true VP', () => {
  it('the games include one where a seat ended with hidden VP (the case this is about)', () => {
    expect(match, 'no match of the seeded games ended with hidden VP').toBeDefined();
    const { state } = match;
    // The log's end event and the stored record agree on the true VP; the public view had less.
    const end = state.log.at(-1)!.ev;
    expect(end.kind).toBe('end');
    expect(end.kind === 'end' && 'vp' in end.data ? end.data.vp : null).toEqual(state.finalVp);
    expect(state.finalVp!.some((vp, seat) => vp > state.view!.scores[seat])).toBe(true);
  });

  it.skipIf(!hasTmux)(
    'in the live viewer: each panel shows the true VP and what was hidden; q quits with 0',
    async () => {
      const name = 'watch-vp';
      const code = join(dir, `${name}.code`);
      const cmd = `cd ${REPO_ROOT} && ${PERSON} node bin/arena watch ${match.id} --url ${arena.url}; echo $? > ${code}; read _`;
      term.tmux('new-session', '-d', '-s', name, '-x', '110', '-y', '45', cmd);
      const heads = panelHeads(match.state);
      const screen = await term.screenWhere(
        name,
        (s) => s.includes('ENDED') && heads.every((h) => h.test(s)),
        "ENDED with every seat's true VP",
      );
      expect(screen).toContain('game over');
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

  it('--plain: the end line gives each seat its true VP', async () => {
    const r = await runCli(['watch', match.id, '--plain', '--url', arena.url], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    const endLine = r.stdout.trimEnd().split('\n').at(-1)!;
    const { state } = match;
    for (const p of state.ended!.players)
      expect(endLine).toContain(`seat ${p.seat} (${p.botName}) ${state.finalVp![p.seat]} VP`);
  });
});
