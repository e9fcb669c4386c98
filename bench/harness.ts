// Shared shape for `npm run bench`: every suite measures its cases and a
// baseline in the same run and reports ratios against that baseline.
import { readdirSync, readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

export interface BenchRow {
  /** What was measured, e.g. "random bots, 4 seats". */
  name: string;
  /** Measured rate or time. */
  value: number;
  unit: string;
  /** value relative to the suite's baseline row (baseline itself = 1). */
  ratio?: number;
  /** Anything else worth printing: counts, notes. */
  extra?: Record<string, number | string>;
}

export interface BenchSuite {
  suite: string;
  /** Name of the row the ratios are computed against. */
  baseline: string;
  rows: BenchRow[];
  /** The suite's verdict in one line, printed above its rows. */
  headline?: string;
  /** The verdict's figures, for the JSON document. */
  verdict?: Record<string, number | string | number[]>;
  notes?: string[];
}

/** Runs fn repeatedly for at least minMs and returns operations per second (ops = what fn returns, or 1 per call). */
export function measure(fn: () => number | void, minMs = 1000): { opsPerSec: number; ops: number; ms: number } {
  const start = performance.now();
  let ops = 0;
  let ms = 0;
  do {
    const n = fn();
    ops += typeof n === 'number' ? n : 1;
    ms = performance.now() - start;
  } while (ms < minMs);
  return { opsPerSec: (ops * 1000) / ms, ops, ms };
}

export function withRatios(suite: BenchSuite): BenchSuite {
  const base = suite.rows.find((r) => r.name === suite.baseline);
  if (!base) return suite;
  return { ...suite, rows: suite.rows.map((r) => ({ ...r, ratio: r.value / base.value })) };
}

export function formatSuite(suite: BenchSuite): string {
  const lines = [`## ${suite.suite} (baseline: ${suite.baseline})`];
  if (suite.headline) lines.push(suite.headline);
  const w = Math.max(...suite.rows.map((r) => r.name.length), 4);
  for (const r of suite.rows) {
    const extra = r.extra
      ? '  ' +
        Object.entries(r.extra)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')
      : '';
    const ratio = r.ratio === undefined ? '' : `  x${r.ratio.toFixed(3)}`;
    lines.push(`${r.name.padEnd(w)}  ${fmt(r.value).padStart(12)} ${r.unit}${ratio}${extra}`);
  }
  for (const n of suite.notes ?? []) lines.push(`  note: ${n}`);
  return lines.join('\n');
}

function fmt(v: number): string {
  return v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(4);
}

/** One garbage-collection pause on this thread: when it started (performance.now() time) and how long it took. */
export interface GcPause {
  start: number;
  ms: number;
}

/**
 * Records this thread's GC pauses from now until stop(). The entries arrive a
 * tick after the pause, so totalMs() first waits for those of what just ran.
 */
export function watchGc() {
  const pauses: GcPause[] = [];
  let totalMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      pauses.push({ start: e.startTime, ms: e.duration });
      totalMs += e.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    pauses,
    /** Milliseconds paused so far, once the entries of what just ran are in. */
    async totalMs(): Promise<number> {
      await settled();
      return totalMs;
    },
    stop: () => observer.disconnect(),
  };
}

function settled(): Promise<void> {
  return new Promise((r) => setImmediate(r));
}

/** The median (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * CPU and run-queue time of this process's threads, in ns (Linux schedstat); the main thread apart from the others
 * (V8's GC and compiler helpers, libuv's pool).
 */
export interface ThreadTimes {
  mainCpuNs: number;
  mainWaitNs: number;
  otherCpuNs: number;
}

/** This process's thread times now, or null where /proc/self/task/<tid>/schedstat is not readable (not Linux). */
export function threadTimes(): ThreadTimes | null {
  try {
    const t: ThreadTimes = { mainCpuNs: 0, mainWaitNs: 0, otherCpuNs: 0 };
    for (const tid of readdirSync('/proc/self/task')) {
      let line: string;
      try {
        line = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
      } catch {
        continue; // the thread ended meanwhile
      }
      const [cpu, wait] = line.split(' ').map(Number);
      if (Number(tid) === process.pid) {
        t.mainCpuNs = cpu;
        t.mainWaitNs = wait;
      } else t.otherCpuNs += cpu;
    }
    return t;
  } catch {
    return null;
  }
}

/** b - a, field by field (null if either is). */
export function threadTimesSince(a: ThreadTimes | null, b: ThreadTimes | null): ThreadTimes | null {
  return a && b
    ? {
        mainCpuNs: b.mainCpuNs - a.mainCpuNs,
        mainWaitNs: b.mainWaitNs - a.mainWaitNs,
        otherCpuNs: b.otherCpuNs - a.otherCpuNs,
      }
    : null;
}
