// The owner commands' edges, in-process against a real server (startServer on
// a file store in a temp directory, --dev, port 0): usage errors before any
// request, missing settings, an unreachable or foreign server, names that are
// ambiguous or hostile to a terminal, and keys given in each accepted form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBot } from '../../examples/starter-bot/bot';
import type { RunningBot } from '../../examples/starter-bot/server';
import { formatPublicKey, generateKeyPair, privateKeyToPem, publicKeyRaw } from '../../src/keys/index';
import { ApiKeyMetaSchema, BotSchema, HANDLE_PATTERN, KeyListSchema, SCOPES } from '../../src/protocol/api';
import { addKey, addUser } from '../../src/service/admin/accounts';
import { startServer, type RunningServer } from '../../src/service/server';
import { openFileStore, type FileStore } from '../../src/service/store/file-store';
import { HANDLE_RE } from '../../src/cli/commands/me';
import { SCOPE_NAMES } from '../../src/cli/commands/keys-server';
import { runCli } from '../support/run-cli';

let dir: string;
let store: FileStore;
let server: RunningServer;
let bot: RunningBot;
let env: Record<string, string>;
let keyId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-owner-cli-'));
  store = await openFileStore(join(dir, 'data'));
  const user = await addUser(store, { email: 'ops@example.com', handle: 'ops' });
  const pair = generateKeyPair();
  writeFileSync(join(dir, 'ops.pem'), privateKeyToPem(pair.privateKey), { mode: 0o600 });
  keyId = (await addKey(store, { user: user.id, publicKey: formatPublicKey(pair.publicKey, 'raw') })).id;
  server = await startServer({
    store,
    dataDir: join(dir, 'data'),
    port: 0,
    dev: true,
    tickSeconds: 0,
    qualify: 'off',
    logOut: { write: () => true },
  });
  bot = await startBot({ port: 0 });
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
  await bot?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, { env, cwd: dir });

describe('constants kept out of the help path agree with the protocol', () => {
  it('handle pattern and scope names', () => {
    expect(HANDLE_RE.source).toBe(HANDLE_PATTERN.source);
    expect([...SCOPE_NAMES]).toEqual([...SCOPES]);
  });
});

describe('usage errors come before any request', () => {
  it('exit 2 for a bad handle, an unknown scope, an empty update, an unknown game', async () => {
    for (const [args, why] of [
      [['me', 'handle', 'Not OK'], /handle "Not OK" must be 2-32/],
      [['keys', 'add', join(dir, 'x.pub'), '--scopes', 'everything'], /unknown scope "everything"/],
      [['bots', 'update', 'b_x'], /nothing to change/],
      [['bots', 'list', '--game', 'chess'], /the only game is pioneers/],
      [['bots', 'register', '', bot.url], /1-64 characters/],
      // An empty flag (an unset shell variable) is a mistake, never a fall-back to the saved profile.
      [['bots', 'list', '--url', ''], /--url is empty; give a value or leave the flag out/],
      [['keys', 'list', '--key-id', ' '], /--key-id is empty/],
      [['matches', 'list', '--url', ''], /--url is empty/],
      [['login', '--url', '', '--key-id', 'k'], /--url is empty/],
    ] as const) {
      const r = await runCli([...args], { env: { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'none') } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(why);
    }
  });

  it('exit 2 naming what is missing when no server is configured (test/cli/no-server.test.ts covers every command)', async () => {
    const r = await runCli(['bots', 'list'], { env: { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'none') } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no server configured: pass --url URL, set ARENA_URL, or run `arena login/);
  });
});

/** A JSON answer that never ends (until the client goes away or 64 MiB). */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"rows":["');
  const chunk = 'x'.repeat(64 * 1024);
  let sent = 0;
  const more = () => {
    while (!res.destroyed && sent < 64 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
    if (!res.destroyed && sent < 64 * 1024 * 1024) res.once('drain', more);
  };
  more();
}

describe('servers that are not there or not ours', () => {
  let foreign: Server;
  let foreignUrl: string;
  beforeAll(async () => {
    foreign = createServer((req, res) => {
      if (req.url === '/me') res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}');
      else if (req.url === '/endless' || req.url?.startsWith('/leaderboard')) endless(res);
      else if (req.url?.startsWith('/keys'))
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { code: 'forbidden', message: 'no\u001b[2J\u001b]0;pwned\u0007 way' } }));
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
    });
    await new Promise<void>((r) => foreign.listen(0, '127.0.0.1', r));
    foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => foreign.close(() => r())));

  it('an answer that is not the API is exit 1, said plainly', async () => {
    const notJson = await cli('bots', 'list', '--url', foreignUrl);
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/without JSON; is the URL an arena server\?/);
    const wrongShape = await cli('me', '--url', foreignUrl);
    expect(wrongShape.code).toBe(1);
    expect(wrongShape.stderr).toMatch(/does not match the API/);
  });

  it("a server's error message cannot drive the terminal: its control characters are shown escaped", async () => {
    const r = await cli('keys', 'list', '--url', foreignUrl);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no\\u001b[2J\\u001b]0;pwned\\u0007 way (HTTP 403 forbidden)');
    // eslint-disable-next-line no-control-regex
    expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it('an answer that never ends is refused past 16 MiB, not read until memory runs out (signed and public requests)', async () => {
    for (const args of [['api', 'GET', '/endless'], ['leaderboard']]) {
      const r = await cli(...args, '--url', foreignUrl);
      expect([r.code, r.stderr]).toEqual([
        1,
        expect.stringMatching(/answered with more than 16777216 bytes; is the URL an arena server\?/),
      ]);
    }
  });

  it('a server that does not answer is exit 1 with the reason', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await cli('me', '--url', url);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});

describe('bots by name', () => {
  it('refuses a name two bots share, naming their ids; the id still works', async () => {
    const a = BotSchema.parse(JSON.parse((await cli('bots', 'register', 'twin', bot.url, '--json')).stdout));
    const b = BotSchema.parse(JSON.parse((await cli('bots', 'register', 'twin', bot.url, '--json')).stdout));
    const r = await cli('bots', 'pause', 'twin');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`arena: 2 of your bots are named "twin"; give the id (${a.id}, ${b.id})\n`);
    expect((await cli('bots', 'pause', b.id)).code).toBe(0);
    expect(BotSchema.parse(JSON.parse((await cli('bots', 'show', a.id, '--json')).stdout)).status).toBe('active');
    await cli('bots', 'remove', a.id);
    await cli('bots', 'remove', b.id);
  });

  it('"." and ".." are no ids: one line saying so, and no request that a URL parser would send elsewhere', async () => {
    for (const args of [
      ['bots', 'show', '..'],
      ['bots', 'remove', '.'],
      ['bots', 'pause', '..'],
      ['keys', 'revoke', '..'],
    ]) {
      const r = await cli(...args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([
        1,
        `arena: "${args[2]}" is not an id (ids look like b_... for bots and k_... for keys)\n`,
      ]);
    }
  });

  it('a name with terminal escapes, a tab, a direction override or only spaces is refused (400, the reason) and nothing is registered', async () => {
    const before = (await cli('bots', 'list', '--json')).stdout;
    const cases = [
      ['x\u001b[2J\u001b]0;owned\u0007y', 'must not contain control characters'],
      ['a\tb', 'must not contain control characters'],
      ['\u202etob-tseb', 'must not contain text-direction overrides'],
      ['x\u2067y', 'must not contain text-direction overrides'],
      ['   ', 'must not be blank'],
    ];
    for (const [name, why] of cases) {
      const reg = await cli('bots', 'register', name, bot.url);
      expect(reg.code, reg.stderr).toBe(1);
      expect(reg.stderr).toContain(`name: ${why}`);
      expect(reg.stderr).toContain('HTTP 400 invalid_request');
      expect(reg.stderr).not.toMatch(/\u001b|\u0007/);
    }
    expect((await cli('bots', 'list', '--json')).stdout).toBe(before);
  });
});

describe('flags instead of settings', () => {
  it('arena me handle takes --url, --key-id, --key and --json after the subcommand', async () => {
    const bare = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'none') };
    const r = await runCli(
      ['me', 'handle', 'ops_flags', '--url', server.url, '--key-id', keyId, '--key', 'ops.pem', '--json'],
      { env: bare, cwd: dir },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'ops_flags', email: 'ops@example.com' });
    const me = await runCli(['me', '--url', server.url, '--key-id', keyId, '--key', join(dir, 'ops.pem')], {
      env: bare,
    });
    expect(me.stdout).toMatch(/handle: @ops_flags/);
  });
});

describe('arena keys add: every accepted form', () => {
  it('a public key file, a PEM file, a raw base64 line and a private key file (only its public half is sent)', async () => {
    const forms: Array<[string, string]> = [];
    for (const form of ['ssh', 'pem', 'raw', 'private'] as const) {
      const pair = generateKeyPair();
      const raw = Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64');
      const file = join(dir, `k-${form}.${form === 'private' ? 'pem' : 'pub'}`);
      writeFileSync(
        file,
        form === 'private' ? privateKeyToPem(pair.privateKey) : formatPublicKey(pair.publicKey, form) + '\n',
        { mode: 0o600 },
      );
      const r = await cli('keys', 'add', form === 'raw' ? raw : file, '--json');
      expect(r.code, `${form}: ${r.stderr}`).toBe(0);
      const meta = ApiKeyMetaSchema.parse(JSON.parse(r.stdout));
      expect(meta.publicKey).toBe(raw);
      expect(meta.scopes).toEqual(['bots.read', 'bots.write']);
      forms.push([meta.id, form === 'raw' ? 'arena-cli' : `k-${form}`]);
    }
    const listed = KeyListSchema.parse(JSON.parse((await cli('keys', 'list', '--json')).stdout)).keys;
    for (const [id, name] of forms) expect(listed.find((k) => k.id === id)?.name).toBe(name);
  });

  it('--name counts characters as the server does: 64 emoji are taken, 65 are a usage error', async () => {
    const file = join(dir, 'k-emoji.pub');
    writeFileSync(file, formatPublicKey(generateKeyPair().publicKey, 'ssh') + '\n');
    const name = '\u{1F511}'.repeat(64); // 128 UTF-16 units
    const r = await cli('keys', 'add', file, '--name', name, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(ApiKeyMetaSchema.parse(JSON.parse(r.stdout)).name).toBe(name);
    const over = await cli('keys', 'add', file, '--name', `${name}x`);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/1-64 characters/);
  });

  it('a file that holds no Ed25519 key is refused locally with exit 1', async () => {
    const file = join(dir, 'rsa.pub');
    writeFileSync(file, 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ me@host\n');
    const r = await cli('keys', 'add', file);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not ssh-ed25519/);
  });
});
