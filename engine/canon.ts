// Canonical, frozen action objects shared by the legal-action generator, the
// defaults and the built-in bots. Handing out the same objects avoids
// allocating on the hot path, and submit() recognises them without
// re-validating their shape.

import { EDGE_COUNT, HEX_COUNT, RESOURCES, VERTEX_COUNT, VERTEX_EDGES } from './board';
import type {
  AnyAction,
  BanditAction,
  DecisionKind,
  DiscardAction,
  ResourceCounts,
  SetupAction,
  TradeResponse,
  TurnAction,
  TurnActionType,
} from './types';

/**
 * An answer as the rules read it: the turn action's type (null for other
 * kinds), read here rather than from the answer objects, whose many shapes
 * would make every `type` read megamorphic; and its resource counts as five
 * slots: a = windfall take / offer give / discard cards, b = offer get.
 */
export interface Counts {
  readonly type: TurnActionType | null;
  readonly a: ArrayLike<number>;
  readonly b: ArrayLike<number>;
}

const ZERO5 = new Int16Array(5);

/**
 * What submit() needs to know about a canonical answer, found with one map
 * lookup: the decision kind it answers and its resource counts, precomputed
 * so no rule converts them.
 */
export interface CanonInfo {
  /** The canonical object itself: an object that merely inherits the tag (Object.create) is not canonical. */
  readonly self: object;
  readonly kind: DecisionKind;
  readonly counts: Counts;
  /** For an open 1-for-1 offer (OFFER_ONE), the resource it gives; else -1. submit's fast path for offers. */
  readonly offerGive: number;
}

// The info rides on the object itself under a private, non-enumerable symbol:
// one property load instead of a map lookup on every answer, invisible to
// JSON, Object.keys, spreads and deep-equality checks. Only canon() can set
// it, and the object is frozen right after, so foreign input cannot carry it.
const INFO: unique symbol = Symbol('canonInfo');

function canon<T extends AnyAction>(
  kind: DecisionKind,
  action: T,
  a: ResourceCounts | null = null,
  b: ResourceCounts | null = null,
  offerGive = -1,
): T {
  const type = kind === 'turn' ? (action as TurnAction).type : null;
  const counts = Object.freeze({ type, a: a === null ? ZERO5 : slots(a), b: b === null ? ZERO5 : slots(b) });
  const info: CanonInfo = Object.freeze({ self: action, kind, counts, offerGive });
  Object.defineProperty(action, INFO, { value: info, enumerable: false, writable: false, configurable: false });
  deepFreeze(action);
  return action;
}

function slots(c: ResourceCounts): Int16Array {
  return Int16Array.from(RESOURCES, (r) => c[r] ?? 0);
}

function deepFreeze(o: object): void {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  Object.freeze(o);
}

/** The info of a canonical object, or undefined for any other value. */
export function canonicalInfo(answer: unknown): CanonInfo | undefined {
  // Trade responses are two-thirds of all answers in bot play: two identity checks catch them.
  if (answer === REJECT) return REJECT_INFO;
  if (answer === ACCEPT) return ACCEPT_INFO;
  if (typeof answer !== 'object' || answer === null) return undefined;
  const info = (answer as { [INFO]?: CanonInfo })[INFO];
  return info !== undefined && info.self === answer ? info : undefined;
}

const roadworksPairs = new Array<TurnAction | undefined>(EDGE_COUNT * EDGE_COUNT).fill(undefined);

/** The canonical play_roadworks answer for edges [a, b], created on first use (at most 72 x 72). */
export function roadworksPair(a: number, b: number): TurnAction {
  const key = a * EDGE_COUNT + b;
  return (roadworksPairs[key] ??= canon('turn', { type: 'play_roadworks', edges: [a, b] }));
}

// Discards are built from the hand, so their canonical objects are made on
// first use and kept in a bounded cache keyed by the five counts.
const discards = new Map<number, DiscardAction>();
const DISCARD_CACHE_LIMIT = 4096;

/** The canonical discard answer for five counts (each below 1024). */
export function discardOf(cards: ArrayLike<number>): DiscardAction {
  const c0 = cards[0],
    c1 = cards[1],
    c2 = cards[2],
    c3 = cards[3],
    c4 = cards[4];
  // Counts below 64 (every real hand) pack into 30 bits, a small integer, which
  // V8 hashes without allocating; larger ones take a key of their own from 2^30 up.
  const key =
    (c0 | c1 | c2 | c3 | c4) < 64
      ? c0 | (c1 << 6) | (c2 << 12) | (c3 << 18) | (c4 << 24)
      : 1073741824 + c0 + 1024 * (c1 + 1024 * (c2 + 1024 * (c3 + 1024 * c4)));
  let action = discards.get(key);
  if (action === undefined) {
    if (discards.size >= DISCARD_CACHE_LIMIT) {
      // Forget the old ones (they stay canonical: their info is their own).
      discards.clear();
    }
    const counts: ResourceCounts = {};
    for (let r = 0; r < 5; r++) if (cards[r] !== 0) counts[RESOURCES[r]] = cards[r];
    action = canon('discard', { cards: counts }, counts);
    discards.set(key, action);
  }
  return action;
}

function one(r: number): ResourceCounts {
  return { [RESOURCES[r]]: 1 };
}

export const END_TURN: TurnAction = canon('turn', { type: 'end_turn' });
export const BUY_DEV: TurnAction = canon('turn', { type: 'buy_dev' });
export const BUILD_ROAD: readonly TurnAction[] = Array.from({ length: EDGE_COUNT }, (_, e) =>
  canon('turn', { type: 'build_road', edge: e }),
);
export const BUILD_SETTLEMENT: readonly TurnAction[] = Array.from({ length: VERTEX_COUNT }, (_, v) =>
  canon('turn', { type: 'build_settlement', vertex: v }),
);
export const BUILD_CITY: readonly TurnAction[] = Array.from({ length: VERTEX_COUNT }, (_, v) =>
  canon('turn', { type: 'build_city', vertex: v }),
);
export const ROADWORKS_ONE: readonly TurnAction[] = Array.from({ length: EDGE_COUNT }, (_, e) =>
  canon('turn', { type: 'play_roadworks', edges: [e] }),
);
export const EMBARGO: readonly TurnAction[] = RESOURCES.map((r) =>
  canon('turn', { type: 'play_embargo', resource: r }),
);

/** BANK_TRADE[give * 5 + get]; entries with give === get are unused. */
export const BANK_TRADE: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) =>
  canon('turn', { type: 'bank_trade', give: RESOURCES[Math.floor(i / 5)], get: RESOURCES[i % 5] }),
);

/** OFFER_ONE[give * 5 + get]: an open 1-for-1 offer. */
export const OFFER_ONE: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) => {
  const give = one(Math.floor(i / 5)),
    get = one(i % 5);
  return canon('turn', { type: 'offer_trade', give, get }, give, get, Math.floor(i / 5));
});

/** WINDFALL[a * 5 + b] for a <= b: take one of a and one of b (two of a when equal). */
export const WINDFALL: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) => {
  const a = Math.floor(i / 5),
    b = i % 5;
  const take: ResourceCounts = a === b ? { [RESOURCES[a]]: 2 } : { [RESOURCES[a]]: 1, [RESOURCES[b]]: 1 };
  return canon('turn', { type: 'play_windfall', take }, take);
});

/** KNIGHT[hex * 5 + victim + 1] (victim -1 = none). */
export const KNIGHT: readonly TurnAction[] = Array.from({ length: HEX_COUNT * 5 }, (_, i) => {
  const hex = Math.floor(i / 5),
    victim = (i % 5) - 1;
  return canon('turn', victim === -1 ? { type: 'play_knight', hex } : { type: 'play_knight', hex, victim });
});

/** BANDIT[hex * 5 + victim + 1] (victim -1 = none). */
export const BANDIT: readonly BanditAction[] = Array.from({ length: HEX_COUNT * 5 }, (_, i) => {
  const hex = Math.floor(i / 5),
    victim = (i % 5) - 1;
  return canon('bandit', victim === -1 ? { hex } : { hex, victim });
});

/**
 * SETUP[v * 3 + i]: settlement at v with the i-th edge touching v (VERTEX_EDGES order); null where v has fewer edges.
 */
export const SETUP: ReadonlyArray<SetupAction | null> = Array.from({ length: VERTEX_COUNT * 3 }, (_, i) => {
  const e = VERTEX_EDGES[i];
  return e === -1 ? null : canon('setup', { settlement: Math.floor(i / 3), road: e });
});

export const ACCEPT: TradeResponse = canon('trade', { accept: true });
export const REJECT: TradeResponse = canon('trade', { accept: false });
const REJECT_INFO = (REJECT as { [INFO]?: CanonInfo })[INFO]!;
const ACCEPT_INFO = (ACCEPT as { [INFO]?: CanonInfo })[INFO]!;
