// The legal-action generator: every legal answer for a seat's pending
// decision, as a finite canonical set. Offers are limited to open 1-for-1
// offers and discards to a handful of variants, since the full sets are huge.
// It reads only what the seat may know, so bots can call it, and
// legalActionsFromView runs the same generator on a Game rebuilt from a view.

import { EDGE_COUNT, EDGE_VERTICES, HEX_COUNT, HEX_KINDS, RESOURCES, VERTEX_COUNT, VERTEX_EDGES } from './board';
import {
  ACCEPT,
  BANDIT,
  BANK_TRADE,
  BUILD_CITY,
  BUILD_ROAD,
  BUILD_SETTLEMENT,
  BUY_DEV,
  EMBARGO as EMBARGO_ACTIONS,
  END_TURN,
  KNIGHT as KNIGHT_ACTIONS,
  OFFER_ONE,
  REJECT,
  ROADWORKS_ONE,
  SETUP,
  WINDFALL as WINDFALL_ACTIONS,
  discardOf,
  roadworksPair,
} from './canon';
import { owedKind } from './game';
import { nextU32, randInt } from './rng';
import { defaultDiscard } from './rules/discard';
import { distanceOk, placeRoad, placeSettlement, roadPlaceCode } from './rules/pieces';
import { canCoverGet } from './rules/trade';
import type { Game } from './state';
import {
  EMBARGO,
  KNIGHT,
  OFFER_LIMIT,
  ROAD_LIMIT,
  ROADWORKS,
  TOWN_LIMIT,
  STAGE_BANDIT,
  STAGE_DISCARD,
  STAGE_SETUP,
  STAGE_TRADE,
  STAGE_TURN,
  WINDFALL,
  createGame,
  handTotal,
  roadCount,
  townCount,
} from './state';
import type { AnyAction, DecisionKind, PioneersView, ResourceCounts } from './types';
import { DEV_CARDS } from './types';

// The generator appends to `target` at `count`; fillLegalActions resets both.
// Module-level so the helpers below need no extra parameters; the generator
// never re-enters itself.
let target: AnyAction[] = [];
let count = 0;

function add(a: AnyAction): void {
  target[count++] = a;
}

/**
 * Writes the legal answers for the seat's pending decision into `out` from
 * index 0 and returns how many there are (entries past that are stale). For
 * hot loops: reusing `out` means generating allocates nothing.
 */
export function fillLegalActions(g: Game, seat: number, out: AnyAction[]): number {
  return fillFor(g, seat, owedKind(g, seat), out);
}

function fillFor(g: Game, seat: number, kind: DecisionKind | null, out: AnyAction[]): number {
  target = out;
  count = 0;
  switch (kind) {
    case 'trade':
      add(REJECT);
      if (canCoverGet(g, seat)) add(ACCEPT);
      break;
    case null:
      break;
    case 'setup':
      legalSetup(g);
      break;
    case 'turn':
      legalTurn(g, seat);
      break;
    case 'discard':
      legalDiscards(g, seat);
      break;
    case 'bandit':
      legalBandit(g, seat, BANDIT);
      break;
  }
  return count;
}

/** Every legal answer for the seat's pending decision, as a new array; empty when it owes none. */
export function legalActions(g: Game, seat: number): AnyAction[] {
  const out: AnyAction[] = [];
  fillLegalActions(g, seat, out);
  return out;
}

function legalSetup(g: Game): void {
  setupCount(g);
  for (let v = 0; v < VERTEX_COUNT; v++) {
    const m = setupEdges[v];
    for (let i = 0; i < 3; i++) if ((m >> i) & 1) add(SETUP[v * 3 + i]!);
  }
}

/**
 * Per vertex, a mask of the edges a setup road may take there (none where a settlement may not go); for legalSetup and
 * setupAt.
 */
const setupEdges = new Uint8Array(VERTEX_COUNT);

/** How many placements legalSetup lists. */
function setupCount(g: Game): number {
  let n = 0;
  for (let v = 0; v < VERTEX_COUNT; v++) {
    let m = 0;
    if (distanceOk(g, v)) {
      for (let i = 0; i < 3; i++) {
        const e = VERTEX_EDGES[v * 3 + i];
        if (e !== -1 && g.roadOwner[e] === -1) m |= 1 << i;
      }
    }
    setupEdges[v] = m;
    n += BITS[m];
  }
  return n;
}

/** The k-th placement in legalSetup's order, from the masks setupCount left. */
function setupAt(g: Game, k: number): AnyAction {
  for (let v = 0; v < VERTEX_COUNT; v++) {
    const m = setupEdges[v];
    if (k >= BITS[m]) {
      k -= BITS[m];
      continue;
    }
    for (let i = 0; i < 3; i++) if ((m >> i) & 1 && k-- === 0) return SETUP[v * 3 + i]!;
  }
  throw new Error('setupAt: index out of range');
}

/** Bandit moves (also used for knights): every other hex, with no victim or each opponent with a town there. */
function legalBandit(g: Game, seat: number, table: readonly AnyAction[]): void {
  for (let h = 0; h < HEX_COUNT; h++) {
    if (h === g.bandit) continue;
    add(table[h * 5]);
    let mask = g.hexTowns[h] & ~(1 << seat); // opponents with a town on h
    for (let s = 0; mask !== 0; s++, mask >>= 1) if (mask & 1) add(table[h * 5 + s + 1]);
  }
}

function legalTurn(g: Game, seat: number): void {
  legalTurnMoves(g, seat);
  const gives = tradeGives(g, seat);
  const bank = gives & 31,
    offer = gives >> 5;
  // The trades are most of the list: written through locals rather than add(),
  // which reads and writes the module-level cursor for every entry.
  const out = target;
  let c = count;
  for (let give = 0; give < 5; give++) {
    if (!(bank & (1 << give))) continue;
    for (let get = 0; get < 5; get++) if (get !== give) out[c++] = BANK_TRADE[give * 5 + get];
  }
  for (let give = 0; give < 5; give++) {
    if (!(offer & (1 << give))) continue;
    for (let get = 0; get < 5; get++) if (get !== give) out[c++] = OFFER_ONE[give * 5 + get];
  }
  count = c;
}

/**
 * The trades the seat may make, as two masks of give resources, each give
 * standing for four trades (one per other resource): bits 0..4 bank trades,
 * bits 5..9 open 1-for-1 offers. One pass over the hand for both.
 */
function tradeGives(g: Game, seat: number): number {
  const h = g.hand,
    o = seat * 5;
  const rate = g.portMask[seat] * 5; // into RATES
  let mask = 0;
  // Unrolled, the hand in locals: this runs for every turn decision.
  const b = h[o],
    l = h[o + 1],
    w = h[o + 2],
    gr = h[o + 3],
    or = h[o + 4];
  if (b >= RATES[rate]) mask |= 1;
  if (l >= RATES[rate + 1]) mask |= 2;
  if (w >= RATES[rate + 2]) mask |= 4;
  if (gr >= RATES[rate + 3]) mask |= 8;
  if (or >= RATES[rate + 4]) mask |= 16;
  if (g.offers < OFFER_LIMIT) {
    if (b >= 1) mask |= 32;
    if (l >= 1) mask |= 64;
    if (w >= 1) mask |= 128;
    if (gr >= 1) mask |= 256;
    if (or >= 1) mask |= 512;
  }
  return mask;
}

/** portMask bit of a generic 3:1 port (bits 0..4 are the 2:1 resource ports). */
const GENERIC_PORT = 1 << 5;

/** RATES[portMask * 5 + r]: the bank rate for giving r with those ports (as bankRate). */
const RATES = (() => {
  const out = new Int8Array(64 * 5);
  for (let m = 0; m < 64; m++) {
    for (let r = 0; r < 5; r++) out[m * 5 + r] = m & (1 << r) ? 2 : m & GENERIC_PORT ? 3 : 4;
  }
  return out;
})();

/** Four entries per set bit: the k-th (0-based) of give's four trades, gets in resource order. */
function pickTrade(table: readonly AnyAction[], mask: number, k: number): AnyAction {
  for (let give = 0; give < 5; give++) {
    if (!(mask & (1 << give))) continue;
    if (k < 4) return table[give * 5 + (k < give ? k : k + 1)];
    k -= 4;
  }
  throw new Error('pickTrade: index out of range');
}

const BITS = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5];

/**
 * A random answer to the open offer the seat owes one to: true to accept.
 * The same choice and draw as randomLegalAction: the list is [REJECT] or
 * [REJECT, ACCEPT], drawn from without building it (randInt(rng, 1) is one
 * draw too).
 */
export function randomResponse(g: Game, seat: number, rng: Uint32Array): boolean {
  if (!canCoverGet(g, seat)) {
    nextU32(rng);
    return false;
  }
  return randInt(rng, 2) !== 0;
}

/**
 * Exactly `out[randInt(rng, n)]` after `n = fillLegalActions(g, seat, out)`
 * (same choice, same draws), or null when the seat owes nothing; for random
 * play. On a turn it lists only the moves before the trades, which are most
 * of the list, and finds a drawn trade from its index without listing them.
 */
export function randomLegalAction(g: Game, seat: number, out: AnyAction[], rng: Uint32Array): AnyAction | null {
  // Answers to open offers are two-thirds of random play.
  if (g.stage === STAGE_TRADE && ((g.waiting >> seat) & 1) === 1) return randomResponse(g, seat, rng) ? ACCEPT : REJECT;
  const kind = owedKind(g, seat);
  // Bandit moves, discards and setup placements are drawn by index too,
  // without listing: the bandit's from counts per hex, a discard from its
  // counts (made an action only once chosen), a placement from a count of
  // free edges at free spots.
  if (kind === 'bandit') return banditAt(g, seat, randInt(rng, banditCount(g, seat)));
  if (kind === 'discard') return listedDiscard(randInt(rng, listDiscards(g, seat)));
  if (kind === 'setup') return setupAt(g, randInt(rng, setupCount(g)));
  if (kind !== 'turn') {
    const n = fillFor(g, seat, kind, out);
    return n === 0 ? null : out[randInt(rng, n)];
  }
  const moves = turnSegments(g, seat);
  const gives = tradeGives(g, seat);
  const bank = gives & 31,
    offer = gives >> 5;
  const banks = 4 * BITS[bank];
  const k = randInt(rng, moves + banks + 4 * BITS[offer]);
  if (k < moves) return segmentAt(k);
  return k < moves + banks ? pickTrade(BANK_TRADE, bank, k - moves) : pickTrade(OFFER_ONE, offer, k - moves - banks);
}

// A turn's moves other than trades come in segments, in list order: end,
// roads, settlements, cities, buy, knights, roadworks, windfall, embargo.
// The board-dependent segments (roads, settlements, cities, knights,
// roadworks) are cached per seat until the board changes, since a turn asks
// for them again after every offer; the hand only decides which segments
// count. turnSegments lists them into segList / segLen.
const END_LIST: readonly AnyAction[] = [END_TURN];
const BUY_LIST: readonly AnyAction[] = [BUY_DEV];
const WINDFALL_LIST: readonly AnyAction[] = (() => {
  const out: AnyAction[] = [];
  for (let a = 0; a < 5; a++) for (let b = a; b < 5; b++) out.push(WINDFALL_ACTIONS[a * 5 + b]);
  return out;
})();
const EMBARGO_LIST: readonly AnyAction[] = EMBARGO_ACTIONS.slice();
const segList: Array<readonly AnyAction[]> = new Array(9).fill(END_LIST);
const segLen = new Int32Array(9);
let segCount = 0;

const CAT_ROADS = 0,
  CAT_SETTLEMENTS = 1,
  CAT_CITIES = 2,
  CAT_KNIGHTS = 3,
  CAT_ROADWORKS = 4;
const CATS = 5;
/**
 * The game the cache describes (a clone is another game), and per seat and category the board print it was listed at.
 */
let cacheGame: Game | null = null;
const cacheAt = new Int32Array(4 * CATS).fill(-1);
const cacheList: AnyAction[][] = Array.from({ length: 4 * CATS }, () => []);
const cacheLen = new Int32Array(4 * CATS);

// Board prints, per category, of only what that category reads, so that (say)
// a bandit move does not relist every seat's roads. Pieces are only ever
// added (roads and towns left only fall; a city keeps the town count), so
// these totals never repeat within a game. Set by turnSegments.
/** Roads and towns: road, settlement and roadworks spots. */
let printPieces = 0;
/** Towns and cities: city spots. */
let printCities = 0;
/** Towns and the bandit's hex: knight moves. */
let printBandit = 0;

function boardPrints(g: Game): void {
  let roads = 0,
    towns = 0,
    cities = 0;
  for (let s = 0; s < g.n; s++) {
    roads += g.roadsLeft[s];
    towns += townCount(g, s);
    cities += g.citiesLeft[s];
  }
  printPieces = roads + 61 * towns;
  printCities = cities + 17 * towns;
  printBandit = g.bandit + 19 * towns;
}

// Roads and settlement spots also keep the edge or vertex of each entry and a
// print of the seat's own pieces: other seats' pieces can only take spots
// away (a road fills an edge, a town blocks a road end or breaks the distance
// rule), so when only they changed, the list is filtered, not relisted.
const cacheIds: Int8Array[] = Array.from({ length: 4 * CATS }, () => new Int8Array(EDGE_COUNT));
const ownAt = new Int32Array(4 * CATS).fill(-1);
/** Where pushRoadEdges and pushSettlementVertices write the ids of what they list. */
let idTarget = cacheIds[0];

function ownPrint(g: Game, seat: number): number {
  return g.roadsLeft[seat] + 61 * townCount(g, seat);
}

/** Drops the entries other seats' pieces made illegal, keeping the order. */
function filterCached(g: Game, seat: number, cat: number, slot: number): void {
  const list = cacheList[slot],
    ids = cacheIds[slot];
  let kept = 0;
  for (let i = 0, n = cacheLen[slot]; i < n; i++) {
    const id = ids[i];
    const ok = cat === CAT_ROADS ? roadPlaceCode(g, seat, id) === null : distanceOk(g, id);
    if (!ok) continue;
    ids[kept] = id;
    list[kept++] = list[i];
  }
  cacheLen[slot] = kept;
}

/** Forgets what the generator remembers about g: for a Game object refilled in place (refillGame). */
export function forgetGame(g: Game): void {
  if (cacheGame === g) cacheGame = null;
}

/** The cached segment of one category, listed on first use for this board. */
function cached(g: Game, seat: number, cat: number, print: number): number {
  const slot = seat * CATS + cat;
  if (cacheAt[slot] === print) return slot;
  if (cat === CAT_ROADS || cat === CAT_SETTLEMENTS) {
    const own = ownPrint(g, seat);
    if (ownAt[slot] === own) filterCached(g, seat, cat, slot);
    else relist(g, seat, cat, slot);
    ownAt[slot] = own;
  } else {
    relist(g, seat, cat, slot);
  }
  cacheAt[slot] = print;
  return slot;
}

function relist(g: Game, seat: number, cat: number, slot: number): void {
  const saveTarget = target,
    saveCount = count;
  target = cacheList[slot];
  idTarget = cacheIds[slot];
  count = 0;
  switch (cat) {
    case CAT_ROADS:
      pushRoadEdges(g, seat);
      break;
    case CAT_SETTLEMENTS:
      pushSettlementVertices(g, seat);
      break;
    case CAT_CITIES:
      pushCityVertices(g, seat);
      break;
    case CAT_KNIGHTS:
      legalBandit(g, seat, KNIGHT_ACTIONS);
      break;
    case CAT_ROADWORKS:
      legalRoadworks(g, seat);
      break;
  }
  cacheLen[slot] = count;
  target = saveTarget;
  count = saveCount;
}

function pushSegment(list: readonly AnyAction[], len: number): void {
  if (len === 0) return;
  segList[segCount] = list;
  segLen[segCount++] = len;
}

function pushCached(g: Game, seat: number, cat: number, print: number): void {
  const slot = cached(g, seat, cat, print);
  pushSegment(cacheList[slot], cacheLen[slot]);
}

// The last turnSegments result, for the seat's next decision of the same
// turn: after an offer nobody took, or one that left what the seat can afford
// as it was, the segments are the same.
let memoSeat = -1,
  memoAfford = 0,
  memoPieces = 0,
  memoCities = 0,
  memoBandit = 0,
  memoMoves = 0;

const AFFORD_ROAD = 1,
  AFFORD_SETTLEMENT = 2,
  AFFORD_CITY = 4,
  AFFORD_BUY = 8;
const PLAY_KNIGHT = 16,
  PLAY_ROADWORKS = 32,
  PLAY_WINDFALL = 64,
  PLAY_EMBARGO = 128;

/** Which of the turn's segments (other than end and the trades) the seat may use now, as AFFORD_* and PLAY_* bits. */
function affordable(g: Game, seat: number): number {
  const o = seat * 5;
  const h = g.hand;
  const brick = h[o],
    lumber = h[o + 1],
    wool = h[o + 2],
    grain = h[o + 3],
    ore = h[o + 4];
  let m = 0;
  // Costs spelled out (see COST_* in state.ts): this runs for every turn decision.
  if (brick >= 1 && lumber >= 1) {
    if (g.roadsLeft[seat] > 0) m |= AFFORD_ROAD;
    if (wool >= 1 && grain >= 1 && g.settlementsLeft[seat] > 0) m |= AFFORD_SETTLEMENT;
  }
  if (grain >= 2 && ore >= 3 && g.citiesLeft[seat] > 0) m |= AFFORD_CITY;
  if (wool >= 1 && grain >= 1 && ore >= 1 && g.deckPos < g.deck.length) m |= AFFORD_BUY;
  if (!g.devPlayed) {
    const d = g.devOld;
    if (d[o + KNIGHT] > 0) m |= PLAY_KNIGHT;
    if (d[o + ROADWORKS] > 0 && g.roadsLeft[seat] > 0) m |= PLAY_ROADWORKS;
    if (d[o + WINDFALL] > 0) m |= PLAY_WINDFALL;
    if (d[o + EMBARGO] > 0) m |= PLAY_EMBARGO;
  }
  return m;
}

/** The turn's answers before the trades, as segments: end, builds, dev purchase and plays. Returns how many. */
function turnSegments(g: Game, seat: number): number {
  if (cacheGame !== g) {
    cacheGame = g;
    cacheAt.fill(-1);
    ownAt.fill(-1);
    memoSeat = -1;
  }
  boardPrints(g);
  const m = affordable(g, seat);
  if (
    seat === memoSeat &&
    m === memoAfford &&
    printPieces === memoPieces &&
    printCities === memoCities &&
    printBandit === memoBandit
  ) {
    return memoMoves;
  }
  segCount = 0;
  pushSegment(END_LIST, 1);
  if (m & AFFORD_ROAD) pushCached(g, seat, CAT_ROADS, printPieces);
  if (m & AFFORD_SETTLEMENT) pushCached(g, seat, CAT_SETTLEMENTS, printPieces);
  if (m & AFFORD_CITY) pushCached(g, seat, CAT_CITIES, printCities);
  if (m & AFFORD_BUY) pushSegment(BUY_LIST, 1);
  if (m & PLAY_KNIGHT) pushCached(g, seat, CAT_KNIGHTS, printBandit);
  if (m & PLAY_ROADWORKS) pushCached(g, seat, CAT_ROADWORKS, printPieces);
  if (m & PLAY_WINDFALL) pushSegment(WINDFALL_LIST, WINDFALL_LIST.length);
  if (m & PLAY_EMBARGO) pushSegment(EMBARGO_LIST, EMBARGO_LIST.length);
  let moves = 0;
  for (let i = 0; i < segCount; i++) moves += segLen[i];
  memoSeat = seat;
  memoAfford = m;
  memoPieces = printPieces;
  memoCities = printCities;
  memoBandit = printBandit;
  memoMoves = moves;
  return moves;
}

/** Appends the turn's answers before the trades to the list being generated. */
function legalTurnMoves(g: Game, seat: number): void {
  turnSegments(g, seat);
  const out = target;
  let c = count;
  for (let i = 0; i < segCount; i++) {
    const list = segList[i];
    for (let j = 0, n = segLen[i]; j < n; j++) out[c++] = list[j];
  }
  count = c;
}

/** The k-th turn move (k below what turnSegments returned). */
function segmentAt(k: number): AnyAction {
  for (let i = 0; ; i++) {
    if (k < segLen[i]) return segList[i][k];
    k -= segLen[i];
  }
}

const vertexMark = new Uint8Array(VERTEX_COUNT);

const edgeMark = new Uint8Array(EDGE_COUNT);
/**
 * Roads the seat may build, in edge order: the free edges at the ends of its
 * roads, except ends holding an opponent's town (every own town touches an
 * own road, so towns need no separate pass). Same result as checkRoad on all
 * 72 edges, without the scan.
 */
function pushRoadEdges(g: Game, seat: number): void {
  let lo = EDGE_COUNT,
    hi = -1;
  for (let i = seat * ROAD_LIMIT, last = i + roadCount(g, seat); i < last; i++) {
    const e = g.roadList[i];
    for (let end = 0; end < 2; end++) {
      const v = EDGE_VERTICES[e * 2 + end];
      const owner = g.townOwner[v];
      if (owner !== -1 && owner !== seat) continue;
      for (let i = v * 3; i < v * 3 + 3; i++) {
        const f = VERTEX_EDGES[i];
        if (f === -1 || g.roadOwner[f] !== -1) continue;
        edgeMark[f] = 1;
        if (f < lo) lo = f;
        if (f > hi) hi = f;
      }
    }
  }
  for (let f = lo; f <= hi; f++) {
    if (edgeMark[f]) {
      edgeMark[f] = 0;
      idTarget[count] = f;
      add(BUILD_ROAD[f]);
    }
  }
}

/** Settlement spots in vertex order: ends of own roads that pass the distance rule. */
function pushSettlementVertices(g: Game, seat: number): void {
  let lo = VERTEX_COUNT,
    hi = -1;
  for (let i = seat * ROAD_LIMIT, last = i + roadCount(g, seat); i < last; i++) {
    const e = g.roadList[i];
    for (let end = 0; end < 2; end++) {
      const v = EDGE_VERTICES[e * 2 + end];
      if (vertexMark[v] || !distanceOk(g, v)) continue;
      vertexMark[v] = 1;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  for (let v = lo; v <= hi; v++) {
    if (vertexMark[v]) {
      vertexMark[v] = 0;
      idTarget[count] = v;
      add(BUILD_SETTLEMENT[v]);
    }
  }
}

/** Own settlements (not yet cities), in vertex order. */
function pushCityVertices(g: Game, seat: number): void {
  let lo = VERTEX_COUNT,
    hi = -1;
  for (let i = seat * TOWN_LIMIT, last = i + townCount(g, seat); i < last; i++) {
    const v = g.townList[i];
    if (g.isCity[v]) continue;
    vertexMark[v] = 1;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (let v = lo; v <= hi; v++) {
    if (vertexMark[v]) {
      vertexMark[v] = 0;
      add(BUILD_CITY[v]);
    }
  }
}

/** Single roads, and each unordered pair once in an order that is legal. */
const firsts = new Int8Array(EDGE_COUNT);
const isFirst = new Uint8Array(EDGE_COUNT);
const isSecond = new Uint8Array(EDGE_COUNT);

/**
 * Single roads, and each unordered pair once in an order that is legal: for
 * each legal first road a, the second roads b in edge order that are legal
 * once a is placed, i.e. the other legal first roads (listed only with the
 * lower edge first) and the free edges at a's open ends.
 */
function legalRoadworks(g: Game, seat: number): void {
  let nf = 0;
  for (let e = 0; e < EDGE_COUNT; e++) {
    if (roadPlaceCode(g, seat, e) !== null) continue;
    firsts[nf++] = e;
    isFirst[e] = 1;
    add(ROADWORKS_ONE[e]);
  }
  if (g.roadsLeft[seat] >= 2) {
    for (let i = 0; i < nf; i++) {
      const a = firsts[i];
      for (let j = i + 1; j < nf; j++) isSecond[firsts[j]] = 1;
      for (let end = 0; end < 2; end++) {
        const w = EDGE_VERTICES[a * 2 + end];
        const owner = g.townOwner[w];
        if (owner !== -1 && owner !== seat) continue; // a road may not continue through an opponent's town
        for (let k = w * 3; k < w * 3 + 3; k++) {
          const b = VERTEX_EDGES[k];
          if (b !== -1 && b !== a && g.roadOwner[b] === -1 && !isFirst[b]) isSecond[b] = 1;
        }
      }
      for (let b = 0; b < EDGE_COUNT; b++) {
        if (isSecond[b]) {
          isSecond[b] = 0;
          add(roadworksPair(a, b));
        }
      }
    }
  }
  for (let i = 0; i < nf; i++) isFirst[firsts[i]] = 0;
}

const discardCandidate = new Int16Array(5);
const discardsListed = new Int16Array(6 * 5);

/** Records the discard unless an equal one was listed; returns the new count. */
function listDiscardOnce(cards: Int16Array, listed: number): number {
  for (let i = 0; i < listed; i++) {
    let same = true;
    for (let r = 0; r < 5 && same; r++) same = discardsListed[i * 5 + r] === cards[r];
    if (same) return listed;
  }
  for (let r = 0; r < 5; r++) discardsListed[listed * 5 + r] = cards[r];
  return listed + 1;
}

/**
 * Lists into discardsListed, as counts, the default discard plus, for each
 * resource, "take as much as possible from it first, then the default
 * order", each once. Returns how many.
 */
function listDiscards(g: Game, seat: number): number {
  const cards = discardCandidate;
  defaultDiscard(g, seat, cards);
  let listed = listDiscardOnce(cards, 0);
  for (let first = 0; first < 5; first++) {
    cards.fill(0);
    let left = g.owed[seat];
    for (let k = 0; k < 5 && left > 0; k++) {
      const r = (first + k) % 5;
      const take = Math.min(left, g.hand[seat * 5 + r]);
      cards[r] = take;
      left -= take;
    }
    listed = listDiscardOnce(cards, listed);
  }
  return listed;
}

/** The k-th discard listDiscards listed, as its canonical action. */
function listedDiscard(k: number): AnyAction {
  const cards = discardCandidate;
  for (let r = 0; r < 5; r++) cards[r] = discardsListed[k * 5 + r];
  return discardOf(cards);
}

function legalDiscards(g: Game, seat: number): void {
  const n = listDiscards(g, seat);
  for (let i = 0; i < n; i++) add(listedDiscard(i));
}

/** How many moves legalBandit lists for the bandit. */
function banditCount(g: Game, seat: number): number {
  const others = ~(1 << seat) & 15;
  let n = 0;
  for (let h = 0; h < HEX_COUNT; h++) if (h !== g.bandit) n += 1 + BITS[g.hexTowns[h] & others];
  return n;
}

/** The k-th bandit move in legalBandit's order. */
function banditAt(g: Game, seat: number, k: number): AnyAction {
  for (let h = 0; h < HEX_COUNT; h++) {
    if (h === g.bandit) continue;
    if (k-- === 0) return BANDIT[h * 5];
    let mask = g.hexTowns[h] & ~(1 << seat);
    for (let s = 0; mask !== 0; s++, mask >>= 1) if ((mask & 1) === 1 && k-- === 0) return BANDIT[h * 5 + s + 1];
  }
  throw new Error('banditAt: index out of range');
}

export interface ViewMemo {
  /** Whether the seat already played a dev card this turn (the view does not say). */
  devPlayedThisTurn: boolean;
  /** Offers the seat made this turn (the view does not count them). */
  offersThisTurn: number;
}

function countOf(c: ResourceCounts, r: number): number {
  return c[RESOURCES[r]] ?? 0;
}

/**
 * Rebuilds the parts of a Game that a seat's view determines, with the seat
 * owing `kind`. Opponents' hands are unknown (left empty); nothing the
 * generator reads for this seat depends on them.
 */
export function gameFromView(view: PioneersView, kind: DecisionKind, memo: ViewMemo): Game {
  const g = createGame('view', view.seatCount, false);
  const seat = view.seat;
  g.hexToken.fill(0);
  g.tokenHexes.fill(-1);
  for (const h of view.board.hexes) {
    g.hexRes[h.id] = HEX_KINDS.indexOf(h.resource);
    g.hexToken[h.id] = h.token ?? 0;
  }
  g.bandit = view.board.bandit;
  for (const r of view.roads) {
    placeRoad(g, r.seat, r.edge);
  }
  for (const t of view.towns) {
    placeSettlement(g, t.seat, t.vertex);
    if (t.city) {
      g.isCity[t.vertex] = 1;
      g.citiesLeft[t.seat]--;
      g.settlementsLeft[t.seat]++;
    }
  }
  for (let r = 0; r < 5; r++) g.hand[seat * 5 + r] = countOf(view.hand, r);
  for (const c of view.devCards) g.devOld[seat * 5 + DEV_CARDS.indexOf(c)]++;
  for (const c of view.devBoughtThisTurn) g.devNew[seat * 5 + DEV_CARDS.indexOf(c)]++;
  g.deckPos = g.deck.length - view.deckRemaining;
  g.turn = view.turn;
  g.devPlayed = memo.devPlayedThisTurn;
  g.offers = memo.offersThisTurn;
  g.current = seat;
  switch (kind) {
    case 'setup':
      g.stage = STAGE_SETUP;
      // Each setup step places one town; pick the step whose snake position is this seat.
      g.setupStep = view.towns.length;
      break;
    case 'turn':
      g.stage = STAGE_TURN;
      break;
    case 'bandit':
      g.stage = STAGE_BANDIT;
      break;
    case 'discard': {
      g.stage = STAGE_DISCARD;
      const total = handTotal(g, seat);
      g.owed[seat] = total > 7 ? total >> 1 : 0;
      if (total > 7) {
        g.asked = 1 << seat;
        g.waiting = 1 << seat;
      }
      break;
    }
    case 'trade': {
      g.stage = STAGE_TRADE;
      const t = view.openTrade;
      if (t) {
        g.tradeFrom = t.from;
        g.tradeTo = t.to ?? -1;
        for (let r = 0; r < 5; r++) {
          g.tradeGive[r] = countOf(t.give, r);
          g.tradeGet[r] = countOf(t.get, r);
        }
      }
      g.asked = 1 << seat;
      g.waiting = 1 << seat;
      break;
    }
  }
  return g;
}

/** The same generator for bot authors who hold only a view and their own memo. */
export function legalActionsFromView(view: PioneersView, kind: DecisionKind, memo: ViewMemo): AnyAction[] {
  const g = gameFromView(view, kind, memo);
  return legalActions(g, view.seat);
}
