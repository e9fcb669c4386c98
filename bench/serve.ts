// `npm run bench -- serve`: the hosted service's two costs that grow with use.
//
// 1. Signed `GET /bots` against unsigned `GET /health`, in the same run. The
//    server (startServer, dev mode, a real file store, rate limits out of the
//    way) runs in a child process of its own, so its one JavaScript thread is
//    measured apart from the client; the client is this process, one undici
//    Pool with keep-alive connections, signing every request afresh (the
//    replay cache refuses a signature seen twice). Besides wall-clock rates the
//    suite reports requests per second of the server's own CPU time: what one
//    core could serve, whatever else the shared machine is doing.
// 2. Store write time with 10 and with 10,000 matches already stored (the
//    docs/decisions.md's "replay size" row: writing a match must cost the same
//    at the 10th and the 100,000th). Writes alternate between the two stores,
//    so a burst of disk load hits both alike.
// 3. Store write time with 10, 10,000 and 100,000 accounts (serve-accounts.ts).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomBytes, sign, verify } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { Pool } from 'undici';
import { generateKeyPair, publicKeyRaw, signRequest } from '../src/keys/index';
import type { MatchEvent } from '../src/protocol/index';
import { LOG_FILE, MATCH_DIR, matchFile, type MatchEnvelope } from '../src/service/store/match-files';
import { summaryOf, type LogLine } from '../src/service/store/match-index';
import { openFileStore, type FileStore } from '../src/service/store/index';
import type { RatingRecord, StoredMatch } from '../src/service/store/types';
import { median, type BenchRow, type BenchSuite } from './harness';
import { pgBinDir } from '../test/support/postgres';

const ROLE_ENV = 'ARENA_BENCH_SERVE_ROLE';
const KEYS_ENV = 'ARENA_BENCH_SERVE_KEYS';
const PROFILE_ENV = 'ARENA_BENCH_SERVE_PROFILE';
/** Keys the client signs with in turn: one key's timestamps stay unique (ms) without running ahead of the clock. */
const KEY_COUNT = 16;
const CONNECTIONS = 32;
const ROUNDS = Number(process.env.ARENA_BENCH_SERVE_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.ARENA_BENCH_SERVE_ROUND_MS ?? 1500);
const WRITES = Number(process.env.ARENA_BENCH_SERVE_WRITES ?? 60);
const SEEDED = [10, 10_000] as const;
// ARENA_BENCH_SERVE_PARTS=http, =store, =accounts or =stores (comma-separated) runs those parts;
// ARENA_BENCH_SERVE_PROFILE=FILE profiles the server.
const BOTS_PER_USER = 3;
const NO_LIMIT = { perSecond: 1e9, burst: 1e9 };

export async function run(): Promise<BenchSuite[]> {
  // The child process this suite spawns runs `bench serve` again, as the server.
  if (process.env[ROLE_ENV] === 'server') return serverRole();
  const asked = process.env.ARENA_BENCH_SERVE_PARTS;
  // By default the stores part runs where PostgreSQL is installed; asked for by name, it says what is missing.
  const withPostgres = asked !== undefined || hasPostgres();
  if (!withPostgres)
    process.stderr.write(
      'serve: PostgreSQL is not installed (apt-get install postgresql): the stores part is skipped\n',
    );
  const parts = (asked ?? `http,store,accounts${withPostgres ? ',stores' : ''}`).split(',');
  const out: BenchSuite[] = [];
  if (parts.includes('http')) out.push(await httpSuite());
  if (parts.includes('store')) out.push(await storeSuite());
  if (parts.includes('accounts')) out.push(await (await import('./serve-accounts')).accountsSuite());
  // 10,000 registered bots: scheduler tick and leaderboard, file store against PostgreSQL (serve-stores.ts).
  if (parts.includes('stores')) out.push(await (await import('./serve-stores')).storesSuite());
  return out;
}

function hasPostgres(): boolean {
  try {
    pgBinDir();
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- the server

/**
 * Child: a real `serve` (startServer) on a fresh data directory with one user,
 * the client's public keys and a few bots. Prints {url, keyIds} as one line;
 * answers each "cpu" line on stdin with its CPU time so far; exits when stdin closes.
 */
async function serverRole(): Promise<never> {
  const { startServer } = await import('../src/service/server');
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-serve-'));
  const store = await openFileStore(join(dir, 'data'));
  const user = await store.createUser({ email: 'bench@example.com', name: 'bench' });
  const keyIds: string[] = [];
  for (const publicKey of JSON.parse(process.env[KEYS_ENV] ?? '[]') as string[]) {
    keyIds.push(
      (await store.addKey({ userId: user.id, name: `bench ${keyIds.length}`, publicKey, scopes: ['bots.read'] })).id,
    );
  }
  for (let i = 0; i < BOTS_PER_USER; i++)
    await store.addBot({ ownerId: user.id, name: `bot ${i}`, game: 'pioneers', url: `http://127.0.0.1:9/bot-${i}` });
  // Log lines go where an operator's would (a file), here one that keeps nothing.
  const logOut = createWriteStream('/dev/null');
  const server = await startServer({
    store,
    dataDir: join(dir, 'data'),
    host: '127.0.0.1',
    port: 0,
    dev: true,
    tickSeconds: 0,
    rateLimits: { key: NO_LIMIT, address: NO_LIMIT },
    logOut,
  });
  const profile = await startProfile(process.env[PROFILE_ENV]);
  process.stdout.write(`${JSON.stringify({ url: server.url, keyIds })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() === 'cpu') process.stdout.write(`${JSON.stringify(process.cpuUsage())}\n`);
  });
  await new Promise<void>((resolve) => lines.once('close', resolve));
  await profile?.stop();
  await server.close();
  await store.close();
  logOut.end();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** ARENA_BENCH_SERVE_PROFILE=FILE: a CPU profile of the server from its first request on (start-up left out). */
async function startProfile(file: string | undefined): Promise<{ stop(): Promise<void> } | null> {
  if (!file) return null;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

type ServerChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Starts the server child and returns its address, key ids and a way to read its CPU time. */
async function spawnServer(publicKeys: string[]): Promise<{
  child: ServerChild;
  url: string;
  keyIds: string[];
  cpu(): Promise<{ userMs: number; systemMs: number }>;
}> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], 'serve'], {
    env: { ...process.env, [ROLE_ENV]: 'server', [KEYS_ENV]: JSON.stringify(publicKeys) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const lines = createInterface({ input: child.stdout });
  const waiting: Array<(line: string) => void> = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`bench serve: the server exited (${code}): ${stderr.slice(-2000)}`));
      child.once('exit', onExit);
      waiting.push((line) => {
        child.off('exit', onExit);
        resolve(line);
      });
    });
  const hello = JSON.parse(await nextLine()) as { url: string; keyIds: string[] };
  return {
    child,
    ...hello,
    async cpu() {
      child.stdin.write('cpu\n');
      const { user, system } = JSON.parse(await nextLine()) as { user: number; system: number };
      return { userMs: user / 1000, systemMs: system / 1000 };
    },
  };
}

// ---------------------------------------------------------------- HTTP rates

interface Load {
  requests: number;
  ms: number;
  /** The server's CPU time during the round: its own code (user) and the kernel's on its behalf (system). */
  userMs: number;
  systemMs: number;
}

async function httpSuite(): Promise<BenchSuite> {
  const pairs = Array.from({ length: KEY_COUNT }, () => generateKeyPair());
  const server = await spawnServer(pairs.map((p) => Buffer.from(publicKeyRaw(p.privateKey)).toString('base64')));
  const pool = new Pool(server.url, { connections: CONNECTIONS, pipelining: 1, keepAliveTimeout: 30_000 });
  try {
    const keys = server.keyIds.map((id, i) => ({ id, privateKey: pairs[i].privateKey, last: 0 }));
    let turn = 0;
    const signedHeaders = () => {
      const key = keys[turn++ % keys.length];
      // Ed25519 is deterministic: the same key, path and millisecond would be the same signature (a replay).
      key.last = Math.max(Date.now(), key.last + 1);
      return signRequest(key.privateKey, key.id, { method: 'GET', path: '/bots' }, key.last);
    };

    // Each case checks one answer in full, so the suite cannot measure a refusal.
    const health = await pool.request({ path: '/health', method: 'GET' });
    const healthBody = (await health.body.json()) as { status?: string };
    if (health.statusCode !== 200 || healthBody.status !== 'ok')
      throw new Error(`bench serve: /health answered ${health.statusCode}`);
    const bots = await pool.request({ path: '/bots', method: 'GET', headers: signedHeaders() });
    const botsBody = (await bots.body.json()) as { bots?: unknown[] };
    if (bots.statusCode !== 200 || botsBody.bots?.length !== BOTS_PER_USER)
      throw new Error(
        `bench serve: signed GET /bots answered ${bots.statusCode} ${JSON.stringify(botsBody).slice(0, 300)}`,
      );

    type Req = { path: string; headers?: Record<string, string> };
    // A case prepares a round's requests: signing happens before the clock starts
    // (as many as the best rate so far could use, then on the fly), so the client's
    // own work per request is the same for both cases and the server is kept busy.
    const best = new Map<string, { rate: number; perCpu: number; perUser: number }>();
    const cases: Array<[string, (ms: number) => () => Req]> = [
      ['unsigned GET /health', () => () => ({ path: '/health' })],
      [
        'signed GET /bots',
        (ms) => {
          const n = Math.ceil(((best.get('signed GET /bots')?.rate ?? 3000) * ms * 1.5) / 1000);
          const signed = Array.from({ length: n }, signedHeaders);
          let i = 0;
          return () => ({ path: '/bots', headers: i < signed.length ? signed[i++] : signedHeaders() });
        },
      ],
    ];
    const load = async (next: () => Req, ms: number): Promise<Load> => {
      const cpu0 = await server.cpu();
      const started = performance.now();
      const until = started + ms;
      let requests = 0;
      let failed = 0;
      let firstFailure = '';
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) {
            const res = await pool.request({ method: 'GET', ...next() });
            const text = await res.body.text();
            if (res.statusCode === 200) requests++;
            else if (failed++ === 0) firstFailure = `${res.statusCode} ${text.slice(0, 300)}`;
          }
        }),
      );
      const elapsed = performance.now() - started;
      const cpu1 = await server.cpu();
      if (failed > 0) throw new Error(`bench serve: ${failed} requests failed, first: ${firstFailure}`);
      return { requests, ms: elapsed, userMs: cpu1.userMs - cpu0.userMs, systemMs: cpu1.systemMs - cpu0.systemMs };
    };

    for (const [, prepare] of cases) await load(prepare(500), 500); // warm up: JIT, connections
    // Rounds interleave the cases and keep each one's best, as bench/keys does: on a
    // shared machine the quietest round is the closest to what the code costs.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, prepare] of cases) {
        const l = await load(prepare(ROUND_MS), ROUND_MS);
        const rate = (l.requests * 1000) / l.ms;
        const perCpu = (l.requests * 1000) / (l.userMs + l.systemMs);
        const perUser = (l.requests * 1000) / l.userMs;
        const prev = best.get(name);
        best.set(name, {
          rate: Math.max(rate, prev?.rate ?? 0),
          perCpu: Math.max(perCpu, prev?.perCpu ?? 0),
          perUser: Math.max(perUser, prev?.perUser ?? 0),
        });
      }
    }
    const rows: BenchRow[] = [];
    for (const [name] of cases) {
      const b = best.get(name)!;
      rows.push({
        name: `${name}, per second of server CPU`,
        value: b.perCpu,
        unit: 'req/s',
        extra: { us_cpu_per_req: ((1000 / b.perCpu) * 1000).toFixed(1) },
      });
    }
    for (const [name] of cases) {
      const b = best.get(name)!;
      rows.push({
        name: `${name}, per second of server user CPU`,
        value: b.perUser,
        unit: 'req/s',
        extra: { us_user_per_req: ((1000 / b.perUser) * 1000).toFixed(1) },
      });
    }
    for (const [name] of cases) {
      const b = best.get(name)!;
      rows.push({ name: `${name}, wall clock`, value: b.rate, unit: 'req/s', extra: { connections: CONNECTIONS } });
    }
    const signedCpu = best.get('signed GET /bots')!.perCpu;
    const healthCpu = best.get('unsigned GET /health')!.perCpu;
    const signedUser = best.get('signed GET /bots')!.perUser;
    const healthUser = best.get('unsigned GET /health')!.perUser;
    // What the ratio goal is up against: a signed request costs at least a
    // /health request plus one Ed25519 verification.
    const verifyUs = verifyMicros();
    const healthUs = 1e6 / healthCpu;
    const ceiling = healthUs / (healthUs + verifyUs);
    rows.push({
      name: 'Ed25519 verify alone (node:crypto, this process, one core)',
      value: 1e6 / verifyUs,
      unit: 'verify/s',
      extra: { us_per_verify: verifyUs.toFixed(1) },
    });
    return {
      suite: 'serve: signed requests against /health',
      baseline: 'unsigned GET /health, per second of server CPU',
      rows,
      notes: [
        `server: startServer --dev in its own process, file store, ${KEY_COUNT} keys of one user with ${BOTS_PER_USER} bots, JSON log lines to /dev/null, rate limits off`,
        `client: this process, undici Pool, ${CONNECTIONS} keep-alive connections, every request signed afresh (before its round starts); best of ${ROUNDS} alternating rounds of ${ROUND_MS} ms per case`,
        `goal: >= 5,000 signed/s on one core (per server CPU second: ${Math.round(signedCpu)}) and signed/health >= 0.5 (${(signedCpu / healthCpu).toFixed(2)}; user CPU only: ${(signedUser / healthUser).toFixed(2)})`,
        `ceiling of the ratio goal: signed/health <= t_health / (t_health + t_verify) = ${healthUs.toFixed(1)} / (${healthUs.toFixed(1)} + ${verifyUs.toFixed(1)}) = ${ceiling.toFixed(2)} here, before any other work a signed request does (key lookup, replay check, the route itself)`,
        'ratios in the table are against the first row; the x-column of user-CPU and wall-clock rows is not a goal figure',
        'server CPU includes its helper threads (GC, libuv) and, on loopback, the kernel delivering each response to the client (system time); wall-clock rates share the machine with the client and anything else running',
      ],
    };
  } finally {
    await pool.close();
    server.child.stdin.end();
    await new Promise<void>((resolve) =>
      server.child.exitCode !== null ? resolve() : server.child.once('exit', () => resolve()),
    );
  }
}

// ---------------------------------------------------------------- store writes

const BOT_POOL = 40;

/**
 * Microseconds per Ed25519 verification of a request-sized message with a ready KeyObject: best of 5 rounds of 300 ms.
 */
function verifyMicros(): number {
  const { publicKey, privateKey } = generateKeyPair();
  const message = Buffer.from(`${Date.now()}\nGET\n/bots?game=pioneers\n${'0'.repeat(64)}`);
  const signature = sign(null, message, privateKey);
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    for (; t - t0 < 300; t = performance.now()) {
      for (let i = 0; i < 50; i++) if (verify(null, message, publicKey, signature)) n++;
    }
    if (n === 0) throw new Error('bench serve: the signature did not verify');
    best = Math.min(best, ((t - t0) * 1000) / n);
  }
  return best;
}

function botIdOf(i: number): string {
  return `b_bench${String(i % BOT_POOL).padStart(3, '0')}`;
}

function replayOf(n: number): MatchEvent[] {
  const at = new Date().toISOString();
  return Array.from({ length: n }, (_, seq) => ({
    seq,
    at,
    kind: 'talk' as const,
    seat: seq % 4,
    data: { message: `event ${seq}` },
  }));
}

function matchOf(i: number, status: StoredMatch['status'], events: number): StoredMatch {
  const now = new Date().toISOString();
  const done = status !== 'running';
  return {
    id: `m_${randomBytes(9).toString('base64url')}`,
    game: 'pioneers',
    status,
    players: [0, 1, 2, 3].map((seat) => ({
      seat,
      botId: botIdOf(i * 4 + seat),
      botName: `bot ${(i * 4 + seat) % BOT_POOL}`,
      placement: status === 'completed' ? seat + 1 : null,
      ratingDelta: status === 'completed' ? 1.5 - seat : null,
    })),
    startedAt: now,
    endedAt: done ? now : null,
    seed: randomBytes(16).toString('hex'),
    replay: done ? replayOf(events) : [],
    rulesVersion: 'bench-1',
    seatCount: 4,
    vp: status === 'completed' ? [10, 8, 6, 4] : null,
  };
}

function ratingsOf(m: StoredMatch): RatingRecord[] {
  return m.players.map((p, seat) => ({
    botId: p.botId,
    game: 'pioneers',
    mu: 25 + 1 - seat,
    sigma: 8,
    gamesPlayed: 1,
  }));
}

/**
 * n completed matches on disk, laid out as the file store writes them (a match
 * file and a log line each) but without an fsync per match, so 10,000 take
 * seconds. Opening the store then takes them as completions it has not applied
 * yet (its crash-recovery path) and applies their ratings in one write.
 */
async function seedMatches(dataDir: string, n: number): Promise<void> {
  const dir = join(dataDir, MATCH_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const lines: string[] = [];
  const BATCH = 256;
  for (let from = 0; from < n; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, n - from) }, (_, j) => matchOf(from + j, 'completed', 40));
    await Promise.all(
      batch.map((match) => {
        const env: MatchEnvelope = { v: 1, match, ratings: ratingsOf(match) };
        return writeFile(matchFile(dir, match.id), JSON.stringify(env), { mode: 0o600 });
      }),
    );
    for (const match of batch) {
      const line: LogLine = { id: match.id, v: 1, m: summaryOf(match) };
      lines.push(JSON.stringify(line));
    }
  }
  await writeFile(join(dir, LOG_FILE), lines.length ? `${lines.join('\n')}\n` : '', { mode: 0o600 });
}

async function storeSuite(): Promise<BenchSuite> {
  const root = mkdtempSync(join(tmpdir(), 'arena-bench-store-'));
  const stores: Array<{ n: number; store: FileStore; put: number[]; complete: number[] }> = [];
  try {
    for (const n of SEEDED) {
      const dataDir = join(root, `n${n}`);
      const seedStart = performance.now();
      await seedMatches(dataDir, n);
      const seeded = performance.now();
      // init: the seeded matches/ has no store.json beside it, which a real data directory never lacks.
      const store = await openFileStore(dataDir, { init: true });
      // The store must see every seeded match, or this measures an emptier store than it says.
      let seen = 0;
      for (let cursor: string | null = null; ; ) {
        const page = await store.listMatchSummaries({ limit: 100, cursor });
        seen += page.matches.length;
        if (!(cursor = page.next)) break;
      }
      if (seen !== n) throw new Error(`bench serve: seeded ${n} matches but the store lists ${seen}`);
      process.stderr.write(
        `bench serve: ${n} matches seeded in ${Math.round(seeded - seedStart)} ms, the store opened in ${Math.round(performance.now() - seeded)} ms\n`,
      );
      stores.push({ n, store, put: [], complete: [] });
    }
    // A match as the scheduler writes it: stored running, then completed with its seats' ratings.
    // The replay of a long game (thousands of events) makes every write carry a realistic file.
    const time = async (fn: () => Promise<void>) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    for (let i = -5; i < WRITES; i++) {
      for (const s of i % 2 ? stores : [...stores].reverse()) {
        const running = matchOf(s.n + i + 5, 'running', 0);
        const put = await time(() => s.store.putMatch(running));
        const finished = {
          ...running,
          status: 'completed' as const,
          endedAt: new Date().toISOString(),
          replay: replayOf(2000),
          vp: [10, 8, 6, 4],
          players: running.players.map((p, seat) => ({ ...p, placement: seat + 1, ratingDelta: 1.5 - seat })),
        };
        const complete = await time(() => s.store.completeMatch(finished, ratingsOf(finished)));
        if (i >= 0) {
          s.put.push(put);
          s.complete.push(complete);
        }
      }
    }
    const writeName = (n: number) => `match write (putMatch + completeMatch) with ${n.toLocaleString('en-US')} stored`;
    const rows: BenchRow[] = stores.map((s) => ({
      name: writeName(s.n),
      value: median(s.put.map((p, i) => p + s.complete[i])),
      unit: 'ms',
      extra: {
        putMatch_ms: median(s.put).toFixed(2),
        completeMatch_ms: median(s.complete).toFixed(2),
        writes: s.put.length,
      },
    }));
    return {
      suite: 'serve: store write time by matches stored',
      baseline: writeName(SEEDED[0]),
      rows,
      notes: [
        `medians of ${WRITES} matches per row, written alternately to the two stores: putMatch (running, as the scheduler stores it) then completeMatch (a 2,000-event replay and four ratings)`,
        'every write is fsynced: the match log line, the match file and its directory; completeMatch also one journal line',
        'goal: the 10,000 row within 1.5x of the 10 row',
      ],
    };
  } finally {
    for (const s of stores) await s.store.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
}
