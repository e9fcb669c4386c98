// Test helpers: build positions directly (no long games to reach them) and
// check that rejected answers change nothing.

import { expect } from 'vitest';
import { RESOURCES, edgeBetween } from '../../engine/board';
import { updateLongestRoad } from '../../engine/awards';
import { newGame, submit, defaultAction, pendingDecisions } from '../../engine/game';
import { placeRoad, placeSettlement } from '../../engine/rules/pieces';
import { startTurn } from '../../engine/flow';
import { randInt, stream } from '../../engine/rng';
import type { Game } from '../../engine/state';
import { STAGE_TURN } from '../../engine/state';
import type { ResourceCounts } from '../../engine/types';

/** A game in the main phase, turn 1, seat 0 to act, with an empty board and empty hands. */
export function blankMain(seed = 'blank', n: 3 | 4 = 4): Game {
  const g = newGame(seed, n);
  g.setupStep = 2 * n;
  g.stage = STAGE_TURN;
  g.turn = 1;
  g.current = 0;
  g.die1 = 2;
  g.die2 = 3;
  g.pendingCache = null;
  return g;
}

/** Plays the whole setup with the engine's defaults. */
export function afterDefaultSetup(seed = 'setup', n: 3 | 4 = 4): Game {
  const g = newGame(seed, n);
  while (g.setupStep < 2 * n) {
    const { seat } = pendingDecisions(g)[0];
    const r = submit(g, seat, defaultAction(g, seat));
    if (!r.ok) throw new Error(r.reason.message);
  }
  return g;
}

/** Sets the seat's hand exactly (missing resources become 0). */
export function setHand(g: Game, seat: number, counts: ResourceCounts): void {
  RESOURCES.forEach((r, i) => {
    g.hand[seat * 5 + i] = counts[r] ?? 0;
  });
}

export function handOf(g: Game, seat: number): number[] {
  return Array.from(g.hand.subarray(seat * 5, seat * 5 + 5));
}

/** The edge between two adjacent vertices; throws if they are not adjacent (keeps test shapes honest). */
export function edge(a: number, b: number): number {
  const e = edgeBetween(a, b);
  if (e === -1) throw new Error(`vertices ${a} and ${b} are not adjacent`);
  return e;
}

/** Puts roads for the seat along a vertex path, directly (no cost, no legality), and refreshes longest road. */
export function roadPath(g: Game, seat: number, path: number[]): number[] {
  const edges: number[] = [];
  for (let i = 1; i < path.length; i++) {
    const e = edge(path[i - 1], path[i]);
    placeRoad(g, seat, e);
    edges.push(e);
  }
  updateLongestRoad(g, 0xf);
  return edges;
}

/** Puts a settlement (or city) for the seat directly, and refreshes longest road. */
export function town(g: Game, seat: number, v: number, city = false): void {
  placeSettlement(g, seat, v);
  if (city) {
    g.isCity[v] = 1;
    g.citiesLeft[seat]--;
    g.settlementsLeft[seat]++;
  }
  updateLongestRoad(g, 0xf);
}

/** Everything in the state except the log itself (its length is included). */
export function snapshot(g: Game): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(g)) {
    if (k === 'log' || k === 'pendingCache') continue;
    out[k] = ArrayBuffer.isView(v) ? Array.from(v as Int8Array) : v;
  }
  out.logLength = g.log?.length ?? -1;
  return JSON.stringify(out);
}

/** Submits an answer that must be rejected with `code`, and checks nothing changed. */
export function expectRejected(g: Game, seat: number, answer: unknown, code: string): void {
  const before = snapshot(g);
  const r = submit(g, seat, answer);
  expect(r.ok, `expected ${code} for ${JSON.stringify(answer)}`).toBe(false);
  if (!r.ok) {
    expect(r.reason.code).toBe(code);
    expect(r.reason.message.length).toBeGreaterThan(0);
  }
  expect(snapshot(g)).toBe(before);
}

/** Submits an answer that must be accepted; returns its events. */
export function expectAccepted(g: Game, seat: number, answer: unknown) {
  const r = submit(g, seat, answer);
  if (!r.ok) throw new Error(`expected acceptance of ${JSON.stringify(answer)}: ${r.reason.code}: ${r.reason.message}`);
  return r.events;
}

/** A seed whose first roll (turn 1) has the given sum, searched deterministically. */
export function seedWithFirstRoll(sum: number, prefix = 'roll'): string {
  for (let i = 0; i < 10_000; i++) {
    const s = stream(`${prefix}${i}`, 'dice');
    if (randInt(s, 6) + 1 + randInt(s, 6) + 1 === sum) return `${prefix}${i}`;
  }
  throw new Error(`no seed rolls ${sum} first`);
}

/** Starts turn 1 for seat 0 with the real flow (automatic roll, production or 7). */
export function rollTurnOne(g: Game): void {
  g.turn = 1;
  g.current = 0;
  startTurn(g);
}
