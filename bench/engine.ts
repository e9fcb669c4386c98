// Engine throughput on one core: whole games with built-in bots, and the
// engine alone (replaying recorded answers) to show where the time goes.
import {
  createBuiltinBot,
  newGame,
  nextSeat,
  submit,
  type AnyAction,
  type BuiltinBot,
  type BuiltinBotName,
  type Game,
} from '../engine';
import { playToEnd } from '../src/sim/simulate';
import { measure, type BenchSuite } from './harness';

const MIN_MS = Number(process.env.BENCH_MS ?? 3000);

/** Untimed games before each timed row, so the row measures compiled code, not the JIT warming up. */
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 500);

/** Every answer through submit, one at a time: what playToEnd does without answerOpenOffer. */
function playOneByOne(g: Game, bots: readonly BuiltinBot[]): number {
  let n = 0;
  for (let seat = nextSeat(g); seat !== -1; seat = nextSeat(g), n++) {
    if (!submit(g, seat, bots[seat].decide(g, seat)).ok) throw new Error('illegal answer');
  }
  return n;
}

function playGames(names: BuiltinBotName[], prefix: string, play: typeof playToEnd = playToEnd) {
  let i = 0;
  let decisions = 0;
  const game = () => {
    const seed = `${prefix}/${i++}`;
    const bots = names.map((n, s) => createBuiltinBot(n, `${seed}:${s}`));
    decisions += play(newGame(seed, names.length as 3 | 4, { events: false }), bots);
    return 1;
  };
  measure(game, WARMUP_MS);
  i = 0;
  decisions = 0;
  const r = measure(game, MIN_MS);
  return { gamesPerSec: r.opsPerSec, decisionsPerSec: (decisions * 1000) / r.ms, games: r.ops };
}

/** Records every answer of `count` random games, so the engine can be timed without the bots. */
function recordGames(count: number): Array<{ seed: string; answers: Array<[number, AnyAction]> }> {
  const out = [];
  for (let i = 0; i < count; i++) {
    const seed = `bench-replay/${i}`;
    const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `${seed}:${s}`));
    const answers: Array<[number, AnyAction]> = [];
    playToEnd(newGame(seed, 4, { events: false }), bots, (seat, a) => answers.push([seat, a]));
    out.push({ seed, answers });
  }
  return out;
}

export async function run(): Promise<BenchSuite[]> {
  const random = playGames(['random', 'random', 'random', 'random'], 'bench-random');
  const oneByOne = playGames(['random', 'random', 'random', 'random'], 'bench-random', playOneByOne);
  const random3 = playGames(['random', 'random', 'random'], 'bench-random3');
  const greedy1 = playGames(['greedy', 'random', 'random', 'random'], 'bench-g1');
  const greedy4 = playGames(['greedy', 'greedy', 'greedy', 'greedy'], 'bench-g4');

  const recorded = recordGames(200);
  const totalAnswers = recorded.reduce((n, r) => n + r.answers.length, 0);
  let k = 0;
  measure(() => {
    const rec = recorded[k++ % recorded.length];
    const g = newGame(rec.seed, 4, { events: false });
    for (const [seat, a] of rec.answers) submit(g, seat, a);
    return 1;
  }, WARMUP_MS);
  k = 0;
  const engineOnly = measure(() => {
    const rec = recorded[k++ % recorded.length];
    const g = newGame(rec.seed, 4, { events: false });
    for (const [seat, a] of rec.answers) submit(g, seat, a);
    return 1;
  }, MIN_MS);
  let j = 0;
  const withEvents = measure(() => {
    const rec = recorded[j++ % recorded.length];
    const g = newGame(rec.seed, 4);
    for (const [seat, a] of rec.answers) submit(g, seat, a);
    return 1;
  }, MIN_MS);
  const avgAnswers = totalAnswers / recorded.length;
  // The decision mix explains the per-decision cost: most answers are trade
  // responses (every offer asks each opponent), the cheapest kind.
  let responses = 0,
    offers = 0;
  for (const r of recorded) {
    for (const [, a] of r.answers) {
      if ('accept' in a) responses++;
      else if ('type' in a && a.type === 'offer_trade') offers++;
    }
  }
  const pct = (x: number) => `${Math.round((100 * x) / totalAnswers)}%`;

  const row = (name: string, r: { gamesPerSec: number; decisionsPerSec: number; games: number }) => ({
    name,
    value: r.gamesPerSec,
    unit: 'games/s',
    extra: {
      decisionsPerSec: Math.round(r.decisionsPerSec),
      nsPerDecision: Math.round(1e9 / r.decisionsPerSec),
      games: r.games,
    },
  });
  return [
    {
      suite: 'engine (one core)',
      baseline: 'random x4 (bots + engine)',
      rows: [
        row('random x4 (bots + engine)', random),
        row('random x4, every answer through submit', oneByOne),
        row('random x3 (bots + engine)', random3),
        row('greedy + random x3', greedy1),
        row('greedy x4', greedy4),
        {
          name: 'engine only: replay random x4 answers, no events',
          value: engineOnly.opsPerSec,
          unit: 'games/s',
          extra: {
            decisionsPerSec: Math.round(engineOnly.opsPerSec * avgAnswers),
            nsPerDecision: Math.round(1e9 / (engineOnly.opsPerSec * avgAnswers)),
          },
        },
        {
          name: 'engine only: replay random x4 answers, with events',
          value: withEvents.opsPerSec,
          unit: 'games/s',
          extra: {
            decisionsPerSec: Math.round(withEvents.opsPerSec * avgAnswers),
            nsPerDecision: Math.round(1e9 / (withEvents.opsPerSec * avgAnswers)),
          },
        },
      ],
      notes: [
        `random x4 games average ${avgAnswers.toFixed(0)} decisions: ${pct(responses)} trade responses, ${pct(offers)} offers, the rest other turn actions, setup, bandit, discards`,
        'engine only = newGame + submit of recorded answers (validation and rules), without choosing moves;',
        'the gap to "random x4" is the bots: legal-action generation and choice.',
        'bots rows run playToEnd (src/sim), as arena simulate does: the seats asked by an offer answer at once (answerOpenOffer);',
        '"every answer through submit" is the same games one answer at a time. Each row follows 0.5 s of untimed games (JIT warm-up).',
        'requirement: >= 1,000 random x4 games/s on one core; goal 3,000.',
      ],
    },
  ];
}
