// Each starter as a bot author gets it: `arena new LANG DIR` from the bundled
// CLI (bin/arena) into a temporary directory, built as its README says, run
// with the platform key, then `arena bot check`, 20 games against the
// built-in bots with no strike, and handshakes: given the platform key, every
// starter requires the audience-bound form (docs/protocol.md, "Checking the
// handshake"): the arena's accepted once per nonce; forged, unsigned, stale,
// spec-only (the bound headers stripped), another bot's or replayed ones
// refused with 401. Handshakes are signed here with node:crypto as the arena
// signs them; the audience is src/keys' handshakeAudience of the URL dialled.
//
// Bots are addressed as ws://127.0.0.1:<port>, which is also the default own
// URL of a starter's audience check.
//
// Needs: python3 with websockets (python3-websockets), go with gorilla/websocket
// from Debian (golang-go, golang-github-gorilla-websocket-dev), npm with its
// cache or the registry (ws, tsx, and the TypeScript starter's dependencies).
// .ci/run installs the Debian ones; outside CI a missing tool skips its language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { generateKeyPair, privateKeyToPem, publicKeyRaw, signHandshake } from '../../src/keys/index';
import { handshakeAudience } from '../../src/keys/handshake';
import { runMatch, type MatchEntrant } from '../../src/runner/index';
import { runCommand, type RunResult } from '../support/run-command';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SETUP_MS = 5 * 60_000;
const GAMES_MS = 3 * 60_000;

const tmp = mkdtempSync(join(tmpdir(), 'arena-starters-'));
const platform = generateKeyPair().privateKey;
const platformPublic = Buffer.from(publicKeyRaw(platform)).toString('base64');
const stranger = generateKeyPair().privateKey;

// The local arena's platform key is ours, so `arena bot check` signs with it.
mkdirSync(join(tmp, 'config'), { mode: 0o700 });
writeFileSync(join(tmp, 'config', 'platform-key.pem'), privateKeyToPem(platform), { mode: 0o600 });

/** A user's environment: no test runner's NODE_OPTIONS or npm variables, node and the system on PATH. */
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('npm_') && k !== 'NODE_OPTIONS' && k !== 'PATH'),
  ),
  PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
  ARENA_CONFIG_DIR: join(tmp, 'config'),
  GOCACHE: join(tmp, 'gocache'),
  npm_config_loglevel: 'error',
};

const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map(stop));
  rmSync(tmp, { recursive: true, force: true });
}, 30_000);

function run(cmd: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return runCommand(cmd, args, { cwd, env: { ...env, ...extra } });
}

function arena(args: string[]): Promise<RunResult> {
  return run(process.execPath, [join(ROOT, 'bin', 'arena'), ...args], tmp);
}

function has(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore', env }).status === 0;
}

interface Lang {
  lang: 'python' | 'typescript' | 'javascript' | 'go';
  /** Why it cannot run here, or undefined. */
  missing(): string | undefined;
  /** What its README says to do before running it. */
  build(dir: string): Promise<void>;
  /** The program and its arguments, as its README runs it (npm start's script, for the npm ones). */
  command(dir: string): [string, string[]];
}

async function ok(r: Promise<RunResult>): Promise<void> {
  const done = await r;
  expect(done.code, done.stdout + done.stderr).toBe(0);
}

const LANGS: Lang[] = [
  {
    lang: 'python',
    missing: () =>
      has('/usr/bin/python3', ['-c', 'import websockets'])
        ? undefined
        : 'python3 with websockets (apt-get install python3-websockets)',
    build: async () => {},
    command: () => ['/usr/bin/python3', ['bot.py']],
  },
  {
    lang: 'javascript',
    missing: () => (has('npm', ['--version']) ? undefined : 'npm'),
    build: (dir) => ok(run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir)),
    command: () => [process.execPath, ['bot.mjs']],
  },
  {
    lang: 'go',
    missing: () =>
      has('go', ['version']) && existsSync('/usr/share/gocode/src/github.com/gorilla/websocket')
        ? undefined
        : 'go and gorilla/websocket (apt-get install golang-go golang-github-gorilla-websocket-dev)',
    // The README's offline build: GOPATH mode from Debian's Go sources.
    build: (dir) =>
      ok(run('go', ['build', '-o', 'bot', '.'], dir, { GO111MODULE: 'off', GOPATH: '/usr/share/gocode' })),
    command: (dir) => [join(dir, 'bot'), []],
  },
  {
    lang: 'typescript',
    missing: () => (has('npm', ['--version']) ? undefined : 'npm'),
    // The README: `npm install <the package tarball>`, which also installs the starter's own dependencies.
    build: async (dir) => {
      let tarball = process.env.ARENA_PACKED_TARBALL;
      if (!tarball) {
        mkdirSync(join(tmp, 'pack'), { recursive: true });
        await ok(run('npm', ['pack', '--pack-destination', join(tmp, 'pack')], ROOT));
        tarball = join(tmp, 'pack', readdirSync(join(tmp, 'pack')).find((f) => f.endsWith('.tgz'))!);
      }
      await ok(run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], dir));
    },
    command: (dir) => [join(dir, 'node_modules', '.bin', 'tsx'), ['bot.ts']],
  },
];

/** Starts the bot in its own process group; resolves with its ws:// URL once it prints where it listens. */
function start(
  lang: Lang,
  dir: string,
  args: string[],
  opts: { extraEnv?: NodeJS.ProcessEnv; output?: (text: string) => void } = {},
): Promise<{ url: string; child: ChildProcess }> {
  const [cmd, pre] = lang.command(dir);
  const child = spawn(cmd, [...pre, ...args], {
    cwd: dir,
    env: { ...env, ...opts.extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d.toString();
      opts.output?.(d.toString());
      const m = /listening on http:\/\/(127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ url: `ws://${m[1]}`, child });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`${lang.lang} bot exited with ${code}: ${out}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  // 'close': exited, and everything it printed has been read.
  const exited = new Promise((r) => child.once('close', r));
  process.kill(-child.pid, 'SIGTERM');
  const cut = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(cut);
}

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

/** The audience-bound handshake as the arena sends it (the spec's three headers and the extension's three). */
function boundHandshake(
  key: KeyObject,
  matchId: string,
  audience: string,
  opts: { now?: number; nonce?: string; audienceKey?: KeyObject } = {},
): Record<string, string> {
  const now = opts.now ?? Date.now();
  const spec = signHandshake(key, matchId, now);
  const nonce = opts.nonce ?? randomBytes(16).toString('base64url');
  const message = `${spec['x-svc-timestamp']}.${matchId}.${nonce}.${audience}`;
  return {
    ...spec,
    'x-svc-audience': audience,
    'x-svc-nonce': nonce,
    'x-svc-audience-signature': sign(null, Buffer.from(message), opts.audienceKey ?? key).toString('base64'),
  };
}

for (const lang of LANGS) {
  const missing = lang.missing();
  // CI installs what these need, so there a missing tool is a failure, not a skip.
  const suite = missing && !process.env.CI ? describe.skip : describe;
  suite(`arena new ${lang.lang}`, () => {
    const dir = join(tmp, `${lang.lang}-bot`);
    let url: string;

    beforeAll(async () => {
      if (missing) throw new Error(`${lang.lang} starter needs ${missing}`);
      const made = await arena(['new', lang.lang, dir]);
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain('bot check http://127.0.0.1:8080');
      await lang.build(dir);
      ({ url } = await start(lang, dir, ['--port', '0', '--quiet', '--platform-key', platformPublic]));
    }, SETUP_MS);

    it(
      "passes arena bot check (signed by the local arena's platform key)",
      async () => {
        const check = await arena(['bot', 'check', url]);
        expect(check.code, check.stdout + check.stderr).toBe(0);
        expect(check.stdout).toContain('PASS');
      },
      GAMES_MS,
    );

    it(
      'plays 20 games against the built-in bots without a strike, answering every decision kind itself',
      async () => {
        const entrants: MatchEntrant[] = [
          { botId: lang.lang, botName: lang.lang, source: { type: 'ws', url } },
          { botId: 'greedy', botName: 'greedy', source: { type: 'builtin', bot: 'greedy' } },
          { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
          { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
        ];
        const kinds = new Set<string>();
        for (let i = 0; i < 20; i++) {
          const r = await runMatch({
            matchId: `m-${lang.lang}-${i}`,
            seed: `starters/${lang.lang}/${i}`,
            entrants,
            platformKey: platform,
          });
          expect(r.match.status).toBe('completed');
          const seat = r.seats.find((s) => s.botId === lang.lang)!;
          expect(seat.strikeLog).toEqual([]);
          for (const ev of r.match.replay) {
            const data = ev.data as { kind?: string; default?: boolean } | undefined;
            if (ev.seat === seat.seat && ev.kind === 'action' && data?.kind && !data.default) kinds.add(data.kind);
          }
        }
        expect([...kinds].sort()).toEqual(['bandit', 'discard', 'setup', 'trade', 'turn']);
      },
      GAMES_MS,
    );

    it(
      'reads its port from $PORT and, without --quiet, logs one line per decision',
      async () => {
        let log = '';
        const loud = await start(lang, dir, [], { extraEnv: { PORT: '0' }, output: (t) => (log += t) });
        expect(Number(new URL(loud.url).port)).not.toBe(8080);
        expect(await (await fetch(`${loud.url.replace('ws:', 'http:')}/ping`)).text()).toBe('pong');
        const entrants: MatchEntrant[] = [
          { botId: 'loud', botName: 'loud', source: { type: 'ws', url: loud.url } },
          { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
          { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
        ];
        const r = await runMatch({
          matchId: `m-${lang.lang}-loud`,
          seed: `starters/${lang.lang}/loud`,
          entrants,
          platformKey: platform,
        });
        const seat = r.seats.find((s) => s.botId === 'loud')!.seat;
        const answered = r.match.replay.filter(
          (ev) => ev.seat === seat && ev.kind === 'action' && !(ev.data as { default?: boolean }).default,
        ).length;
        await stop(loud.child);
        const lines = log.split('\n').filter((l) => /seat \d+ +(setup|turn|discard|bandit|trade) +->/.test(l));
        expect(answered).toBeGreaterThan(10);
        expect(lines).toHaveLength(answered);
      },
      GAMES_MS,
    );

    it("refuses a forged, an unsigned, a stale and a spec-only handshake with 401; accepts the platform key's bound one", async () => {
      const audience = handshakeAudience(url); // what the arena sends: ws://127.0.0.1:PORT/
      expect(audience).toBe(`${url}/`);
      expect(await upgradeStatus(url, boundHandshake(platform, 'm-good', audience))).toBe('open');
      expect(await upgradeStatus(url, boundHandshake(stranger, 'm-forged', audience))).toBe(401);
      expect(await upgradeStatus(url, {})).toBe(401);
      expect(
        await upgradeStatus(url, boundHandshake(platform, 'm-stale', audience, { now: Date.now() - 60_000 })),
      ).toBe(401);
      const swapped = { ...boundHandshake(platform, 'm-one', audience), 'x-svc-match': 'm-other' };
      expect(await upgradeStatus(url, swapped)).toBe(401);
      // The spec's form alone, as the arena signs it: a good signature, fresh, but it names no bot.
      expect(await upgradeStatus(url, signHandshake(platform, 'm-spec-only'))).toBe(401);
      // A captured bound handshake with the three extension headers stripped gets no second socket.
      const captured = boundHandshake(platform, 'm-captured', audience);
      expect(await upgradeStatus(url, captured)).toBe('open');
      const { 'x-svc-audience': _a, 'x-svc-nonce': _n, 'x-svc-audience-signature': _s, ...stripped } = captured;
      expect(stripped).toEqual(signHandshake(platform, 'm-captured', Number(captured['x-svc-timestamp'])));
      expect(await upgradeStatus(url, stripped)).toBe(401);
    });

    it('audience-bound handshakes: its own URL once per nonce; a wrong audience, a replay, a bad or partial extension refused', async () => {
      const audience = handshakeAudience(url);
      const first = boundHandshake(platform, 'm-bound', audience);
      expect(await upgradeStatus(url, first)).toBe('open');
      expect(await upgradeStatus(url, first)).toBe(401); // the same nonce again: a replay
      expect(await upgradeStatus(url, boundHandshake(platform, 'm-bound', audience))).toBe('open'); // a fresh nonce
      expect(await upgradeStatus(url, boundHandshake(platform, 'm-bound', 'ws://127.0.0.1:1/'))).toBe(401);
      // The arena never signs an http audience: it reads http as ws first.
      expect(await upgradeStatus(url, boundHandshake(platform, 'm-bound', audience.replace('ws:', 'http:')))).toBe(401);
      expect(await upgradeStatus(url, boundHandshake(platform, 'm-bound', audience, { audienceKey: stranger }))).toBe(
        401,
      );
      expect(
        await upgradeStatus(url, boundHandshake(platform, 'm-bound', audience, { now: Date.now() - 60_000 })),
      ).toBe(401);
      for (const header of ['x-svc-audience', 'x-svc-nonce', 'x-svc-audience-signature']) {
        const { [header]: _gone, ...partial } = boundHandshake(platform, 'm-bound', audience);
        expect(await upgradeStatus(url, partial), `without ${header}`).toBe(401);
      }
      // The nonce is bound by the signature: another one in its place fails.
      expect(
        await upgradeStatus(url, {
          ...boundHandshake(platform, 'm-bound', audience),
          'x-svc-nonce': randomBytes(16).toString('base64url'),
        }),
      ).toBe(401);
      // The bot's own URL comes from its configuration, not from the Host header the client sends.
      expect(
        await upgradeStatus(url, {
          ...boundHandshake(platform, 'm-bound', 'ws://evil.example.test/'),
          host: 'evil.example.test',
        }),
      ).toBe(401);
    });

    it('--public-url sets the audience it accepts, normalised as the arena does (https read as wss)', async () => {
      const registered = 'HTTPS://Bots.Example.test:443/mine#top';
      const mine = handshakeAudience(registered);
      expect(mine).toBe('wss://bots.example.test/mine');
      const other = await start(lang, dir, [
        '--port',
        '0',
        '--quiet',
        '--platform-key',
        platformPublic,
        '--public-url',
        registered,
      ]);
      expect(await upgradeStatus(other.url, boundHandshake(platform, 'm-public', mine))).toBe('open');
      expect(
        await upgradeStatus(other.url, boundHandshake(platform, 'm-public', 'https://bots.example.test/mine')),
      ).toBe(401);
      expect(await upgradeStatus(other.url, boundHandshake(platform, 'm-public', handshakeAudience(other.url)))).toBe(
        401,
      );
      await stop(other.child);
    });
  });
}
