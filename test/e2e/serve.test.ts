// The operator's and the owner's path end to end: `arena admin` bootstraps a
// user and key on a new data directory (offline, before the server starts),
// `arena serve --dev --port 0` runs as a real process, the example bots run as
// real servers that verify the server's signed handshakes, and the owner
// manages account, keys and bots through the CLI with signed requests.
// Owner commands run in-process (runCli: the real commander program with its
// own streams; spawning costs seconds here); login and `arena me` also run as
// a real process once, through the saved profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';
import {
  formatPublicKey,
  generateKeyPair,
  loadPrivateKeyFile,
  signRequest,
  writePrivateKeyFile,
} from '../../src/keys/index';
import { ApiKeyMetaSchema, BotListSchema, BotSchema, UserSchema } from '../../src/protocol/api';
import { openFileStore } from '../../src/service/store/file-store';
import { runCli } from '../support/run-cli';
import { runArena } from '../support/run-arena';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process';
import { SIGNAL_ECHO_MS } from '../../src/cli/interrupt';

let dir: string;
let dataDir: string;
let baseEnv: Record<string, string>;
let serve: ServeProcess;
const bots: RunningBot[] = [];
let starter: RunningBot;
let heuristic: RunningBot;

const keyFile = (name: string) => join(dir, `${name}.pem`);
const ids = { ops: '', opsKey: '', readOnlyKey: '', other: '', otherKey: '' };

/** Env for an owner command signed with the given key (no profile needed). */
function as(keyId: string, file: string): Record<string, string> {
  return { ...baseEnv, ARENA_URL: serve.url, ARENA_KEY_ID: keyId, ARENA_KEY_FILE: file };
}
const ops = () => as(ids.opsKey, keyFile('ops'));

async function admin(args: string[]) {
  const r = await runCli(['admin', ...args, '--data', dataDir], { env: baseEnv });
  expect(r.code, r.stderr).toBe(0);
  return r;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-serve-e2e-'));
  dataDir = join(dir, 'data');
  baseEnv = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') };
  for (const name of ['ops', 'other', 'readonly']) writePrivateKeyFile(keyFile(name), generateKeyPair().privateKey);

  // Offline bootstrap: the data directory does not exist yet.
  ids.ops = UserSchema.parse(
    JSON.parse((await admin(['user', 'add', '--email', 'ops@example.com', '--handle', 'ops', '--json'])).stdout),
  ).id;
  ids.opsKey = ApiKeyMetaSchema.parse(
    JSON.parse(
      (await admin(['key', 'add', '--user', 'ops@example.com', '--public-key', keyFile('ops'), '--json'])).stdout,
    ),
  ).id;
  ids.readOnlyKey = (
    await admin([
      'key',
      'add',
      '--user',
      ids.ops,
      '--public-key',
      keyFile('readonly'),
      '--name',
      'ro',
      '--scopes',
      'bots.read,account.read',
    ])
  ).stdout.trim();
  ids.other = (await admin(['user', 'add', '--email', 'other@example.com', '--handle', 'other'])).stdout.trim();
  ids.otherKey = (
    await admin(['key', 'add', '--user', 'other@example.com', '--public-key', keyFile('other')])
  ).stdout.trim();

  serve = await startServe(['--dev', '--port', '0', '--data', dataDir, '--qualify', 'off'], baseEnv);
  // The example bots verify every handshake with the key the server printed.
  starter = await startStarter({ port: 0, platformPublicKey: serve.platformKey });
  heuristic = await startHeuristic({ port: 0, platformPublicKey: serve.platformKey });
  bots.push(starter, heuristic);
});

afterAll(async () => {
  if (serve) await stopServe(serve);
  for (const b of bots) await b.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('arena serve: start-up', () => {
  it('names the data directory, the loud dev mode, the platform key and the address; serves the key it printed', async () => {
    const err = serve.stderr();
    expect(err).toContain(`data directory ${dataDir}`);
    expect(err).toMatch(/DEVELOPMENT MODE \(--dev\)/);
    expect(err).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(serve.url).not.toMatch(/:0$/);
    const doc = (await (await fetch(`${serve.url}/.well-known/svc.json`)).json()) as { publicKey: string };
    expect(doc.publicKey).toBe(serve.platformKey);
    expect(Buffer.from(doc.publicKey, 'base64')).toHaveLength(32);
    // The key lives in the data directory, private to its owner.
    expect(statSync(join(dataDir, 'platform-key.pem')).mode & 0o777).toBe(0o600);
  });
});

describe('owner CLI against the running server', () => {
  it('arena login then arena me, as real processes: a signed GET /me through the saved profile', async () => {
    const env = baseEnv;
    const login = await runArena(['login', '--url', serve.url, '--key-id', ids.opsKey, '--key', keyFile('ops')], {
      env,
    });
    expect(login.code, login.stderr).toBe(0);
    const me = await runArena(['me'], { env });
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain('@ops');
    expect(me.stdout).toContain('ops@example.com');
    const json = await runArena(['me', '--json'], { env });
    expect(UserSchema.parse(JSON.parse(json.stdout))).toEqual({ id: ids.ops, name: 'ops', email: 'ops@example.com' });
  });

  it('registers, lists, shows, pauses, resumes, updates and removes the example bots', async () => {
    const reg1 = await runCli(['bots', 'register', 'starter', starter.url, '--json'], { env: ops() });
    expect(reg1.code, reg1.stderr).toBe(0);
    const s = BotSchema.parse(JSON.parse(reg1.stdout));
    expect(s).toMatchObject({
      name: 'starter',
      url: starter.url,
      status: 'active',
      ownerId: ids.ops,
      game: 'pioneers',
    });
    const reg2 = await runCli(['bots', 'register', 'heuristic', heuristic.url], { env: ops() });
    expect(reg2.code, reg2.stderr).toBe(0);
    expect(reg2.stdout).toMatch(/name:\s+heuristic/);
    expect(reg2.stderr).toMatch(/registered heuristic \(b_/);

    // A table on the terminal, JSON with --json.
    const table = await runCli(['bots', 'list'], { env: ops() });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+GAME\s+URL\s+CREATED$/);
    expect(table.stdout).toMatch(/starter\s+active/);
    expect(table.stdout).toMatch(/heuristic\s+active/);
    const listed = BotListSchema.parse(JSON.parse((await runCli(['bots', 'list', '--json'], { env: ops() })).stdout));
    expect(listed.bots.map((b) => b.name).sort()).toEqual(['heuristic', 'starter']);

    // By name or by id.
    const shown = await runCli(['bots', 'show', 'starter', '--json'], { env: ops() });
    expect(BotSchema.parse(JSON.parse(shown.stdout)).id).toBe(s.id);

    const paused = await runCli(['bots', 'pause', 'starter', '--json'], { env: ops() });
    expect(paused.code, paused.stderr).toBe(0);
    expect(BotSchema.parse(JSON.parse(paused.stdout)).status).toBe('paused');
    expect((await runCli(['bots', 'list'], { env: ops() })).stdout).toMatch(/starter\s+paused/);
    const resumed = await runCli(['bots', 'resume', s.id], { env: ops() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/status:\s+active/);

    // A new URL goes through the deploy check again: a second starter instance.
    const moved = await startStarter({ port: 0, platformPublicKey: serve.platformKey });
    bots.push(moved);
    const upd = await runCli(['bots', 'update', 'starter', '--name', 'starter_v2', '--bot-url', moved.url, '--json'], {
      env: ops(),
    });
    expect(upd.code, upd.stderr).toBe(0);
    expect(BotSchema.parse(JSON.parse(upd.stdout))).toMatchObject({ id: s.id, name: 'starter_v2', url: moved.url });
    // A URL where nothing answers (a bot that has stopped) is refused with the server's reason, and changes nothing.
    const stopped = await startStarter({ port: 0 });
    await stopped.close();
    const refused = await runCli(['bots', 'update', 'starter_v2', '--bot-url', stopped.url], { env: ops() });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/HTTP 422 deploy_check_failed/);
    expect(
      BotSchema.parse(JSON.parse((await runCli(['bots', 'show', s.id, '--json'], { env: ops() })).stdout)).url,
    ).toBe(moved.url);

    const removed = await runCli(['bots', 'remove', 'starter_v2'], { env: ops() });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stderr).toContain(`removed starter_v2 (${s.id})`);
    const after = BotListSchema.parse(JSON.parse((await runCli(['bots', 'list', '--json'], { env: ops() })).stdout));
    expect(after.bots.map((b) => b.name)).toEqual(['heuristic']);
    const gone = await runCli(['bots', 'show', s.id], { env: ops() });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/HTTP 404 not_found/);

    // Registered URLs never reach the server's log.
    for (const b of bots) expect(serve.stderr()).not.toContain(b.url);
  });

  it("arena me handle changes the public handle; a taken one is refused with the server's message", async () => {
    const r = await runCli(['me', 'handle', 'ops_team', '--json'], { env: ops() });
    expect(r.code, r.stderr).toBe(0);
    expect(UserSchema.parse(JSON.parse(r.stdout)).name).toBe('ops_team');
    const taken = await runCli(['me', 'handle', 'other'], { env: ops() });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/HTTP 409 conflict/);
    expect((await runCli(['me', '--json'], { env: ops() })).stdout).toContain('"name":"ops_team"');
  });

  it('arena keys add (an OpenSSH line), list and revoke; the revoked key fails at once with exit 4', async () => {
    const fresh = generateKeyPair();
    const file = join(dir, 'laptop.pem');
    writePrivateKeyFile(file, fresh.privateKey);
    const ssh = formatPublicKey(fresh.publicKey, 'ssh', 'ada@laptop');
    const added = await runCli(['keys', 'add', ssh, '--scopes', 'account.read', 'bots.read', '--json'], { env: ops() });
    expect(added.code, added.stderr).toBe(0);
    const meta = ApiKeyMetaSchema.parse(JSON.parse(added.stdout));
    expect(meta).toMatchObject({ name: 'ada@laptop', scopes: ['account.read', 'bots.read'], revokedAt: null });

    const list = await runCli(['keys', 'list'], { env: ops() });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${meta.id}\\s+ada@laptop\\s+account.read,bots.read`));

    expect((await runCli(['me'], { env: as(meta.id, file) })).code).toBe(0);
    const revoked = await runCli(['keys', 'revoke', meta.id, '--json'], { env: ops() });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(ApiKeyMetaSchema.parse(JSON.parse(revoked.stdout)).revokedAt).not.toBeNull();
    // Revoking another key says nothing more; revoking the key in use says what that means.
    expect(revoked.stderr).not.toContain('signed with');
    const denied = await runCli(['me'], { env: as(meta.id, file) });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/revoked.*HTTP 401 unauthenticated/);

    const selfFile = join(dir, 'self.pem');
    const self = generateKeyPair();
    writePrivateKeyFile(selfFile, self.privateKey);
    const selfMeta = ApiKeyMetaSchema.parse(
      JSON.parse(
        (
          await runCli(
            ['keys', 'add', formatPublicKey(self.publicKey, 'ssh', 'self'), '--scopes', 'keys.write', '--json'],
            { env: ops() },
          )
        ).stdout,
      ),
    );
    const own = await runCli(['keys', 'revoke', selfMeta.id], { env: as(selfMeta.id, selfFile) });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toContain(
      'arena: that was the key this command signed with: commands that use it now fail (exit 4)',
    );
  });

  it("maps 401 and 403 to exit 4 with the server's message, and changes nothing", async () => {
    // Unknown key id.
    const unknown = await runCli(['me'], { env: as('k_nosuchkey', keyFile('ops')) });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/HTTP 401 unauthenticated/);
    // Right key id, wrong private key: a bad signature.
    const forged = await runCli(['bots', 'list'], { env: as(ids.opsKey, keyFile('other')) });
    expect(forged.code).toBe(4);
    expect(forged.stderr).toMatch(/HTTP 401 unauthenticated/);
    // A key without bots.write.
    const ro = await runCli(['bots', 'register', 'sneaky', heuristic.url], {
      env: as(ids.readOnlyKey, keyFile('readonly')),
    });
    expect(ro.code).toBe(4);
    expect(ro.stderr).toMatch(/bots\.write.*HTTP 403 forbidden/);
    // Another owner's bot.
    const mine = BotListSchema.parse(
      JSON.parse((await runCli(['bots', 'list', '--json'], { env: ops() })).stdout),
    ).bots;
    const other = as(ids.otherKey, keyFile('other'));
    expect(
      BotListSchema.parse(JSON.parse((await runCli(['bots', 'list', '--json'], { env: other })).stdout)).bots,
    ).toEqual([]);
    for (const verb of ['show', 'pause', 'remove']) {
      const r = await runCli(['bots', verb, mine[0].id], { env: other });
      expect(r.code, `${verb}: ${r.stderr}`).toBe(4);
      expect(r.stderr).toMatch(/another account.*HTTP 403 forbidden/);
    }
    // Another owner's key.
    const theirs = await runCli(['keys', 'revoke', ids.opsKey], { env: other });
    expect(theirs.code).toBe(4);
    // Nothing changed.
    const still = BotListSchema.parse(
      JSON.parse((await runCli(['bots', 'list', '--json'], { env: ops() })).stdout),
    ).bots;
    expect(still).toEqual(mine);
    expect((await runCli(['me'], { env: ops() })).code).toBe(0);
  });
});

describe('one process per data directory', () => {
  it('arena admin refuses while the server holds the directory; arena admin backup copies it anyway', async () => {
    const r = await runCli(['admin', 'users', '--data', dataDir], { env: baseEnv });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/in use by a running server \(pid \d+\).*stop the server first/);
    const out = join(dir, 'backup');
    const b = await runCli(['admin', 'backup', out, '--data', dataDir], { env: baseEnv });
    expect(b.code, b.stderr).toBe(0);
    // The platform key comes along (0600): a server restored from the copy signs as this one does.
    expect(readFileSync(join(out, 'platform-key.pem'))).toEqual(readFileSync(join(dataDir, 'platform-key.pem')));
    expect(statSync(join(out, 'platform-key.pem')).mode & 0o777).toBe(0o600);
    const copy = await openFileStore(out);
    try {
      expect((await copy.listUsers()).map((u) => u.email).sort()).toEqual(['ops@example.com', 'other@example.com']);
      expect((await copy.listBots(ids.ops)).map((x) => x.name)).toEqual(['heuristic']);
    } finally {
      await copy.close();
    }
  });

  it('a second arena serve on the same data directory fails clearly', async () => {
    const second = await runArena(['serve', '--dev', '--port', '0', '--data', dataDir], { env: baseEnv });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/the data directory .* is in use by another arena process \(pid \d+\)/);
    expect(second.stderr).not.toMatch(/listening on/);
  });
});

/**
 * A signed POST /me/handle held in flight: headers with `Expect: 100-continue`,
 * so the server's "100 Continue" proves it has the request, and no body until finish().
 */
function heldRequest(url: string, handle: string) {
  const body = Buffer.from(JSON.stringify({ handle }));
  const headers = signRequest(loadPrivateKeyFile(keyFile('ops')), ids.opsKey, {
    method: 'POST',
    path: '/me/handle',
    body,
  });
  const u = new URL(url);
  const req = httpRequest({
    host: u.hostname,
    port: u.port,
    method: 'POST',
    path: '/me/handle',
    headers: {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(body.length),
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) => req.on('continue', () => resolve()));
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => (text += d))
        .on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { started, finish: () => req.end(body), abort: () => req.destroy(), response };
}

describe('stopping and restarting', () => {
  it('SIGTERM finishes the request in flight, flushes the store and exits 0; a restart keeps the data and the key', async () => {
    const held = heldRequest(serve.url, 'ops_final');
    await held.started;
    serve.child.kill('SIGTERM');
    await serve.waitFor(/SIGTERM: stopping/);
    held.finish();
    const res = await held.response;
    expect(res.status, res.body).toBe(200);
    expect(UserSchema.parse(JSON.parse(res.body)).name).toBe('ops_final');
    const exit = await serve.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(serve.stderr()).toMatch(/stopped; the store is flushed/);

    const key = serve.platformKey;
    serve = await startServe(['--dev', '--port', '0', '--data', dataDir, '--qualify', 'off'], baseEnv);
    expect(serve.platformKey).toBe(key);
    expect(serve.stderr()).not.toContain('(created)');
    const me = UserSchema.parse(JSON.parse((await runCli(['me', '--json'], { env: ops() })).stdout));
    expect(me.name).toBe('ops_final');
    const list = BotListSchema.parse(JSON.parse((await runCli(['bots', 'list', '--json'], { env: ops() })).stdout));
    expect(list.bots.map((b) => b.name)).toEqual(['heuristic']);
  });

  it('a second signal exits at once, without waiting for the request in flight; the next start takes the lock over', async () => {
    const held = heldRequest(serve.url, 'never_set');
    held.response.catch(() => {});
    await held.started;
    serve.child.kill('SIGTERM');
    await serve.waitFor(/SIGTERM: stopping/);
    // Later than an echo of the first (what `timeout` sends to the process group), so a real second signal.
    await new Promise((r) => setTimeout(r, SIGNAL_ECHO_MS + 50));
    serve.child.kill('SIGTERM');
    const exit = await serve.exited;
    held.abort();
    expect(exit.code).toBe(143);
    expect(serve.stderr()).toMatch(/second SIGTERM: exiting now/);
    expect(serve.stderr()).not.toMatch(/stopped; the store is flushed/);

    serve = await startServe(['--dev', '--port', '0', '--data', dataDir, '--qualify', 'off'], baseEnv);
    const me = UserSchema.parse(JSON.parse((await runCli(['me', '--json'], { env: ops() })).stdout));
    expect(me.name).toBe('ops_final');
  });
});
