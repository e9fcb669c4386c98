// Replay protection across a restart (issue 27, item 5): the file store's
// replay cache lives in memory, so a server refuses signed requests stamped
// before it started; a replay guard shared beyond the process (the Postgres
// store's) is plugged in through startServer and remembers across restarts.
// Real server, real file store on one data directory, real signatures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair, publicKeyRaw, signRequest } from '../../../src/keys/index';
import { REQUEST_WINDOW_MS } from '../../../src/keys/index';
import { ReplayCache, type ReplayCheck, type ReplayGuard } from '../../../src/service/http/replay-cache';
import { startServer, type RunningServer } from '../../../src/service/server';
import { openFileStore, type FileStore } from '../../../src/service/store/index';

let dir = '';
let store: FileStore | null = null;
let server: RunningServer | null = null;

afterEach(async () => {
  await server?.close();
  await store?.close();
  server = store = null;
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the store on the data directory and starts a server on it, as `arena serve` does. */
async function start(replayGuard?: ReplayGuard): Promise<string> {
  store = await openFileStore(join(dir, 'data'));
  server = await startServer({ store, dataDir: join(dir, 'data'), port: 0, dev: true, tickSeconds: 0, replayGuard });
  return server.url;
}

async function restart(replayGuard?: ReplayGuard): Promise<string> {
  await server!.close();
  await store!.close();
  return start(replayGuard);
}

async function send(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const res = await request(`${url}/me`, { headers });
  return { status: res.statusCode, body: await res.body.json() };
}

async function setUp(replayGuard?: ReplayGuard) {
  dir = mkdtempSync(join(tmpdir(), 'arena-replay-restart-'));
  const url = await start(replayGuard);
  const user = await store!.createUser({ email: 'replayed@example.com', name: 'replayed' });
  const pair = generateKeyPair();
  const key = await store!.addKey({
    userId: user.id,
    name: 'k',
    publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
    scopes: ['account.read'],
  });
  return { url, sign: (at?: number) => signRequest(pair.privateKey, key.id, { method: 'GET', path: '/me' }, at) };
}

describe('a signed request accepted before a restart', () => {
  it('is refused after it (file store): 401 telling the client to sign again; a fresh signature is accepted', async () => {
    const { url, sign } = await setUp();
    const captured = sign();
    expect((await send(url, captured)).status).toBe(200);
    // Signed before the restart but never sent: refused too, it cannot be told from a replay.
    const unsent = sign();
    const after = await restart();
    for (const headers of [captured, unsent]) {
      const res = await send(after, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
      expect(res.body.error.message).toMatch(
        /before the server last started.*sign the request again now.*clock is behind/,
      );
    }
    expect((await send(after, sign())).status).toBe(200);
    expect(await request(`${after}/metrics`).then((r) => r.body.text())).toMatch(
      /arena_auth_failures_total\{reason="signed_before_start"\} 2/,
    );
  });

  it('is refused as a replay after it when the replay guard outlives the process; older unseen ones are accepted', async () => {
    // What the Postgres store does: one memory for every process. Here one cache outlives the
    // server, answering asynchronously as a database would.
    const shared = new ReplayCache(REQUEST_WINDOW_MS);
    const guard: ReplayGuard = { check: async (key, ts, now): Promise<ReplayCheck> => shared.check(key, ts, now) };
    const { url, sign } = await setUp(guard);
    const captured = sign();
    const unsent = sign(Date.now() + 1);
    expect((await send(url, captured)).status).toBe(200);
    const after = await restart(guard);
    const replay = await send(after, captured);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toMatch(/already used/);
    expect((await send(after, unsent)).status).toBe(200);
  });
});
