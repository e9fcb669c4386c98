// Hidden-information audits: a "twin" of a game differs from it only in facts
// a spectator must not learn, and the audit checks that the public projection
// (publicView, publicEvent) of the two is byte-identical, step by step.
//
// Per step (state G, a seat's answer A):
// 1. Before the step, a twin with EVERY hidden fact changed must have the
//    same publicView: other hands (same totals), dev card identities (same
//    counts, swapped with the deck), deck order, the dice and steal streams,
//    buffered trade answers, even the seed.
// 2. A is played on G and on a twin as the runner plays it (an illegal answer
//    is a strike with its code and message, then the default). Some things a
//    step rightly makes public: whether A was legal, the answers applied, a
//    new roll, a trade's outcome, an embargo's haul, a discard, the end.
//    `declassified` below lists exactly that, and nothing about a bought
//    card, a stolen resource or why an answer was refused. When the twins'
//    declassified facts agree, their public events and the publicView after
//    the step must be identical. When they do not (the hidden change showed
//    through a rule, e.g. a build legal in one twin only), a milder twin is
//    tried: without touching the dice, then the acting seat, then any hand.
import {
  cloneGame,
  defaultAction,
  pendingDecisions,
  publicEvent,
  publicView,
  recordStrike,
  submit,
  type Game,
  type GameEvent,
} from '../../engine';
import { ACCEPT, REJECT } from '../../engine/canon';
import { nextU32, randInt, shuffle, stream } from '../../engine/rng';
import { STAGE_DISCARD, STAGE_TRADE, handTotal } from '../../engine/state';

export interface Perturbation {
  dice: boolean;
  /** Seats whose hand composition (not total) is redrawn. */
  hands: 'all' | 'others' | 'none';
  /** Seats whose dev card identities are swapped with each other and the deck (counts kept). */
  devs: 'all' | 'others' | 'none';
}

/** Mildest last; every level changes the deck order, the steal stream and the seed. */
export const LEVELS: readonly Perturbation[] = [
  { dice: true, hands: 'all', devs: 'all' },
  { dice: false, hands: 'all', devs: 'all' },
  { dice: false, hands: 'others', devs: 'others' },
  { dice: false, hands: 'none', devs: 'others' },
  { dice: false, hands: 'none', devs: 'none' },
];

function fresh(s: Uint32Array, r: Uint32Array): void {
  for (let i = 0; i < 4; i++) s[i] = nextU32(r);
}

function pick(which: 'all' | 'others' | 'none', n: number, actor: number): number[] {
  if (which === 'none') return [];
  return Array.from({ length: n }, (_, s) => s).filter((s) => which === 'all' || s !== actor);
}

/** A copy of g (log included) whose hidden facts are redrawn, consistent with everything public. */
export function hiddenTwin(g: Game, actor: number, p: Perturbation, r: Uint32Array): Game {
  const t = cloneGame(g, true);
  (t as { seed: string }).seed = `twin-${nextU32(r)}`;
  if (p.dice) fresh(t.diceRng, r);
  fresh(t.stealRng, r);

  for (const s of pick(p.hands, t.n, actor)) {
    // Cards already promised stay covered: a buffered discard, an open offer's give side.
    if (t.stage === STAGE_DISCARD && ((t.asked & ~t.waiting) >> s) & 1) continue;
    if (t.stage === STAGE_TRADE && t.tradeFrom === s) continue;
    const total = handTotal(t, s);
    t.hand.fill(0, s * 5, s * 5 + 5);
    for (let i = 0; i < total; i++) t.hand[s * 5 + randInt(r, 5)]++;
  }

  // Dev cards: the chosen seats' cards and the rest of the deck, dealt again in the same numbers.
  const devSeats = pick(p.devs, t.n, actor);
  const pool: number[] = [];
  const counts = devSeats.map((s) => {
    let old = 0,
      fresh = 0;
    for (let c = 0; c < 5; c++) {
      for (let k = 0; k < t.devOld[s * 5 + c]; k++) pool.push(c);
      for (let k = 0; k < t.devNew[s * 5 + c]; k++) pool.push(c);
      old += t.devOld[s * 5 + c];
      fresh += t.devNew[s * 5 + c];
    }
    return { s, old, fresh };
  });
  for (let i = t.deckPos; i < t.deck.length; i++) pool.push(t.deck[i]);
  shuffle(r, pool);
  let k = 0;
  for (const { s, old, fresh: bought } of counts) {
    t.devOld.fill(0, s * 5, s * 5 + 5);
    t.devNew.fill(0, s * 5, s * 5 + 5);
    for (let i = 0; i < old; i++) t.devOld[s * 5 + pool[k++]]++;
    for (let i = 0; i < bought; i++) t.devNew[s * 5 + pool[k++]]++;
  }
  for (let i = t.deckPos; i < t.deck.length; i++) t.deck[i] = pool[k++];

  // Trade answers given but not yet revealed (the set is incomplete): flipped.
  if (p.hands !== 'none' && t.stage === STAGE_TRADE) {
    for (let s = 0; s < t.n; s++) {
      if (s === actor || !(((t.asked & ~t.waiting) >> s) & 1) || nextU32(r) % 2) continue;
      t.accepts ^= 1 << s;
      t.bufAction[s] = (t.accepts >> s) & 1 ? ACCEPT : REJECT;
    }
  }
  t.pendingCache = null;
  return t;
}

/** Plays an answer as the runner does: applied, or a strike (code and message in the replay) and the default. */
export function playAsRunner(g: Game, seat: number, answer: unknown): { accepted: boolean; events: GameEvent[] } {
  const start = g.log!.length;
  const kind = pendingDecisions(g).find((d) => d.seat === seat)!.kind;
  const r = submit(g, seat, answer);
  if (!r.ok) {
    recordStrike(g, seat, 'illegal', g.strikes[seat] + 1, kind, {
      code: r.reason.code,
      message: `${r.reason.code}: ${r.reason.message}`,
    });
    const d = submit(g, seat, defaultAction(g, seat));
    if (!d.ok) throw new Error(`default refused: ${d.reason.code}`);
  }
  return { accepted: r.ok, events: g.log!.slice(start) };
}

/**
 * What a step makes public by the rules, whatever the projection: the events
 * with a bought card's identity, the stolen resource and a strike's code and
 * message left out. Written independently of engine/public-events.ts.
 */
export function declassified(e: GameEvent): unknown {
  switch (e.kind) {
    case 'dev':
      return e.data.action === 'buy' ? ['dev', e.seat, 'bought a card'] : e;
    case 'bandit':
      return 'victim' in e.data ? ['bandit', e.seat, e.data.hex, e.data.victim, e.data.stole !== null] : e;
    case 'timeout':
      return ['timeout', e.seat, e.data.reason, e.data.strikes, e.data.decision];
    default:
      return e;
  }
}

export interface AuditOptions {
  /** The projections under audit; default the engine's. */
  project?: (e: GameEvent) => unknown;
  view?: (g: Game) => unknown;
}

export interface AuditStats {
  steps: number;
  /** Steps whose events were compared (at some level). */
  compared: number;
  /** Compared steps where the twins' private data really differed, per kind: the cases a leak would show in. */
  differing: { strikeCode: number; boughtCard: number; stolen: number };
  /** Views compared with every hidden fact changed. */
  views: number;
  leaks: string[];
}

export function emptyStats(): AuditStats {
  return { steps: 0, compared: 0, differing: { strikeCode: 0, boughtCard: 0, stolen: 0 }, views: 0, leaks: [] };
}

const json = (x: unknown) => JSON.stringify(x);

/** Audits one step of g (seat answers `answer`), then plays it on g. */
export function auditStep(
  g: Game,
  seat: number,
  answer: unknown,
  r: Uint32Array,
  stats: AuditStats,
  opts: AuditOptions = {},
): void {
  const project = opts.project ?? publicEvent;
  const view = opts.view ?? publicView;
  stats.steps++;

  const before = json(view(g));
  const all = hiddenTwin(g, seat, LEVELS[0], r);
  stats.views++;
  if (json(view(all)) !== before)
    stats.leaks.push(`view before step ${stats.steps} (turn ${g.turn}) depends on hidden facts`);

  for (const level of LEVELS) {
    const a = cloneGame(g, true);
    const b = hiddenTwin(g, seat, level, r);
    const ra = playAsRunner(a, seat, answer);
    const rb = playAsRunner(b, seat, answer);
    if (ra.accepted !== rb.accepted || json(ra.events.map(declassified)) !== json(rb.events.map(declassified)))
      continue;
    stats.compared++;
    const raw = (k: GameEvent['kind'], ev: GameEvent[]) => json(ev.filter((e) => e.kind === k));
    if (raw('timeout', ra.events) !== raw('timeout', rb.events)) stats.differing.strikeCode++;
    if (raw('dev', ra.events) !== raw('dev', rb.events)) stats.differing.boughtCard++;
    if (raw('bandit', ra.events) !== raw('bandit', rb.events)) stats.differing.stolen++;
    const pa = json(ra.events.map(project));
    const pb = json(rb.events.map(project));
    if (pa !== pb) stats.leaks.push(`events of step ${stats.steps}: ${pa.slice(0, 300)} vs ${pb.slice(0, 300)}`);
    if (json(view(a)) !== json(view(b))) stats.leaks.push(`view after step ${stats.steps} depends on hidden facts`);
    break;
  }
  playAsRunner(g, seat, answer);
}

/** A seeded stream for an audit's own choices. */
export function auditRng(seed: string): Uint32Array {
  return stream(seed, 'audit');
}
