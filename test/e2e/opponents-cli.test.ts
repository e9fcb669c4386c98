// `arena bots show BOT --opponents` and `arena matches list --bot A --vs B`,
// run as the real commander program against a real server (startServer on a
// file store, --dev, port 0) whose matches are stored as the scheduler stores them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchPageSchema } from '../../src/client/public';
import { formatPublicKey, generateKeyPair, privateKeyToPem } from '../../src/keys/index';
import { OpponentPageSchema } from '../../src/protocol/api';
import { addKey, addUser } from '../../src/service/admin/accounts';
import { startServer, type RunningServer } from '../../src/service/server';
import { openFileStore, type FileStore } from '../../src/service/store/file-store';
import { runCli } from '../support/run-cli';
import { completed, ratingsFor, runningMatch } from '../service/store/store-fixtures';

let dir: string;
let store: FileStore;
let server: RunningServer;
let env: Record<string, string>;
const ids: Record<string, string> = {};
const both: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-opponents-cli-'));
  store = await openFileStore(join(dir, 'data'));
  const user = await addUser(store, { email: 'ops@example.com', handle: 'ops' });
  const other = await addUser(store, { email: 'rival@example.com', handle: 'rival' });
  const pair = generateKeyPair();
  writeFileSync(join(dir, 'ops.pem'), privateKeyToPem(pair.privateKey), { mode: 0o600 });
  const keyId = (await addKey(store, { user: user.id, publicKey: formatPublicKey(pair.publicKey, 'raw') })).id;
  for (const [name, owner] of [
    ['mine', user.id],
    ['zed', other.id],
    ['amy', other.id],
  ] as const) {
    ids[name] = (
      await store.addBot({ ownerId: owner, name, game: 'pioneers', url: `wss://${name}.hidden.example/` })
    ).id;
  }
  // Seats mine, zed, amy: mine finishes above zed twice in 3, above amy once in 3, then once more in a 4th match.
  for (const places of [
    [1, 2, 3],
    [3, 1, 2],
    [2, 3, 1],
  ]) {
    const c = completed(runningMatch([ids.mine, ids.zed, ids.amy]));
    const done = { ...c, players: c.players.map((p, i) => ({ ...p, placement: places[i] })) };
    await store.completeMatch(done, ratingsFor(done));
    both.push(done.id);
  }
  const c = completed(runningMatch([ids.mine, ids.amy, ids.amy.replace(/.$/, 'x')]));
  await store.completeMatch(c, []);
  server = await startServer({
    store,
    dataDir: join(dir, 'data'),
    port: 0,
    dev: true,
    tickSeconds: 0,
    qualify: 'off',
    logOut: { write: () => true },
  });
  env = {
    HOME: dir,
    ARENA_CONFIG_DIR: join(dir, 'config'),
    ARENA_URL: server.url,
    ARENA_KEY_ID: keyId,
    ARENA_KEY_FILE: join(dir, 'ops.pem'),
  };
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { env, cwd: dir });

describe('arena bots show --opponents', () => {
  it('prints one row per opponent: games, above (count and share), both mean placements; never a URL', async () => {
    const r = await cli('bots', 'show', 'mine', '--opponents');
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['OPPONENT', 'OWNER', 'ID', 'GAMES', 'ABOVE', 'MEAN', 'THEIRS']);
    // Most games first: amy (4; mine placed 1, 3, 2, 1 and amy 3, 2, 1, 2), then zed (3).
    expect(lines[1].split(/\s{2,}/)).toEqual(['amy', 'rival', ids.amy, '4', '2 (50%)', '1.75', '2.00']);
    expect(lines[2].split(/\s{2,}/)).toEqual(['zed', 'rival', ids.zed, '3', '2 (67%)', '2.00', '2.00']);
    expect(r.stdout + r.stderr).not.toContain('hidden.example');
    const byName = await cli('bots', 'show', ids.mine, '--opponents', '--sort', 'name', '--reverse');
    expect(
      byName.stdout
        .split('\n')
        .slice(1, 3)
        .map((l) => l.split(/\s{2,}/)[0]),
    ).toEqual(['zed', 'amy']);
  });

  it('--json prints the API page', async () => {
    const r = await cli('bots', 'show', 'mine', '--opponents', '--sort', 'above', '--json');
    expect(r.code, r.stderr).toBe(0);
    const page = OpponentPageSchema.parse(JSON.parse(r.stdout));
    expect(page.botId).toBe(ids.mine);
    expect(page.opponents.find((o) => o.botId === ids.zed)).toMatchObject({
      games: 3,
      above: 2,
      meanPlacement: 2,
      opponentMeanPlacement: 2,
    });
  });

  it('--sort without --opponents is a usage error (exit 2), before any request', async () => {
    const r = await cli('bots', 'show', 'mine', '--sort', 'name');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--sort and --reverse go with --opponents/);
  });
});

describe('arena matches list --bot A --vs B', () => {
  it('lists the matches both played, newest first', async () => {
    const r = await cli('matches', 'list', '--bot', ids.mine, '--vs', ids.zed, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(MatchPageSchema.parse(JSON.parse(r.stdout)).matches.map((m) => m.id)).toEqual([...both].reverse());
    const table = await cli('matches', 'list', '--bot', ids.mine, '--vs', ids.zed);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(1 + both.length);
    const bad = await cli('matches', 'list', '--bot', ids.mine, '--vs', '../x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--vs takes a bot id/);
  });
});
