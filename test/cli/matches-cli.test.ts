// The terminal side of the match plane against a real service: `arena
// matches list|show`, `arena leaderboard`, `arena watch --plain` and `arena
// replay MATCH-ID`, run as the real commander program with its own streams
// (runCli), with the server URL from --url, $ARENA_URL or the login profile.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaderboardSchema, MatchPageSchema } from '../../src/client/public';
import { MatchRecordSchema } from '../../src/protocol/match';
import { runCli } from '../support/run-cli';
import { illegalAction, legalPlayer, wellBehaved } from '../support/policies';
import { answer, type Behaviour } from '../support/test-bot';
import { startArena, type Arena } from '../support/serve-arena';

/**
 * Plays legally, but answers illegally `owed` times once the test asks it to;
 * while `held` is set it waits for it (never past the 2 s deadline) before each
 * answer, so the match is surely still running while the test looks at it.
 */
const misbehave: { owed: number; held: Promise<void> | null } = { owed: 0, held: null };
function illegalOnRequest(): Behaviour {
  const play = legalPlayer();
  return async (ctx) => {
    if (misbehave.held) await Promise.race([misbehave.held, new Promise((r) => setTimeout(r, 1500))]);
    const { view, kind, matchId } = ctx.request;
    const bad = misbehave.owed > 0 && kind === 'turn';
    if (bad) misbehave.owed--;
    answer(ctx, bad ? illegalAction(kind, view) : play(view, kind, matchId));
  };
}

let arena: Arena;
let home: string;
let env: Record<string, string>;
let running = '';
let watched: Awaited<ReturnType<typeof runCli>>;
let whileRunning: {
  list: Awaited<ReturnType<typeof runCli>>;
  show: Awaited<ReturnType<typeof runCli>>;
  replay: Awaited<ReturnType<typeof runCli>>;
};

const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extra } });

beforeAll(async () => {
  // bot3 strikes twice once the viewer is watching (so it sees the strikes however late it joined).
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), illegalOnRequest()]);
  home = mkdtempSync(join(tmpdir(), 'arena-cli-matches-'));
  env = { HOME: home, ARENA_CONFIG_DIR: join(home, 'config'), ARENA_URL: arena.url };
  // bot3 holds its answers from the first decision until the looks below are done, so the match
  // is surely running for them and still has many turns left for bot3's two strikes.
  let release = () => {};
  misbehave.held = new Promise((r) => (release = r));
  let watching: ReturnType<typeof cli>;
  try {
    [running] = await arena.tick();
    // While it runs: list, show and replay see a running match; watch follows it to the end.
    watching = cli(['watch', running, '--plain']);
    // /metrics shares the per-address rate limit (10/s) with the CLI calls below: poll no faster
    // than it refills, and a 429 (a slow machine: the CLI took long to connect) means ask again.
    for (let viewers = 0; viewers === 0; await new Promise((r) => setTimeout(r, 100))) {
      const res = await fetch(`${arena.url}/metrics`);
      if (!res.ok) continue;
      viewers = Number(/^arena_live_viewers (\d+)$/m.exec(await res.text())![1]);
    }
    misbehave.owed = 2;
    whileRunning = {
      list: await cli(['matches', 'list', '--status', 'running', '--json']),
      show: await cli(['matches', 'show', running]),
      replay: await cli(['replay', running, '--plain']),
    };
  } finally {
    misbehave.held = null;
    release();
  }
  watched = await watching;
  await arena.idle();
}, 120_000);

afterAll(async () => {
  await arena?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('arena matches, leaderboard, watch and replay against a server', () => {
  it('while a match runs: listed as running, shown without seed or replay, and replay says to watch it', () => {
    expect(whileRunning.list.code, whileRunning.list.stderr).toBe(0);
    const page = MatchPageSchema.parse(JSON.parse(whileRunning.list.stdout));
    expect(page.matches.map((m) => m.id)).toContain(running);
    expect(page.matches.every((m) => m.status === 'running')).toBe(true);
    expect(whileRunning.show.code).toBe(0);
    expect(whileRunning.show.stdout).toMatch(/seed:\s+hidden until the match ends/);
    expect(whileRunning.show.stdout).toMatch(/replay:\s+hidden until the match ends/);
    expect(whileRunning.show.stderr).toContain(`arena watch ${running}`);
    expect(whileRunning.replay.code).toBe(1);
    expect(whileRunning.replay.stderr).toContain(`match ${running} is still running`);
    expect(whileRunning.replay.stderr).toContain(`arena watch ${running}`);
  });

  it('watch --plain prints a line per event in order from where it joined, then the placements, and exits 0', async () => {
    expect(watched.code, watched.stderr).toBe(0);
    const lines = watched.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^match ${running} \\(running\\): seats 0 bot\\d, 1 bot\\d, 2 bot\\d, 3 bot\\d; joined at event \\d+`),
    );
    const record = MatchRecordSchema.parse(await (await fetch(`${arena.url}/matches/${running}`)).json());
    const seqs = lines.slice(1, -1).map((l) => Number(/^#(\d+) turn \d+: /.exec(l)![1]));
    // From the recent window of the snapshot it joined with, every event to the end, each once.
    const joinedAt = Number(/joined at event (\d+)/.exec(lines[0])![1]);
    expect(seqs[0]).toBe(Math.max(0, joinedAt - 50));
    expect(seqs).toEqual(record.replay.slice(seqs[0]).map((e) => e.seq));
    expect(lines.at(-1)).toMatch(/^end: match completed: #1 seat \d \(bot\d\) \d+ VP [+-]\d/);
    // Public facts only: strikes without their reason, bought cards unnamed.
    expect(watched.stdout).toMatch(/strike 2: (illegal|malformed) on a \w+ decision\n/);
    expect(watched.stdout).not.toMatch(/bought a dev card \(/);
    for (const b of arena.bots) expect(watched.stdout + watched.stderr).not.toContain(new URL(b.server.url).host);
  });

  it('matches list: a table newest first, --bot and --status filters, --json', async () => {
    const [second] = await arena.tick();
    await arena.idle();
    const table = await cli(['matches', 'list']);
    expect(table.code, table.stderr).toBe(0);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^ID\s+STATUS\s+STARTED\s+DURATION\s+SEATS$/);
    expect(rows[1]).toMatch(
      new RegExp(`^${second}\\s+completed\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ\\s+\\S+`),
    );
    expect(rows[2]).toMatch(new RegExp(`^${running}\\s+completed`));
    expect(rows[1]).toMatch(/bot\d#[1-4]\([+-]\d+\.\d\)/);
    const byBot = MatchPageSchema.parse(
      JSON.parse((await cli(['matches', 'list', '--bot', arena.bots[0].id, '--json'])).stdout),
    );
    expect(byBot.matches.map((m) => m.id)).toEqual([second, running]);
    const none = await cli(['matches', 'list', '--status', 'aborted']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('no matches yet with these filters');
    const one = MatchPageSchema.parse(JSON.parse((await cli(['matches', 'list', '--limit', '1', '--json'])).stdout));
    expect(one.matches.map((m) => m.id)).toEqual([second]);
    expect(one.next).not.toBeNull();
  });

  it('matches show: fields, seats with placement, VP, rating change and strikes; --json is the served Match', async () => {
    const shown = await cli(['matches', 'show', running]);
    expect(shown.code, shown.stderr).toBe(0);
    const record = MatchRecordSchema.parse(await (await fetch(`${arena.url}/matches/${running}`)).json());
    expect(shown.stdout).toMatch(new RegExp(`seed:\\s+${record.seed}`));
    expect(shown.stdout).toMatch(/result:\s+(win|turn cap) after \d+ turns/);
    expect(shown.stdout).toMatch(new RegExp(`replay:\\s+${record.replay.length} events`));
    expect(shown.stdout).toMatch(/SEAT\s+BOT\s+NAME\s+PLACE\s+VP\s+RATING\s+STRIKES/);
    const illegal = record.players.find((p) => p.botId === arena.bots[3].id)!;
    expect(shown.stdout).toMatch(
      new RegExp(
        `${illegal.seat}\\s+${illegal.botId}\\s+bot3\\s+${illegal.placement}\\s+${record.vp![illegal.seat]}\\s+[+-]\\d+\\.\\d\\s+2\\n`,
      ),
    );
    expect(shown.stderr).toContain(`arena replay ${running}`);
    const json = await cli(['matches', 'show', running, '--json']);
    expect(MatchRecordSchema.parse(JSON.parse(json.stdout))).toEqual(record);
  });

  it('leaderboard: ranked table with owner handle and 1-decimal ratings; --json as the API', async () => {
    const json = await cli(['leaderboard', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const board = LeaderboardSchema.parse(JSON.parse(json.stdout));
    expect(board.rows).toHaveLength(4);
    expect(
      board.rows.every(
        (r) => r.gamesPlayed === 2 && r.owner === 'owner' && Math.round(r.rating * 10) / 10 === r.rating,
      ),
    ).toBe(true);
    const table = await cli(['leaderboard']);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^RANK\s+BOT\s+OWNER\s+RATING\s+GAMES\s+ID$/);
    board.rows.forEach((r, i) =>
      expect(rows[i + 1]).toMatch(
        new RegExp(`^${r.rank}\\s+${r.name}\\s+@owner\\s+${r.rating.toFixed(1)}\\s+2\\s+${r.botId}$`),
      ),
    );
  });

  it('replay MATCH-ID fetches the finished match from the server (--url or the environment) and shows it', async () => {
    const plain = await cli(['replay', running, '--plain', '--turn', 'end'], { ARENA_URL: '' });
    expect(plain.code).toBe(2); // no file of that name, and no server configured: a usage error, like every command's
    expect(plain.stderr).toMatch(/no server to fetch match/);
    const viaFlag = await cli(['replay', running, '--plain', '--turn', 'end', '--url', arena.url], { ARENA_URL: '' });
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect(viaFlag.stdout).toContain('game over');
    expect(viaFlag.stdout).toContain(`match ${running}`);
    const json = await cli(['replay', running, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const record = MatchRecordSchema.parse(await (await fetch(`${arena.url}/matches/${running}`)).json());
    expect(JSON.parse(json.stdout).outcome.placements).toEqual(
      record.players.sort((a, b) => a.seat - b.seat).map((p) => p.placement),
    );
    const missing = await cli(['replay', 'm_nosuchmatch', '--plain']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('has no match with that id');
  });

  it('refusals: unknown match, no server, bad flags; each with a clear message and its exit code', async () => {
    const show = await cli(['matches', 'show', 'm_nosuchmatch']);
    expect([show.code, show.stderr]).toEqual([
      1,
      expect.stringMatching(/no match m_nosuchmatch \(HTTP 404 not_found\)/),
    ]);
    const watch = await cli(['watch', 'm_nosuchmatch', '--plain']);
    expect([watch.code, watch.stderr]).toEqual([
      1,
      `arena: no match m_nosuchmatch on ${arena.url}; \`arena matches list\` shows the recent ones\n`,
    ]);
    // Without --plain and without a terminal: the plain lines, and a note why on stderr.
    const piped = await cli(['watch', running]);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toContain('not a terminal');
    // A finished match: who played, its last 50 events, and how it ended.
    expect(piped.stdout).toMatch(
      new RegExp(`^match ${running} \\(completed\\): seats .*\n(#\\d+ turn \\d+: .*\n){50}end: match completed: #1 `),
    );
    // A bad --url is said alone, not after the note on how it would have printed.
    const badUrl = await cli(['watch', running, '--url', 'notaurl']);
    expect([badUrl.code, badUrl.stderr]).toEqual([
      2,
      expect.stringMatching(/^arena: server URL "notaurl" \(from --url\) is not a URL/),
    ]);
    const noServer = await cli(['leaderboard'], { ARENA_URL: '' });
    expect([noServer.code, noServer.stderr]).toEqual([
      2,
      expect.stringMatching(/no server configured: pass --url URL/),
    ]);
    for (const args of [
      ['matches', 'list', '--limit', '0'],
      ['matches', 'list', '--status', 'paused'],
      ['matches', 'list', '--bot', 'a/b'],
      ['watch', '../etc'],
      ['matches', 'show', 'x y'],
    ]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
    }
    const down = await cli(['matches', 'list', '--url', 'http://127.0.0.1:9']);
    // Port 9 is one fetch refuses before connecting: the message says so, and what to do.
    expect([down.code, down.stderr]).toEqual([
      1,
      expect.stringMatching(
        /cannot reach http:\/\/127\.0\.0\.1:9: bad port \(fetch refuses port 9, as browsers do; run the server on another port\)/,
      ),
    ]);
  });
});

describe('an unrated match (two bots of one owner at the table, --same-owner avoid)', () => {
  it('matches show and list say "unrated", and the API record has rated: false', async () => {
    const own = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), wellBehaved()], { sameOwner: 'avoid' });
    try {
      const [id] = await own.tick();
      await own.idle();
      const record = MatchRecordSchema.parse(await (await fetch(`${own.url}/matches/${id}`)).json());
      expect(record).toMatchObject({ status: 'completed', rated: false });
      const shown = await runCli(['matches', 'show', id, '--url', own.url], {
        env: { HOME: home, ARENA_CONFIG_DIR: join(home, 'config') },
      });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toMatch(
        /status:\s+completed, unrated \(two bots of one owner at the table: no rating changed\)/,
      );
      const listed = await runCli(['matches', 'list', '--url', own.url], {
        env: { HOME: home, ARENA_CONFIG_DIR: join(home, 'config') },
      });
      expect(listed.stdout).toMatch(new RegExp(`${id}\\s+completed unrated\\s`));
    } finally {
      await own.close();
    }
  });
});
