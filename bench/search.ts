// builtin:search against greedy: first places in 4-seat games search + greedy
// x3 (seats rotating as `arena simulate` does), next to greedy's own share in
// greedy x4 games of the same seeds (the baseline: 25% for an equal bot),
// and the time per decision of each bot, measured in the same run.
// ARENA_BENCH_SEARCH_GAMES sets the count (default 1,000).
import { createBuiltinBot, newGame, nextSeat, outcome, submit, type BuiltinBot, type BuiltinBotName } from '../engine';
import { gameSeed } from '../src/sim/simulate';
import type { BenchSuite } from './harness';

const GAMES = Number(process.env.ARENA_BENCH_SEARCH_GAMES ?? 1000);
const SEED = 'bench-search';

interface Run { firsts: number; times: Float64Array; count: number }

/** Games of `hero` (rotating seats) against greedy x3; times every decision of the hero. */
function play(hero: BuiltinBotName, games: number): Run {
  const run: Run = { firsts: 0, times: new Float64Array(games * 120), count: 0 };
  for (let i = 0; i < games; i++) {
    const seed = gameSeed(SEED, i);
    // Rotation as in src/sim/simulate.ts: the hero (bot 0) sits at seat i % 4.
    const heroSeat = i % 4;
    const bots: BuiltinBot[] = [0, 1, 2, 3].map((s) => createBuiltinBot(s === heroSeat ? hero : 'greedy', `${seed}:${s}`));
    const g = newGame(seed, 4, { events: false });
    for (let s = nextSeat(g); s !== -1; s = nextSeat(g)) {
      const t0 = performance.now();
      const a = bots[s].decide(g, s);
      const dt = performance.now() - t0;
      if (s === heroSeat) {
        if (run.count === run.times.length) { const t = new Float64Array(run.count * 2); t.set(run.times); run.times = t; }
        run.times[run.count++] = dt;
      }
      const r = submit(g, s, a);
      if (!r.ok) throw new Error(`${bots[s].name} at seat ${s} answered illegally: ${r.reason.code}`);
    }
    if (outcome(g)!.winner === heroSeat) run.firsts++;
  }
  return run;
}

function stats(r: Run) {
  const t = r.times.slice(0, r.count).sort();
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  return { mean, p99: t[Math.floor(t.length * 0.99)], max: t[t.length - 1] };
}

export async function run(): Promise<BenchSuite[]> {
  // Warm-up (JIT) for both bots, not counted.
  play('search', 8);
  const greedy = play('greedy', GAMES);
  const search = play('search', GAMES);
  const gs = stats(greedy), ss = stats(search);
  const row = (name: string, r: Run, s: ReturnType<typeof stats>) => ({
    name, value: r.firsts / GAMES, unit: 'first places',
    extra: {
      firsts: r.firsts, games: GAMES, decisions: r.count,
      msPerDecision: s.mean.toFixed(3), p99Ms: s.p99.toFixed(3), maxMs: s.max.toFixed(1),
    },
  });
  return [{
    suite: 'search bot vs greedy x3 (4 seats, seats rotating)',
    baseline: 'greedy + greedy x3',
    rows: [row('greedy + greedy x3', greedy, gs), row('search + greedy x3', search, ss)],
    notes: [
      'value: share of games the first bot wins; an equal bot wins 25%. Goal for search: at least 40% over 1,000 games.',
      `times are per decision of the first bot only; goal for search: mean within 5 ms (search/greedy time x${(ss.mean / gs.mean).toFixed(0)})`,
    ],
  }];
}
