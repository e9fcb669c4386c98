// `arena admin` on real data directories (the file store on real files), run
// in-process through the commander program: every refusal is clear, has the
// documented exit code and changes nothing in the store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatPublicKey, generateKeyPair, privateKeyToPem, publicKeyRaw } from '../../src/keys/index';
import { ApiKeyMetaSchema, SCOPES, UserSchema } from '../../src/protocol/api';
import { addKey, addUser, AdminError, listUsers } from '../../src/service/admin/accounts';
import { openFileStore } from '../../src/service/store/file-store';
import { runCli } from '../support/run-cli';
import { runArena } from '../support/run-arena';
import { storeBytes } from '../service/support/store-bytes';
import { startServe, stopServe } from '../support/serve-process';

let dir: string;
let data: string;
let env: Record<string, string>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-admin-'));
  data = join(dir, 'data');
  env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config'), ARENA_DATA_DIR: data };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const admin = (...args: string[]) => runCli(['admin', ...args], { env, cwd: dir });

function keyFiles(name: string) {
  const pair = generateKeyPair();
  const priv = join(dir, `${name}.pem`);
  const pub = join(dir, `${name}.pub`);
  writeFileSync(priv, privateKeyToPem(pair.privateKey), { mode: 0o600 });
  writeFileSync(pub, formatPublicKey(pair.publicKey, 'ssh', `${name}@host`) + '\n');
  return { priv, pub, raw: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64') };
}

/** The store.json and journal bytes: "changes nothing" means these stay the same. */
const doc = () => storeBytes(data);

describe('arena admin user add', () => {
  it('creates the data directory and the user; --json prints the User', async () => {
    const r = await admin('user', 'add', '--email', 'Ops@Example.com', '--handle', 'ops', '--json');
    expect(r.code, r.stderr).toBe(0);
    const user = UserSchema.parse(JSON.parse(r.stdout));
    expect(user).toMatchObject({ name: 'ops', email: 'Ops@Example.com' });
    const plain = await admin('user', 'add', '--email', 'ada@example.com');
    expect(plain.stdout).toMatch(/^u_\S+\n$/);
    const store = await openFileStore(data);
    try {
      expect((await store.listUsers()).map((u) => [u.id, u.name])).toEqual([
        [user.id, 'ops'],
        [plain.stdout.trim(), ''],
      ]);
    } finally {
      await store.close();
    }
  });

  it.runIf(existsSync('/proc/self'))(
    'a data directory that cannot be made (under /proc) is exit 1 with the reason, for admin and serve alike',
    async () => {
      for (const args of [
        ['admin', 'user', 'add', '--email', 'ops@example.com'],
        ['serve', '--port', '0'],
      ]) {
        const r = await runCli([...args, '--data', '/proc/arena-no-such-dir/data'], { env, cwd: dir });
        expect([r.code, r.stderr]).toEqual([
          1,
          expect.stringMatching(/cannot open the store in \/proc\/arena-no-such-dir\/data: ENOENT/),
        ]);
      }
    },
  );

  it('refuses a bad e-mail, a bad handle, a taken e-mail or handle, changing nothing', async () => {
    expect((await admin('user', 'add', '--email', 'ops@example.com', '--handle', 'ops')).code).toBe(0);
    const before = doc();
    for (const [args, why] of [
      [['--email', 'not-an-address'], /not an e-mail address/],
      [['--email', 'x@example.com', '--handle', 'Bad Handle'], /handle "Bad Handle" must be 2-32 characters/],
      [['--email', 'x@example.com', '--handle', 'a'], /must be 2-32/],
      [['--email', 'OPS@example.com'], /already exists/],
      [['--email', 'x@example.com', '--handle', 'ops'], /handle ops is taken/],
    ] as const) {
      const r = await admin('user', 'add', ...args);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
    expect(doc()).toBe(before);
    // A missing --email is a usage error.
    expect((await admin('user', 'add')).code).toBe(2);
  });
});

describe('arena admin key add', () => {
  it('gives all six scopes by default; --json prints the ApiKeyMeta whose id is the key id', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    const k = keyFiles('ops');
    const r = await admin('key', 'add', '--user', 'ops@example.com', '--public-key', k.pub, '--json');
    expect(r.code, r.stderr).toBe(0);
    const meta = ApiKeyMetaSchema.parse(JSON.parse(r.stdout));
    expect(meta.scopes).toEqual([...SCOPES]);
    expect(meta.publicKey).toBe(k.raw);
    expect(meta.name).toBe('admin');
    const store = await openFileStore(data);
    try {
      expect((await store.getKey(meta.id))?.publicKey).toBe(k.raw);
    } finally {
      await store.close();
    }
  });

  it('takes the owner by id, a private key file (its public half only), a name and chosen scopes in either form', async () => {
    const uid = (await admin('user', 'add', '--email', 'ops@example.com')).stdout.trim();
    const k = keyFiles('laptop');
    const r = await admin(
      'key',
      'add',
      '--user',
      uid,
      '--public-key',
      k.priv,
      '--name',
      'ci',
      '--scopes',
      'bots.read,bots.write',
      'keys.read',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(ApiKeyMetaSchema.parse(JSON.parse(r.stdout))).toMatchObject({
      name: 'ci',
      publicKey: k.raw,
      scopes: ['bots.read', 'bots.write', 'keys.read'],
    });
    // No private key material reached the store.
    expect(doc()).not.toContain('PRIVATE');
  });

  it('refuses unknown users, bad keys and unknown scopes, changing nothing', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    const k = keyFiles('ops');
    const before = doc();
    const garbage = join(dir, 'garbage.pub');
    writeFileSync(garbage, 'ssh-rsa AAAAB3NzaC1yc2E nope\n');
    for (const [args, code, why] of [
      [['--user', 'nobody@example.com', '--public-key', k.pub], 1, /no user "nobody@example.com"/],
      [['--user', 'u_missing', '--public-key', k.pub], 1, /no user "u_missing"/],
      [['--user', 'ops@example.com', '--public-key', garbage], 1, /not ssh-ed25519/],
      [['--user', 'ops@example.com', '--public-key', join(dir, 'missing.pub')], 1, /no such file/],
      [['--user', 'ops@example.com', '--public-key', k.pub, '--scopes', 'bots.admin'], 2, /unknown scope "bots.admin"/],
      [['--user', 'ops@example.com', '--public-key', k.pub, '--name', 'x'.repeat(65)], 1, /1-64 characters/],
      [
        ['--user', 'ops@example.com', '--public-key', k.pub, '--name', 'a\u001b[31mb'],
        1,
        /must not contain control characters/,
      ],
      [['--user', 'ops@example.com', '--public-key', k.pub, '--name', '   '], 1, /key name must be 1-64 characters/],
    ] as const) {
      const r = await admin('key', 'add', ...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stderr).toMatch(why);
    }
    expect(doc()).toBe(before);
  });

  it('refuses a public key another account registered, with a line saying to generate one for this server', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    await admin('user', 'add', '--email', 'other@example.com');
    const k = keyFiles('ops');
    expect((await admin('key', 'add', '--user', 'ops@example.com', '--public-key', k.pub)).code).toBe(0);
    const before = doc();
    const r = await admin('key', 'add', '--user', 'other@example.com', '--public-key', k.pub);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /another account in this data directory registered this public key; generate a key for this server \(arena keys generate/,
    );
    expect(doc()).toBe(before);
  });
});

describe('arena admin users', () => {
  it('lists users with their active keys and bots, as a table and as JSON', async () => {
    await admin('user', 'add', '--email', 'ops@example.com', '--handle', 'ops');
    await admin('user', 'add', '--email', 'ada@example.com');
    const k = keyFiles('ops');
    await admin('key', 'add', '--user', 'ops@example.com', '--public-key', k.pub);
    const table = await admin('users');
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID\s+HANDLE\s+EMAIL\s+KEYS\s+BOTS\s+CREATED\n/);
    expect(table.stdout).toMatch(/@ops\s+ops@example.com\s+1\s+0/);
    expect(table.stdout).toMatch(/-\s+ada@example.com\s+0\s+0/);
    const json = JSON.parse((await admin('users', '--json')).stdout) as {
      users: Array<{ email: string; activeKeys: number }>;
    };
    expect(json.users.map((u) => [u.email, u.activeKeys])).toEqual([
      ['ops@example.com', 1],
      ['ada@example.com', 0],
    ]);
  });

  it('on a directory without a store says so instead of creating one', async () => {
    const r = await admin('users', '--data', join(dir, 'nothing-here'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/holds no arena store yet/);
  });
});

describe('the lock', () => {
  it('admin refuses with a clear message while another process holds the data directory, and changes nothing', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    const before = doc();
    // A store opened by a process that is alive: the lock names a live pid (not ours, or it would be ours to take).
    writeFileSync(join(data, 'lock'), `${process.ppid}\n`);
    for (const args of [['user', 'add', '--email', 'x@example.com'], ['users']]) {
      const r = await admin(...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`in use by a running server (pid ${process.ppid})`);
      expect(r.stderr).toMatch(/works offline: stop the server first/);
    }
    expect(doc()).toBe(before);
    // The backup needs no lock.
    const b = await admin('backup', join(dir, 'copy'));
    expect(b.code, b.stderr).toBe(0);
    // No server has run here, so there is no platform key to copy, and none is made up.
    expect(readdirSync(join(dir, 'copy')).sort()).toEqual(['matches', 'store.json']);
    rmSync(join(data, 'lock'));
    const copy = await openFileStore(join(dir, 'copy'));
    try {
      expect((await copy.listUsers()).map((u) => u.email)).toEqual(['ops@example.com']);
    } finally {
      await copy.close();
    }
  });

  it('backup refuses a directory that is not empty', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    const out = join(dir, 'full');
    await admin('backup', out);
    const again = await admin('backup', out);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/backup failed: .*not empty/);
  });
});

describe('arena admin backup that cannot write', () => {
  // ulimit -f 0: the kernel refuses every byte this process writes to a file (EFBIG), as a full disk would.
  const arenaLimited = (args: string[]) => runArena(args, { env, fileSizeLimitKiB: 0 });

  it('fails with the reason and leaves no partial copy: a directory it made goes, an empty one given stays empty', async () => {
    await admin('user', 'add', '--email', 'ops@example.com');
    const made = join(dir, 'made');
    const r = await arenaLimited(['admin', 'backup', made]);
    expect([r.code, r.stderr]).toEqual([
      1,
      'arena: backup failed: the file is larger than this process may write (ulimit -f) (EFBIG)\n',
    ]);
    expect(existsSync(made)).toBe(false);
    const given = join(dir, 'given');
    mkdirSync(given);
    expect((await arenaLimited(['admin', 'backup', given])).code).toBe(1);
    expect(readdirSync(given)).toEqual([]);
  });
});

describe('the admin library', () => {
  it('refuses what the API would refuse, with AdminError', async () => {
    const store = await openFileStore(data);
    try {
      const u = await addUser(store, { email: 'a@example.com', handle: 'a_1' });
      await expect(addUser(store, { email: 'A@EXAMPLE.COM' })).rejects.toThrow(AdminError);
      await expect(addKey(store, { user: u.id, publicKey: 'AAAA' })).rejects.toThrow(/public key: .*32 bytes/);
      await expect(addKey(store, { user: u.id, publicKey: keyFiles('x').raw, scopes: [] })).rejects.toThrow(
        /at least one scope/,
      );
      const k = await addKey(store, {
        user: 'a@example.com',
        publicKey: keyFiles('y').raw,
        scopes: ['bots.read', 'bots.read'],
      });
      expect(k.scopes).toEqual(['bots.read']);
      expect(await listUsers(store)).toMatchObject([{ id: u.id, activeKeys: 1, bots: 0 }]);
    } finally {
      await store.close();
    }
  });
});

describe('a data directory whose store.json is gone (issue 27 item 8)', () => {
  it('arena serve and arena admin exit 1 naming it and the way back; arena serve --init starts a new store', async () => {
    expect((await admin('user', 'add', '--email', 'ops@example.com')).code).toBe(0);
    const store = await openFileStore(data);
    const [user] = await store.listUsers();
    const bot = await store.addBot({ ownerId: user.id, name: 'b', game: 'pioneers', url: 'wss://b.example/' });
    await store.putMatch({
      id: 'm_left',
      game: 'pioneers',
      status: 'aborted',
      players: [{ seat: 0, botId: bot.id, botName: 'b', placement: null, ratingDelta: null }],
      startedAt: new Date().toISOString(),
      endedAt: new Date().toISOString(),
      seed: '0',
      replay: [],
      rulesVersion: 't',
      seatCount: 4,
      vp: null,
    });
    await store.close();
    rmSync(join(data, 'store.json'));
    const missing = new RegExp(
      `${join(data, 'store.json')} is missing, but ${data} holds matches/.*arena admin backup.*arena serve --init`,
    );
    const serve = await runCli(['serve', '--port', '0'], { env, cwd: dir });
    expect([serve.code, serve.stderr]).toEqual([1, expect.stringMatching(missing)]);
    for (const args of [['user', 'add', '--email', 'new@example.com'], ['users']]) {
      const r = await admin(...args);
      expect([r.code, r.stderr], args.join(' ')).toEqual([1, expect.stringMatching(missing)]);
    }
    expect(existsSync(join(data, 'store.json'))).toBe(false);

    const fresh = await startServe(['--init', '--dev', '--port', '0', '--data', data], env);
    try {
      expect(existsSync(join(data, 'store.json'))).toBe(true);
    } finally {
      await stopServe(fresh);
    }
    const reopened = await openFileStore(data);
    try {
      expect(await reopened.listUsers()).toEqual([]);
    } finally {
      await reopened.close();
    }
  }, 30_000);
});
