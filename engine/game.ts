// The state machine: which seats owe which decisions, answers in, events out.
// Pure: no I/O, no clock. Everything random comes from the seed.

import { ACCEPT, REJECT, canonicalInfo } from './canon';
import { answerOffer, applyAnswer, checkAnswer, countsOf } from './apply';
import type { Counts } from './canon';
import { defaultAnswer } from './defaults';
import { K_BANDIT, K_DISCARD, K_SETUP, K_TRADE, K_TURN, NONE, PENDING } from './pending';
import { rejection } from './rejections';
import { applyOffer, resolveOffer } from './rules/trade';
import { shuffle, stream } from './rng';
import { parseAnswer } from './shape';
import type { Game } from './state';
import {
  OFFER_LIMIT,
  RULES_VERSION,
  STAGE_BANDIT,
  STAGE_DISCARD,
  STAGE_OVER,
  STAGE_SETUP,
  STAGE_TRADE,
  STAGE_TURN,
  createGame,
  emit,
  setupSeat,
} from './state';
import { boardView } from './view';
import type {
  AnyAction,
  DecisionKind,
  GameEvent,
  Outcome,
  PendingDecision,
  RejectionCode,
  StrikeReason,
  SubmitResult,
  TimeoutEvent,
  TradeResponse,
} from './types';

export { RULES_VERSION };
export type { Game };
export { cloneGame } from './state';

export function newGame(seed: string, seatCount: 3 | 4, opts?: { events?: boolean }): Game {
  const g = createGame(seed, seatCount, opts?.events ?? true);
  if (g.log) emit(g, 'start', undefined, { rulesVersion: RULES_VERSION, seatCount, board: boardView(g) });
  return g;
}

/** The seed shuffles seats: result[seat] = index of the bot (in the order given) that takes that seat. */
export function seatOrder(seed: string, botCount: number): number[] {
  const order = Array.from({ length: botCount }, (_, i) => i);
  shuffle(stream(seed, 'seats'), order);
  return order;
}

/** The decision kind the seat owes now, or null. */
export function owedKind(g: Game, seat: number): DecisionKind | null {
  switch (g.stage) {
    case STAGE_SETUP:
      return seat === setupSeat(g) ? 'setup' : null;
    case STAGE_TURN:
      return seat === g.current ? 'turn' : null;
    case STAGE_BANDIT:
      return seat === g.current ? 'bandit' : null;
    case STAGE_DISCARD:
      return (g.waiting >> seat) & 1 ? 'discard' : null;
    case STAGE_TRADE:
      return (g.waiting >> seat) & 1 ? 'trade' : null;
    default:
      return null;
  }
}

function computePending(g: Game): readonly PendingDecision[] {
  switch (g.stage) {
    case STAGE_SETUP:
      return PENDING[K_SETUP][1 << setupSeat(g)];
    case STAGE_TURN:
      return PENDING[K_TURN][1 << g.current];
    case STAGE_BANDIT:
      return PENDING[K_BANDIT][1 << g.current];
    case STAGE_DISCARD:
      return PENDING[K_DISCARD][g.waiting];
    case STAGE_TRADE:
      return PENDING[K_TRADE][g.waiting];
    default:
      return NONE;
  }
}

/** The lowest seat in a bitmask of seats (bit s = seat s); -1 for none. */
function lowestSeat(mask: number): number {
  return 31 - Math.clz32(mask & -mask);
}

/**
 * The seat that owes a decision now, the lowest when several do (that is,
 * pendingDecisions(g)[0].seat); -1 once the game is over. For loops that
 * answer one decision at a time: no list to read.
 */
export function nextSeat(g: Game): number {
  switch (g.stage) {
    case STAGE_TURN:
    case STAGE_BANDIT:
      return g.current;
    case STAGE_TRADE:
    case STAGE_DISCARD:
      return lowestSeat(g.waiting);
    case STAGE_SETUP:
      return setupSeat(g);
    default:
      return -1;
  }
}

/** Every decision the engine waits for; several at once for discards and trade responses; empty when over. */
export function pendingDecisions(g: Game): readonly PendingDecision[] {
  if (g.pendingCache === null) g.pendingCache = computePending(g);
  return g.pendingCache;
}

// Shared and frozen: returned whenever there is nothing to report (events off), so a caller cannot pollute it.
const NO_EVENTS = Object.freeze([]) as unknown as GameEvent[];
const OK_SILENT: SubmitResult = Object.freeze({ ok: true as const, events: NO_EVENTS });

function describe(answer: unknown): string {
  try {
    const s = JSON.stringify(answer);
    return s === undefined ? String(answer) : s.length > 200 ? `${s.slice(0, 200)}...` : s;
  } catch {
    return 'unserialisable answer';
  }
}

/**
 * Validates shape and legality of a seat's answer and applies it. On
 * rejection nothing changes and `reason` says why. The events are those this
 * answer produced (none while a simultaneous set is still incomplete).
 */
export function submit(g: Game, seat: number, answer: unknown): SubmitResult {
  // Answers to offers are two-thirds of all answers in bot play: the engine's own
  // ACCEPT / REJECT from a seat that owes one need no shape or rule check.
  if (
    (answer === REJECT || answer === ACCEPT) &&
    g.stage === STAGE_TRADE &&
    Number.isInteger(seat) &&
    ((g.waiting >> seat) & 1) === 1
  ) {
    const isDefault = g.nextDefault[seat] === 1 || g.resigned[seat] === 1;
    g.nextDefault[seat] = 0;
    if (!g.log) {
      answerOffer(g, seat, answer as TradeResponse, isDefault);
      return OK_SILENT;
    }
    const start = g.log.length;
    answerOffer(g, seat, answer as TradeResponse, isDefault);
    return { ok: true, events: g.log.slice(start) };
  }
  if (g.stage === STAGE_OVER) return { ok: false, reason: rejection('game_over') };
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n)
    return { ok: false, reason: rejection('bad_seat', `seat ${seat}`) };
  const info = canonicalInfo(answer);
  // Open 1-for-1 offers are most of a random bot's turn answers. The engine's
  // own OFFER_ONE needs only the offer limit and its one card checked (shape,
  // sides and target are known); an offer moves no VP, so no win check.
  if (
    info !== undefined &&
    info.offerGive >= 0 &&
    g.log === null &&
    g.stage === STAGE_TURN &&
    seat === g.current &&
    g.offers < OFFER_LIMIT &&
    g.hand[seat * 5 + info.offerGive] >= 1
  ) {
    g.nextDefault[seat] = 0;
    g.pendingCache = null;
    applyOffer(g, seat, info.counts.a, info.counts.b, -1, null);
    return OK_SILENT;
  }
  const kind = owedKind(g, seat);
  if (kind === null) {
    const simultaneous = g.stage === STAGE_DISCARD || g.stage === STAGE_TRADE;
    const already = simultaneous && ((g.asked & ~g.waiting) >> seat) & 1;
    return { ok: false, reason: rejection(already ? 'already_answered' : 'not_your_decision', `seat ${seat}`) };
  }
  let action: AnyAction;
  let counts: Counts;
  if (info !== undefined && info.kind === kind) {
    // One of the engine's own frozen answers: shape known, counts precomputed.
    action = answer as AnyAction;
    counts = info.counts;
  } else {
    const parsed = parseAnswer(kind, answer);
    if (!parsed.ok)
      return { ok: false, reason: { code: parsed.code, message: `${kind} answer rejected: ${parsed.message}` } };
    action = parsed.action;
    counts = countsOf(kind, action);
  }
  const code = checkAnswer(g, seat, kind, action, counts);
  if (code !== null) return { ok: false, reason: rejection(code, `${kind} ${describe(action)}`) };
  const isDefault = g.nextDefault[seat] === 1 || g.resigned[seat] === 1;
  g.nextDefault[seat] = 0;
  if (!g.log) {
    applyAnswer(g, seat, kind, action, counts, isDefault);
    return OK_SILENT;
  }
  const start = g.log.length;
  applyAnswer(g, seat, kind, action, counts, isDefault);
  return { ok: true, events: g.log.slice(start) };
}

/** The seats that owe an answer to the open offer, as a bitmask; 0 when no offer is open. */
export function offerAnswerers(g: Game): number {
  return g.stage === STAGE_TRADE ? g.waiting : 0;
}

/**
 * Every seat that still owes an answer to the open offer answers at once:
 * those in `accepts` (a seat bitmask) accept, the others reject. The same game
 * and events as each of them submitting ACCEPT or REJECT in seat order, which
 * is what it runs; for loops that drive built-in bots, where these answers are
 * two-thirds of all decisions. Returns how many answers it applied.
 */
export function answerOpenOffer(g: Game, accepts: number): number {
  if (g.stage !== STAGE_TRADE) throw new Error('answerOpenOffer: no offer is open');
  if (g.log === null && g.waiting === g.asked) {
    // Nobody has answered yet and there are no events to write: nothing is
    // buffered, so the offer resolves straight from the accept bits.
    const waiting = g.waiting;
    let n = 0;
    for (let w = waiting; w !== 0; w &= w - 1, n++) g.nextDefault[lowestSeat(w)] = 0;
    g.accepts = accepts & waiting;
    g.waiting = 0;
    g.pendingCache = null;
    resolveOffer(g);
    g.stage = STAGE_TURN;
    return n;
  }
  let n = 0;
  for (let w = g.waiting; w !== 0; w &= w - 1) {
    const seat = lowestSeat(w);
    const isDefault = g.nextDefault[seat] === 1 || g.resigned[seat] === 1;
    g.nextDefault[seat] = 0;
    answerOffer(g, seat, ((accepts >> seat) & 1) === 1 ? ACCEPT : REJECT, isDefault);
    n++;
  }
  return n;
}

/** The spec's default for the seat's pending decision; always legal. Throws if the seat owes nothing. */
export function defaultAction(g: Game, seat: number): AnyAction {
  const kind = owedKind(g, seat);
  if (kind === null) throw new Error(`seat ${seat} owes no decision`);
  return defaultAnswer(g, seat, kind);
}

/**
 * Why a strike happened, for people reading the replay: the rejection code of an illegal answer, and a short message.
 */
export interface StrikeDetail {
  code?: RejectionCode;
  message?: string;
}

/**
 * Records a strike (a `timeout` event). When the seat owes a decision, its
 * next applied answer (the default the caller plays) is flagged `default`.
 */
export function recordStrike(
  g: Game,
  seat: number,
  reason: StrikeReason,
  strikes: number,
  decision: DecisionKind,
  detail?: StrikeDetail,
): GameEvent {
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n) throw new RangeError(`no seat ${seat} in a ${g.n}-seat game`);
  g.strikes[seat] = strikes;
  if (owedKind(g, seat) !== null) g.nextDefault[seat] = 1;
  const data: TimeoutEvent['data'] = { reason, strikes, decision };
  if (detail?.code !== undefined) data.code = detail.code;
  if (detail?.message !== undefined) data.message = String(detail.message);
  const ev: GameEvent = { kind: 'timeout', seat, data };
  g.log?.push(ev);
  return ev;
}

/** Resigns a seat: the caller answers it with defaultAction from now on; it is placed after every other seat. */
export function resignSeat(g: Game, seat: number): GameEvent[] {
  if (!Number.isInteger(seat) || seat < 0 || seat >= g.n) throw new RangeError(`no seat ${seat} in a ${g.n}-seat game`);
  if (g.resigned[seat]) return [];
  g.resigned[seat] = 1;
  const ev: GameEvent = { kind: 'resign', seat, data: { strikes: g.strikes[seat] } };
  g.log?.push(ev);
  return [ev];
}

/** The wall clock ran out: the game ends with no outcome. */
export function abortGame(g: Game): GameEvent[] {
  if (g.stage === STAGE_OVER) return [];
  g.stage = STAGE_OVER;
  g.endReason = 'aborted';
  g.pendingCache = null;
  const ev: GameEvent = { kind: 'end', data: { reason: 'aborted', turns: g.turn } };
  g.log?.push(ev);
  return [ev];
}

export function isOver(g: Game): boolean {
  return g.stage === STAGE_OVER;
}

/** Null until the game ends by a win or the cap (and after an abort). */
export function outcome(g: Game): Outcome | null {
  return g.outcome;
}

/** The full event log so far (empty when the game was created with events off). */
export function gameEvents(g: Game): readonly GameEvent[] {
  return g.log ?? NO_EVENTS;
}

/**
 * Empties the event log of a game the caller is done with (its events already
 * copied or handed on). A long game's log array ends up in the old generation,
 * and a dead old array keeps the young events it points to alive through every
 * minor GC until the next full one; emptied, they go with the next minor GC.
 */
export function releaseEvents(g: Game): void {
  if (g.log) g.log.length = 0;
}

/** 0 during setup, then 1..200. */
export function currentTurn(g: Game): number {
  return g.turn;
}

/** The seat whose turn it is (the placing seat during setup). */
export function currentSeat(g: Game): number {
  return g.stage === STAGE_SETUP ? setupSeat(g) : g.current;
}
