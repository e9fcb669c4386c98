// Determinization for lookahead bots: a copy of the game whose hidden facts
// are redrawn from what one seat may know, so a search can play it forward
// without peeking. Adapted from test/engine/hidden-twin.ts (engine code may
// not import tests). Redrawn: opponents' hand compositions (totals kept),
// opponents' dev card identities (old/new counts kept) together with the
// deck order, the dice and steal streams and the seed. Kept: the board, the
// seat's own hand and dev cards, every public count.
//
// Only facts the seat may know are read. Where a hidden array is read at
// all (the unseen dev cards), only its multiset is used, and that multiset
// is fixed by public facts (the 25 cards minus the seat's own and those
// played), so the result is a function of the seat's knowledge and `rng`.

import { VERTEX_HEXES } from '../board';
import { ACCEPT, REJECT } from '../canon';
import { canCoverGet } from '../rules/trade';
import { nextU32, randInt, shuffle } from '../rng';
import type { Game } from '../state';
import { STAGE_DISCARD, STAGE_TRADE, cloneGame, handTotal, recycleGame } from '../state';
import { PIPS } from './pips';

/** Per-resource weights of a seat's likely hand: 1 + its production pips (cities twice), from the public board. */
function handWeights(g: Game, s: number, out: Int32Array): number {
  out.fill(1);
  for (let v = 0; v < g.townOwner.length; v++) {
    if (g.townOwner[v] !== s) continue;
    const mult = g.isCity[v] ? 2 : 1;
    for (let i = v * 3; i < v * 3 + 3; i++) {
      const h = VERTEX_HEXES[i];
      if (h !== -1 && g.hexToken[h] !== 0) out[g.hexRes[h]] += mult * PIPS[g.hexToken[h]];
    }
  }
  return out[0] + out[1] + out[2] + out[3] + out[4];
}

// Scratch buffers, refilled by every call: a search determinizes many times per decision.
const WEIGHTS = new Int32Array(5);
const UNSEEN = new Int32Array(5);
/** The unseen dev cards: at most the 25 of the deck. */
const POOL = new Int32Array(25);

function weighted(rng: Uint32Array, w: Int32Array, total: number): number {
  let x = randInt(rng, total);
  for (let r = 0; r < 4; r++) {
    if (x < w[r]) return r;
    x -= w[r];
  }
  return 4;
}

/**
 * A copy of g (no log) with every fact hidden from `seat` redrawn from `rng`,
 * built on the arrays of `into` (a game of the same seat count the caller gives up) when given.
 * Not for a discard with opponents' answers already buffered (those cards are
 * hidden and bound); callers answer discards without searching.
 */
export function determinize(g: Game, seat: number, rng: Uint32Array, into?: Game): Game {
  if (g.stage === STAGE_DISCARD && (g.asked & ~g.waiting & ~(1 << seat)) !== 0) {
    throw new RangeError("determinize: opponents' discards are buffered");
  }
  const t = into && into.n === g.n ? recycleGame(into, g) : cloneGame(g);
  (t as { seed: string }).seed = 'determinized';
  for (let i = 0; i < 4; i++) t.diceRng[i] = nextU32(rng);
  for (let i = 0; i < 4; i++) t.stealRng[i] = nextU32(rng);

  // Hands: the total is public; the composition follows the seat's production.
  const w = WEIGHTS;
  for (let s = 0; s < t.n; s++) {
    if (s === seat) continue;
    const o = s * 5;
    let total = handTotal(t, s);
    t.hand.fill(0, o, o + 5);
    if (t.stage === STAGE_TRADE && t.tradeFrom === s) {
      // An open offer's give side is public and must stay covered.
      for (let r = 0; r < 5; r++) {
        t.hand[o + r] = t.tradeGive[r];
        total -= t.tradeGive[r];
      }
    }
    const sum = handWeights(t, s, w);
    for (let i = 0; i < total; i++) t.hand[o + weighted(rng, w, sum)]++;
  }

  // Dev cards: the unseen multiset, in canonical order, shuffled and dealt again.
  const unseen = UNSEEN.fill(0);
  for (let s = 0; s < t.n; s++) {
    if (s === seat) continue;
    for (let c = 0; c < 5; c++) unseen[c] += t.devOld[s * 5 + c] + t.devNew[s * 5 + c];
  }
  for (let i = t.deckPos; i < t.deck.length; i++) unseen[t.deck[i]]++;
  let size = 0;
  for (let c = 0; c < 5; c++) for (let k = 0; k < unseen[c]; k++) POOL[size++] = c;
  const pool = POOL.subarray(0, size);
  shuffle(rng, pool);
  let k = 0;
  for (let s = 0; s < t.n; s++) {
    if (s === seat) continue;
    let old = 0,
      fresh = 0;
    for (let c = 0; c < 5; c++) {
      old += t.devOld[s * 5 + c];
      fresh += t.devNew[s * 5 + c];
    }
    t.devOld.fill(0, s * 5, s * 5 + 5);
    t.devNew.fill(0, s * 5, s * 5 + 5);
    for (let i = 0; i < old; i++) t.devOld[s * 5 + pool[k++]]++;
    for (let i = 0; i < fresh; i++) t.devNew[s * 5 + pool[k++]]++;
  }
  for (let i = t.deckPos; i < t.deck.length; i++) t.deck[i] = pool[k++];

  // Opponents' trade answers given but not yet revealed: redrawn among those they can give.
  if (t.stage === STAGE_TRADE) {
    t.accepts = 0;
    for (let s = 0; s < t.n; s++) {
      if (s === seat || !(((t.asked & ~t.waiting) >> s) & 1)) continue;
      const accept = canCoverGet(t, s) && randInt(rng, 2) === 0;
      if (accept) t.accepts |= 1 << s;
      t.bufAction[s] = accept ? ACCEPT : REJECT;
    }
  }
  t.pendingCache = null;
  return t;
}
