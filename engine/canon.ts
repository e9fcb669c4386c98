// Canonical, frozen action objects shared by the legal-action generator, the
// defaults and the built-in bots. Handing out the same objects avoids
// allocating on the hot path, and submit() recognises them without
// re-validating their shape.

import { EDGE_COUNT, HEX_COUNT, RESOURCES, VERTEX_COUNT } from './board';
import type { AnyAction, BanditAction, DecisionKind, ResourceCounts, TradeResponse, TurnAction } from './types';

const kindOf = new Map<object, DecisionKind>();
/** Five-slot arrays of the ResourceCounts inside canonical actions, so rules need not convert them. */
const countsOf = new WeakMap<object, Int16Array>();

/** The precomputed five counts of a canonical ResourceCounts object, or undefined. */
export function canonicalCounts(c: ResourceCounts): Int16Array | undefined {
  return countsOf.get(c);
}

function canon<T extends AnyAction>(kind: DecisionKind, action: T): T {
  deepFreeze(action);
  kindOf.set(action, kind);
  return action;
}

function deepFreeze(o: object): void {
  for (const v of Object.values(o)) if (v && typeof v === 'object') deepFreeze(v);
  Object.freeze(o);
}

/** The decision kind a canonical object answers, or undefined for any other value. */
export function canonicalKind(answer: unknown): DecisionKind | undefined {
  return typeof answer === 'object' && answer !== null ? kindOf.get(answer) : undefined;
}

function counts(c: ResourceCounts): ResourceCounts {
  countsOf.set(c, Int16Array.from(RESOURCES, (r) => c[r] ?? 0));
  return c;
}

function one(r: number): ResourceCounts {
  return counts({ [RESOURCES[r]]: 1 });
}

export const END_TURN: TurnAction = canon('turn', { type: 'end_turn' });
export const BUY_DEV: TurnAction = canon('turn', { type: 'buy_dev' });
export const BUILD_ROAD: readonly TurnAction[] = Array.from({ length: EDGE_COUNT }, (_, e) => canon('turn', { type: 'build_road', edge: e }));
export const BUILD_SETTLEMENT: readonly TurnAction[] = Array.from({ length: VERTEX_COUNT }, (_, v) => canon('turn', { type: 'build_settlement', vertex: v }));
export const BUILD_CITY: readonly TurnAction[] = Array.from({ length: VERTEX_COUNT }, (_, v) => canon('turn', { type: 'build_city', vertex: v }));
export const ROADWORKS_ONE: readonly TurnAction[] = Array.from({ length: EDGE_COUNT }, (_, e) => canon('turn', { type: 'play_roadworks', edges: [e] }));
export const EMBARGO: readonly TurnAction[] = RESOURCES.map((r) => canon('turn', { type: 'play_embargo', resource: r }));

/** BANK_TRADE[give * 5 + get]; entries with give === get are unused. */
export const BANK_TRADE: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) =>
  canon('turn', { type: 'bank_trade', give: RESOURCES[Math.floor(i / 5)], get: RESOURCES[i % 5] }));

/** OFFER_ONE[give * 5 + get]: an open 1-for-1 offer. */
export const OFFER_ONE: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) =>
  canon('turn', { type: 'offer_trade', give: one(Math.floor(i / 5)), get: one(i % 5) }));

/** WINDFALL[a * 5 + b] for a <= b: take one of a and one of b (two of a when equal). */
export const WINDFALL: readonly TurnAction[] = Array.from({ length: 25 }, (_, i) => {
  const a = Math.floor(i / 5), b = i % 5;
  const take = counts(a === b ? { [RESOURCES[a]]: 2 } : { [RESOURCES[a]]: 1, [RESOURCES[b]]: 1 });
  return canon('turn', { type: 'play_windfall', take });
});

/** KNIGHT[hex * 5 + victim + 1] (victim -1 = none). */
export const KNIGHT: readonly TurnAction[] = Array.from({ length: HEX_COUNT * 5 }, (_, i) => {
  const hex = Math.floor(i / 5), victim = (i % 5) - 1;
  return canon('turn', victim === -1 ? { type: 'play_knight', hex } : { type: 'play_knight', hex, victim });
});

/** BANDIT[hex * 5 + victim + 1] (victim -1 = none). */
export const BANDIT: readonly BanditAction[] = Array.from({ length: HEX_COUNT * 5 }, (_, i) => {
  const hex = Math.floor(i / 5), victim = (i % 5) - 1;
  return canon('bandit', victim === -1 ? { hex } : { hex, victim });
});

export const ACCEPT: TradeResponse = canon('trade', { accept: true });
export const REJECT: TradeResponse = canon('trade', { accept: false });
