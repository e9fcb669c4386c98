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
  if (g.log)
    emit(g, 'trade', seat, { from: seat, to: 'bank', give: { [RESOURCES[give]]: rate }, get: { [RESOURCES[get]]: 1 } });
}

/** give/get: five counts each; to: -1 for an open offer. */
export function checkOffer(
  g: Game,
  seat: number,
  give: ArrayLike<number>,
  get: ArrayLike<number>,
  to: number,
): RejectionCode | null {
  if (g.stage === STAGE_TRADE) return 'trade_already_open';
  if (g.offers >= OFFER_LIMIT) return 'offer_limit';
  let tg = 0,
    tt = 0;
  for (let r = 0; r < 5; r++) {
    const a = give[r],
      b = get[r];
    tg += a;
    tt += b;
    if (a > 0 && b > 0) return 'bad_offer';
  }
  if (tg === 0 || tt === 0) return 'offer_empty';
  if (to !== -1 && (to === seat || to >= g.n)) return 'bad_target';
  const hand = g.hand,
    o = seat * 5;
  for (let r = 0; r < 5; r++) if (give[r] > hand[o + r]) return 'offer_uncovered';
  return null;
}

export function applyOffer(
  g: Game,
  seat: number,
  give: ArrayLike<number>,
  get: ArrayLike<number>,
  to: number,
  talk: string | null,
): void {
  g.offers++;
  g.stage = STAGE_TRADE;
  g.tradeFrom = seat;
  g.tradeTo = to;
  g.tradeTalk = talk;
  const tGive = g.tradeGive,
    tGet = g.tradeGet;
  for (let r = 0; r < 5; r++) {
    tGive[r] = give[r];
    tGet[r] = get[r];
  }
  const asked = to === -1 ? ((1 << g.n) - 1) & ~(1 << seat) : 1 << to;
  g.asked = asked;
  g.waiting = asked;
  g.accepts = 0;
  g.bufDefault = 0;
}

/** The accepter holds the whole `get` side right now. */
export function canCoverGet(g: Game, seat: number): boolean {
  // Unrolled with the arrays in locals: V8 reloads and rechecks fields in loops.
  const get = g.tradeGet,
    hand = g.hand,
    o = seat * 5;
  return (
    get[0] <= hand[o] &&
    get[1] <= hand[o + 1] &&
    get[2] <= hand[o + 2] &&
    get[3] <= hand[o + 3] &&
    get[4] <= hand[o + 4]
  );
}

/** Resolves the offer once every asked seat has answered. Returns the seat that traded, or -1. */
export function resolveOffer(g: Game): number {
  const from = g.tradeFrom,
    n = g.n,
    accepts = g.accepts & g.asked;
  let taker = -1;
  for (let i = 1; i < n && taker === -1 && accepts !== 0; i++) {
    const s = (from + i) % n;
    if (((accepts >> s) & 1) === 1 && canCoverGet(g, s)) taker = s;
  }
  if (taker !== -1) {
    const hand = g.hand,
      give = g.tradeGive,
      get = g.tradeGet;
    for (let r = 0; r < 5; r++) {
      const d = get[r] - give[r];
      hand[from * 5 + r] += d;
      hand[taker * 5 + r] -= d;
    }
  }
  if (g.log) {
    emit(
      g,
      'trade',
      from,
      taker === -1
        ? { from, accepted: false }
        : { from, to: taker, give: toCounts(g.tradeGive), get: toCounts(g.tradeGet) },
    );
  }
  g.asked = 0;
  g.waiting = 0;
  g.accepts = 0;
  g.bufDefault = 0;
  g.tradeFrom = -1;
  g.tradeTo = -1;
  g.tradeTalk = null;
  return taker;
}
