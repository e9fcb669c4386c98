// Trading: bank trades at the seat's best rate, and offers to other seats.
// An offer is put to every opponent (open) or one seat (targeted); all asked
// seats answer at once, and the first accepter in seat order after the
// offerer that can cover the `get` side takes it.

import { RESOURCES } from '../board';
import type { Game } from '../state';
import type { RejectionCode } from '../types';
import { OFFER_LIMIT, STAGE_TRADE, emit, toCounts } from '../state';
import { bankRate } from './pieces';

export function checkBankTrade(g: Game, seat: number, give: number, get: number): RejectionCode | null {
  if (give === get) return 'bad_trade';
  return g.hand[seat * 5 + give] >= bankRate(g, seat, give) ? null : 'cannot_afford';
}

export function applyBankTrade(g: Game, seat: number, give: number, get: number): void {
  const rate = bankRate(g, seat, give);
  g.hand[seat * 5 + give] -= rate;
  g.hand[seat * 5 + get]++;
  if (g.log) emit(g, 'trade', seat, { from: seat, to: 'bank', give: { [RESOURCES[give]]: rate }, get: { [RESOURCES[get]]: 1 } });
}

/** give/get: five counts each; to: -1 for an open offer. */
export function checkOffer(g: Game, seat: number, give: ArrayLike<number>, get: ArrayLike<number>, to: number): RejectionCode | null {
  if (g.stage === STAGE_TRADE) return 'trade_already_open';
  if (g.offers >= OFFER_LIMIT) return 'offer_limit';
  let tg = 0, tt = 0;
  for (let r = 0; r < 5; r++) {
    tg += give[r];
    tt += get[r];
    if (give[r] > 0 && get[r] > 0) return 'bad_offer';
  }
  if (tg === 0 || tt === 0) return 'offer_empty';
  if (to !== -1 && (to === seat || to >= g.n)) return 'bad_target';
  for (let r = 0; r < 5; r++) if (give[r] > g.hand[seat * 5 + r]) return 'offer_uncovered';
  return null;
}

export function applyOffer(g: Game, seat: number, give: ArrayLike<number>, get: ArrayLike<number>, to: number, talk: string | null): void {
  g.offers++;
  g.stage = STAGE_TRADE;
  g.tradeFrom = seat;
  g.tradeTo = to;
  g.tradeTalk = talk;
  for (let r = 0; r < 5; r++) { g.tradeGive[r] = give[r]; g.tradeGet[r] = get[r]; }
  for (let s = 0; s < g.n; s++) {
    g.asked[s] = s !== seat && (to === -1 || to === s) ? 1 : 0;
    g.answered[s] = 0;
    g.accepts[s] = 0;
  }
}

/** The accepter holds the whole `get` side right now. */
export function canCoverGet(g: Game, seat: number): boolean {
  for (let r = 0; r < 5; r++) if (g.tradeGet[r] > g.hand[seat * 5 + r]) return false;
  return true;
}

/** Resolves the offer once every asked seat has answered. Returns the seat that traded, or -1. */
export function resolveOffer(g: Game): number {
  const from = g.tradeFrom;
  let taker = -1;
  for (let i = 1; i < g.n && taker === -1; i++) {
    const s = (from + i) % g.n;
    if (g.asked[s] && g.accepts[s] && canCoverGet(g, s)) taker = s;
  }
  if (taker !== -1) {
    for (let r = 0; r < 5; r++) {
      g.hand[from * 5 + r] += g.tradeGet[r] - g.tradeGive[r];
      g.hand[taker * 5 + r] += g.tradeGive[r] - g.tradeGet[r];
    }
  }
  if (g.log) {
    emit(g, 'trade', from, taker === -1
      ? { from, accepted: false }
      : { from, to: taker, give: toCounts(g.tradeGive), get: toCounts(g.tradeGet) });
  }
  for (let s = 0; s < g.n; s++) { g.asked[s] = 0; g.answered[s] = 0; g.accepts[s] = 0; }
  g.tradeFrom = -1;
  g.tradeTo = -1;
  g.tradeTalk = null;
  return taker;
}
