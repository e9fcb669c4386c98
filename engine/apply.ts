// Dispatch from a shape-checked answer to the rule that judges it and the
// rule that applies it. Simultaneous answers (discards, trade responses) are
// buffered here and applied in seat order once the set is complete.

import { RESOURCES } from './board';
import { checkWin, endTurn, startTurn } from './flow';
import { applyBandit, checkBandit } from './rules/bandit';
import {
  applyBuyDev,
  applyCity,
  applyRoad,
  applySettlement,
  checkBuyDev,
  checkCity,
  checkRoad,
  checkSettlement,
} from './rules/build';
import {
  applyEmbargo,
  applyKnight,
  applyRoadworks,
  applyWindfall,
  checkEmbargo,
  checkKnight,
  checkRoadworks,
  checkWindfall,
} from './rules/dev';
import { checkDiscard } from './rules/discard';
import { applySetup, checkSetup } from './rules/setup';
import { applyBankTrade, applyOffer, checkBankTrade, checkOffer, resolveOffer } from './rules/trade';
import { ACCEPT, REJECT } from './canon';
import { PENDING_TRADE } from './pending';
import { countsInto } from './shape';
import type { Counts } from './canon';
import type { Game } from './state';
import { STAGE_BANDIT, STAGE_TURN, addTalk, emit, toCounts } from './state';
import type {
  ActionEventData,
  AnyAction,
  BanditAction,
  DecisionKind,
  DiscardAction,
  RejectionCode,
  ResourceName,
  SetupAction,
  TradeResponse,
  TurnAction,
  TurnActionType,
} from './types';

// Reused by countsOf: an answer's counts are read by its check and apply, then dropped.
const scratchA = new Int16Array(5);
const scratchB = new Int16Array(5);
const scratch: { type: TurnActionType | null; a: Int16Array; b: Int16Array } = { type: null, a: scratchA, b: scratchB };

/** Prepares a parsed (non-canonical) answer for the rules (see Counts); valid until the next call. */
export function countsOf(kind: DecisionKind, action: AnyAction): Counts {
  scratch.type = null;
  if (kind === 'discard') countsInto((action as DiscardAction).cards, scratchA);
  else if (kind === 'turn') {
    const a = action as TurnAction;
    scratch.type = a.type;
    if (a.type === 'play_windfall') countsInto(a.take, scratchA);
    else if (a.type === 'offer_trade') {
      countsInto(a.give, scratchA);
      countsInto(a.get, scratchB);
    }
  }
  return scratch;
}

function res(name: ResourceName): number {
  return RESOURCES.indexOf(name);
}

/**
 * The turn action of the given type (the switches below go by Counts.type, which TypeScript cannot link to the answer).
 */
type Of<K extends TurnActionType> = Extract<TurnAction, { type: K }>;

// The switches below list the commonest answers first (offers, end of turn,
// trade responses in bot play): string cases are compared in order.
function checkTurn(g: Game, seat: number, a: TurnAction, c: Counts): RejectionCode | null {
  switch (c.type) {
    case 'offer_trade':
      return checkOffer(g, seat, c.a, c.b, (a as Of<'offer_trade'>).to ?? -1);
    case 'end_turn':
      return null;
    case 'build_road':
      return checkRoad(g, seat, (a as Of<'build_road'>).edge);
    case 'build_settlement':
      return checkSettlement(g, seat, (a as Of<'build_settlement'>).vertex);
    case 'build_city':
      return checkCity(g, seat, (a as Of<'build_city'>).vertex);
    case 'buy_dev':
      return checkBuyDev(g, seat);
    case 'play_knight': {
      const k = a as Of<'play_knight'>;
      return checkKnight(g, seat, k.hex, k.victim ?? -1);
    }
    case 'play_roadworks':
      return checkRoadworks(g, seat, (a as Of<'play_roadworks'>).edges);
    case 'play_windfall':
      return checkWindfall(g, seat, c.a);
    case 'play_embargo':
      return checkEmbargo(g, seat);
    case 'bank_trade': {
      const t = a as Of<'bank_trade'>;
      return checkBankTrade(g, seat, res(t.give), res(t.get));
    }
    default:
      throw new Error(`unprepared turn answer: ${String(c.type)}`);
  }
}

/** Why the answer is illegal right now (a stable code), or null. The caller has checked the seat owes `kind`. */
export function checkAnswer(
  g: Game,
  seat: number,
  kind: DecisionKind,
  action: AnyAction,
  c: Counts,
): RejectionCode | null {
  switch (kind) {
    case 'trade':
      return null; // accepting without cover is legal; such an accepter is skipped at resolution
    case 'setup': {
      const a = action as SetupAction;
      return checkSetup(g, a.settlement, a.road);
    }
    case 'turn':
      return checkTurn(g, seat, action as TurnAction, c);
    case 'discard':
      return checkDiscard(g, seat, c.a);
    case 'bandit': {
      const a = action as BanditAction;
      return checkBandit(g, seat, a.hex, a.victim ?? -1);
    }
  }
}

function emitAction(g: Game, seat: number, kind: DecisionKind, action: AnyAction, isDefault: boolean): void {
  // kind and action belong together (the seat owed `kind`); TypeScript cannot see that here.
  if (g.log)
    emit(g, 'action', seat, (isDefault ? { kind, action, default: true } : { kind, action }) as ActionEventData);
}

function applyTurn(g: Game, seat: number, a: TurnAction, c: Counts): void {
  switch (c.type) {
    case 'offer_trade': {
      const o = a as Of<'offer_trade'>;
      if (o.talk !== undefined) addTalk(g, seat, o.talk);
      applyOffer(g, seat, c.a, c.b, o.to ?? -1, o.talk ?? null);
      break;
    }
    case 'end_turn': {
      const talk = (a as Of<'end_turn'>).talk;
      if (talk !== undefined) addTalk(g, seat, talk);
      endTurn(g);
      return; // the next turn's roll already ran its own win check
    }
    case 'build_road':
      applyRoad(g, seat, (a as Of<'build_road'>).edge, false);
      break;
    case 'build_settlement':
      applySettlement(g, seat, (a as Of<'build_settlement'>).vertex);
      break;
    case 'build_city':
      applyCity(g, seat, (a as Of<'build_city'>).vertex);
      break;
    case 'buy_dev':
      applyBuyDev(g, seat);
      break;
    case 'play_knight': {
      const k = a as Of<'play_knight'>;
      applyKnight(g, seat, k.hex, k.victim ?? -1);
      break;
    }
    case 'play_roadworks':
      applyRoadworks(g, seat, (a as Of<'play_roadworks'>).edges);
      break;
    case 'play_windfall':
      applyWindfall(g, seat, c.a);
      break;
    case 'play_embargo':
      applyEmbargo(g, seat, res((a as Of<'play_embargo'>).resource));
      break;
    case 'bank_trade': {
      const t = a as Of<'bank_trade'>;
      applyBankTrade(g, seat, res(t.give), res(t.get));
      break;
    }
  }
  checkWin(g);
}

/**
 * Applies a legal answer (c: its counts, as given to checkAnswer). isDefault marks answers the engine played for the
 * seat (strikes, resignation).
 */
export function applyAnswer(
  g: Game,
  seat: number,
  kind: DecisionKind,
  action: AnyAction,
  c: Counts,
  isDefault: boolean,
): void {
  g.pendingCache = null;
  switch (kind) {
    case 'trade':
      answerOffer(g, seat, action as TradeResponse, isDefault);
      return;
    case 'setup': {
      emitAction(g, seat, kind, action, isDefault);
      const a = action as SetupAction;
      if (applySetup(g, a.settlement, a.road)) {
        g.turn = 1;
        g.current = 0;
        startTurn(g);
      }
      return;
    }
    case 'turn':
      emitAction(g, seat, kind, action, isDefault);
      applyTurn(g, seat, action as TurnAction, c);
      return;
    case 'bandit': {
      emitAction(g, seat, kind, action, isDefault);
      const a = action as BanditAction;
      if (a.talk !== undefined) addTalk(g, seat, a.talk);
      applyBandit(g, seat, a.hex, a.victim ?? -1);
      g.stage = STAGE_TURN;
      checkWin(g);
      return;
    }
    case 'discard': {
      for (let r = 0; r < 5; r++) g.discardBuf[seat * 5 + r] = c.a[r];
      buffer(g, seat, action, isDefault);
      if (g.waiting === 0) completeDiscards(g);
      return;
    }
  }
}

/** Buffers a (legal) answer to the open offer; the last one resolves it. */
export function answerOffer(g: Game, seat: number, action: TradeResponse, isDefault: boolean): void {
  if (action.accept) g.accepts |= 1 << seat;
  buffer(g, seat, action, isDefault);
  // The seats still to answer are what pendingDecisions will list next.
  if (g.waiting !== 0) {
    g.pendingCache = PENDING_TRADE[g.waiting];
    return;
  }
  g.pendingCache = null;
  completeTrade(g);
}

function buffer(g: Game, seat: number, action: AnyAction, isDefault: boolean): void {
  g.waiting &= ~(1 << seat);
  g.bufAction[seat] = action;
  if (isDefault) g.bufDefault |= 1 << seat;
}

function completeDiscards(g: Game): void {
  for (let s = 0; s < g.n; s++) {
    if (!((g.asked >> s) & 1)) continue;
    emitAction(g, s, 'discard', g.bufAction[s]!, ((g.bufDefault >> s) & 1) === 1);
    for (let r = 0; r < 5; r++) g.hand[s * 5 + r] -= g.discardBuf[s * 5 + r];
    if (g.log) emit(g, 'discard', s, { cards: toCounts(g.discardBuf, s * 5) });
    g.owed[s] = 0;
    g.bufAction[s] = null;
  }
  g.asked = 0;
  g.bufDefault = 0;
  g.stage = STAGE_BANDIT;
}

function completeTrade(g: Game): void {
  const asked = g.asked,
    buf = g.bufAction;
  for (let s = 0, n = g.n; s < n; s++) {
    if (((asked >> s) & 1) === 0) continue;
    const a = buf[s] as TradeResponse;
    if (g.log) emitAction(g, s, 'trade', a, ((g.bufDefault >> s) & 1) === 1);
    // The engine's own ACCEPT / REJECT carry no talk.
    if (a !== ACCEPT && a !== REJECT && a.talk !== undefined) addTalk(g, s, a.talk);
    buf[s] = null;
  }
  resolveOffer(g);
  g.stage = STAGE_TURN;
}
