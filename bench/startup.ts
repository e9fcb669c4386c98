// Start-up: CPU time of `arena --help` against `node -e 0`, for the bundle
// and for the single executable (dist/arena-<platform>-<arch>, when `npm run
// build:binary` has made it), measured side by side in one run; and `arena
// replay --plain` of a 200-turn match. Commands run in turns (one of each,
// then again), so a burst of load on the machine hits every case alike.
//
// "bundle" is the launcher as npm installs it: bin/arena beside dist/ and
// node_modules but without scripts/, so it runs the bundle without checking
// it against the sources (the checkout's launcher does that check: its own row).
//
// CPU time of a child comes from /proc/self/stat (the children's user and
// system time, which Linux adds up when a child is reaped); elsewhere the
// suite reports wall time and says so.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSuite } from './harness';

const ROOT = repositoryRoot();
const RUNS = Number(process.env.ARENA_BENCH_STARTUP_RUNS ?? 20);
const CLOCK_TICKS = 100; // USER_HZ on Linux

/** The checkout: bench/ under tsx, dist/ or dist/chunks/ in the bundle. */
function repositoryRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'bin', 'arena')) && existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error('bench startup: cannot find the repository above this file');
}

interface Case {
  name: string;
  cmd: string;
  args: string[];
}

interface Sample {
  cpuMs: number[];
  wallMs: number[];
}

/** The children's CPU time so far, in ms, or null where /proc is not there. */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of stat(5) (cutime, cstime); fields[0] is field 3.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

function runOnce(c: Case, env: NodeJS.ProcessEnv): { cpu: number | null; wall: number } {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const r = spawnSync(c.cmd, c.args, { env, stdio: ['ignore', 'ignore', 'pipe'], cwd: ROOT });
  const wall = performance.now() - t0;
  const cpu1 = childrenCpuMs();
  if (r.status !== 0)
    throw new Error(`bench startup: ${c.name} exited ${r.status}: ${r.stderr?.toString().slice(0, 500)}`);
  return { cpu: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, wall };
}

/** Runs every case `runs` times in turns, after one warm-up each (file cache, bundle freshness). */
function measureCases(cases: Case[], runs: number, env: NodeJS.ProcessEnv): Map<string, Sample> {
  const out = new Map<string, Sample>(cases.map((c) => [c.name, { cpuMs: [], wallMs: [] }]));
  for (const c of cases) runOnce(c, env);
  for (let i = 0; i < runs; i++) {
    for (const c of cases) {
      const { cpu, wall } = runOnce(c, env);
      const s = out.get(c.name)!;
      if (cpu !== null) s.cpuMs.push(cpu);
      s.wallMs.push(wall);
    }
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function rows(cases: Case[], samples: Map<string, Sample>): { rows: BenchRow[]; cpu: boolean } {
  const cpu = cases.every((c) => samples.get(c.name)!.cpuMs.length > 0);
  return {
    cpu,
    rows: cases.map((c) => {
      const s = samples.get(c.name)!;
      // CPU: the mean (ticks are 10 ms, so only the sum over runs is exact); wall: the median.
      return {
        name: c.name,
        value: cpu ? mean(s.cpuMs) : median(s.wallMs),
        unit: cpu ? 'ms CPU' : 'ms wall',
        extra: { wallMedianMs: Math.round(median(s.wallMs)), runs: s.wallMs.length },
      };
    }),
  };
}

/**
 * The package as npm installs it (launcher, package.json, dist/, node_modules/; no scripts/), linked to this checkout's
 * build.
 */
function installedLayout(dir: string): string {
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'arena'), join(dir, 'bin', 'arena'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'dist'), join(dir, 'dist'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'bin', 'arena');
}

/** A match of 200 turns (the cap), played by the arena itself; random bots rarely reach 10 VP. */
function capMatch(dir: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync(
    process.execPath,
    [
      join(ROOT, 'bin', 'arena'),
      'play',
      'builtin:random',
      'builtin:random',
      'builtin:random',
      '--games',
      '4',
      '--seed',
      'bench-startup',
      '--out',
      dir,
      '--json',
    ],
    { env, encoding: 'utf8', cwd: ROOT },
  );
  if (r.status !== 0) throw new Error(`bench startup: arena play failed: ${r.stderr}`);
  const summary = JSON.parse(r.stdout) as { matches: Array<{ id: string; turns: number }> };
  const m = summary.matches.find((x) => x.turns === 200);
  if (!m)
    throw new Error(`bench startup: no 200-turn match among ${summary.matches.map((x) => x.turns).join(', ')} turns`);
  return join(dir, `${m.id}.json`);
}

export async function run(): Promise<BenchSuite[]> {
  const work = mkdtempSync(join(tmpdir(), 'arena-bench-startup-'));
  try {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: work,
      ARENA_CONFIG_DIR: join(work, 'config'),
      NODE_OPTIONS: '',
      LANG: process.env.LANG,
    };
    const binary = readdirSync(join(ROOT, 'dist')).find(
      (f) => f === `arena-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`,
    );
    const binaryPath = binary ? join(ROOT, 'dist', binary) : null;
    const checkout = join(ROOT, 'bin', 'arena');
    const launcher = installedLayout(join(work, 'package'));
    const match = capMatch(join(work, 'matches'), env);

    const help: Case[] = [
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      { name: 'arena --help (bundle)', cmd: process.execPath, args: [launcher, '--help'] },
      ...(binaryPath ? [{ name: 'arena --help (binary)', cmd: binaryPath, args: ['--help'] }] : []),
      { name: 'arena play --help (bundle)', cmd: process.execPath, args: [launcher, 'play', '--help'] },
      { name: 'arena --help (checkout launcher)', cmd: process.execPath, args: [checkout, '--help'] },
    ];
    const replay: Case[] = [
      { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
      {
        name: 'arena replay --plain, 200 turns (bundle)',
        cmd: process.execPath,
        args: [launcher, 'replay', '--plain', match],
      },
      ...(binaryPath
        ? [{ name: 'arena replay --plain, 200 turns (binary)', cmd: binaryPath, args: ['replay', '--plain', match] }]
        : []),
    ];
    const h = rows(help, measureCases(help, RUNS, env));
    const r = rows(replay, measureCases(replay, Math.max(3, Math.round(RUNS / 4)), env));
    const notes = [
      h.cpu
        ? 'CPU = user + system time of the child, mean over runs'
        : 'no /proc here: wall time (median) instead of CPU time',
      'goal: arena --help at most 2x node -e 0 (bundle and binary)',
      binaryPath ? `binary: ${binary}` : 'no binary in dist/: run npm run build:binary to include it',
    ];
    const replayRecord = readFileSync(match);
    return [
      { suite: 'startup: arena --help against node -e 0', baseline: 'node -e 0', rows: h.rows, notes },
      {
        suite: 'startup: arena replay --plain of a 200-turn match',
        baseline: 'node -e 0',
        rows: r.rows,
        notes: [
          `record: ${Math.round(replayRecord.length / 1024)} KiB, ${(JSON.parse(replayRecord.toString()) as { replay: unknown[] }).replay.length} events; goal: under 300 ms (wall)`,
        ],
      },
    ];
  } finally {
    if (existsSync(work)) rmSync(work, { recursive: true, force: true });
  }
}
