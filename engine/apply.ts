// Dispatch from a shape-checked answer to the rule that judges it and the
// rule that applies it. Simultaneous answers (discards, trade responses) are
// buffered here and applied in seat order once the set is complete.

import { RESOURCES } from './board';
import { checkWin, endTurn, startTurn } from './flow';
import { applyBandit, checkBandit } from './rules/bandit';
import { applyBuyDev, applyCity, applyRoad, applySettlement, checkBuyDev, checkCity, checkRoad, checkSettlement } from './rules/build';
import { applyEmbargo, applyKnight, applyRoadworks, applyWindfall, checkEmbargo, checkKnight, checkRoadworks, checkWindfall } from './rules/dev';
import { checkDiscard } from './rules/discard';
import { applySetup, checkSetup } from './rules/setup';
import { applyBankTrade, applyOffer, checkBankTrade, checkOffer, resolveOffer } from './rules/trade';
import { countsInto } from './shape';
import type { Counts } from './canon';
import type { Game } from './state';
import { STAGE_BANDIT, STAGE_TURN, addTalk, emit, toCounts } from './state';
import type { AnyAction, BanditAction, DecisionKind, DiscardAction, ResourceName, SetupAction, TradeResponse, TurnAction } from './types';

// Reused by countsOf: an answer's counts are read by its check and apply, then dropped.
const scratchA = new Int16Array(5);
const scratchB = new Int16Array(5);
const SCRATCH: Counts = { a: scratchA, b: scratchB };

/** Converts the ResourceCounts of a parsed (non-canonical) answer into five-slot arrays, valid until the next call. */
export function countsOf(kind: DecisionKind, action: AnyAction): Counts {
  if (kind === 'discard') countsInto((action as DiscardAction).cards, scratchA);
  else if (kind === 'turn') {
    const a = action as TurnAction;
    if (a.type === 'play_windfall') countsInto(a.take, scratchA);
    else if (a.type === 'offer_trade') { countsInto(a.give, scratchA); countsInto(a.get, scratchB); }
  }
  return SCRATCH;
}

function res(name: ResourceName): number {
  return RESOURCES.indexOf(name);
}

function checkTurn(g: Game, seat: number, a: TurnAction, c: Counts): string | null {
  switch (a.type) {
    case 'build_road': return checkRoad(g, seat, a.edge);
    case 'build_settlement': return checkSettlement(g, seat, a.vertex);
    case 'build_city': return checkCity(g, seat, a.vertex);
    case 'buy_dev': return checkBuyDev(g, seat);
    case 'play_knight': return checkKnight(g, seat, a.hex, a.victim ?? -1);
    case 'play_roadworks': return checkRoadworks(g, seat, a.edges);
    case 'play_windfall': return checkWindfall(g, seat, c.a);
    case 'play_embargo': return checkEmbargo(g, seat);
    case 'bank_trade': return checkBankTrade(g, seat, res(a.give), res(a.get));
    case 'offer_trade': return checkOffer(g, seat, c.a, c.b, a.to ?? -1);
    case 'end_turn': return null;
  }
}

/** Why the answer is illegal right now (a stable code), or null. The caller has checked the seat owes `kind`. */
export function checkAnswer(g: Game, seat: number, kind: DecisionKind, action: AnyAction, c: Counts): string | null {
  switch (kind) {
    case 'setup': {
      const a = action as SetupAction;
      return checkSetup(g, a.settlement, a.road);
    }
    case 'turn': return checkTurn(g, seat, action as TurnAction, c);
    case 'discard': return checkDiscard(g, seat, c.a);
    case 'bandit': {
      const a = action as BanditAction;
      return checkBandit(g, seat, a.hex, a.victim ?? -1);
    }
    case 'trade': return null; // accepting without cover is legal; such an accepter is skipped at resolution
  }
}

function emitAction(g: Game, seat: number, kind: DecisionKind, action: AnyAction, isDefault: boolean): void {
  if (g.log) emit(g, 'action', seat, isDefault ? { kind, action, default: true } : { kind, action });
}

function applyTurn(g: Game, seat: number, a: TurnAction, c: Counts): void {
  switch (a.type) {
    case 'build_road': applyRoad(g, seat, a.edge, false); break;
    case 'build_settlement': applySettlement(g, seat, a.vertex); break;
    case 'build_city': applyCity(g, seat, a.vertex); break;
    case 'buy_dev': applyBuyDev(g, seat); break;
    case 'play_knight': applyKnight(g, seat, a.hex, a.victim ?? -1); break;
    case 'play_roadworks': applyRoadworks(g, seat, a.edges); break;
    case 'play_windfall': applyWindfall(g, seat, c.a); break;
    case 'play_embargo': applyEmbargo(g, seat, res(a.resource)); break;
    case 'bank_trade': applyBankTrade(g, seat, res(a.give), res(a.get)); break;
    case 'offer_trade':
      if (a.talk !== undefined) addTalk(g, seat, a.talk);
      applyOffer(g, seat, c.a, c.b, a.to ?? -1, a.talk ?? null);
      break;
    case 'end_turn':
      if (a.talk !== undefined) addTalk(g, seat, a.talk);
      endTurn(g);
      return; // the next turn's roll already ran its own win check
  }
  checkWin(g);
}

/** Applies a legal answer (c: its counts, as given to checkAnswer). isDefault marks answers the engine played for the seat (strikes, resignation). */
export function applyAnswer(g: Game, seat: number, kind: DecisionKind, action: AnyAction, c: Counts, isDefault: boolean): void {
  g.pendingCache = null;
  switch (kind) {
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
      if (allAnswered(g, g.owed)) completeDiscards(g);
      return;
    }
    case 'trade':
      g.accepts[seat] = (action as TradeResponse).accept ? 1 : 0;
      buffer(g, seat, action, isDefault);
      if (allAnswered(g, g.asked)) completeTrade(g);
      return;
  }
}

function buffer(g: Game, seat: number, action: AnyAction, isDefault: boolean): void {
  g.answered[seat] = 1;
  g.bufAction[seat] = action;
  g.bufDefault[seat] = isDefault ? 1 : 0;
}

function allAnswered(g: Game, owes: ArrayLike<number>): boolean {
  for (let s = 0; s < g.n; s++) if (owes[s] && !g.answered[s]) return false;
  return true;
}

function completeDiscards(g: Game): void {
  for (let s = 0; s < g.n; s++) {
    if (!g.owed[s]) continue;
    emitAction(g, s, 'discard', g.bufAction[s]!, g.bufDefault[s] === 1);
    for (let r = 0; r < 5; r++) g.hand[s * 5 + r] -= g.discardBuf[s * 5 + r];
    if (g.log) emit(g, 'discard', s, { cards: toCounts(g.discardBuf, s * 5) });
    g.owed[s] = 0;
    g.answered[s] = 0;
    g.bufAction[s] = null;
  }
  g.stage = STAGE_BANDIT;
}

function completeTrade(g: Game): void {
  for (let s = 0; s < g.n; s++) {
    if (!g.asked[s]) continue;
    const a = g.bufAction[s] as TradeResponse;
    emitAction(g, s, 'trade', a, g.bufDefault[s] === 1);
    if (a.talk !== undefined) addTalk(g, s, a.talk);
    g.bufAction[s] = null;
  }
  resolveOffer(g);
  g.stage = STAGE_TURN;
}
