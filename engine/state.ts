// The game state: one mutable object of flat typed arrays and small scalars,
// created from a seed. Cheap to copy, no allocation to read.

import { DESERT, EDGE_COUNT, HEX_COUNT, HEX_VERTICES, RESOURCES, VERTEX_COUNT } from './board';
import { shuffle, stream } from './rng';
import type {
  AnyAction,
  EventOf,
  GameEvent,
  GameEventKind,
  Outcome,
  PendingDecision,
  ResourceCounts,
  TableTalk,
} from './types';
import { RULES_VERSION } from './rules-version';

export { RULES_VERSION };

// Stages of the state machine. `phase` in views derives from these.
export const STAGE_SETUP = 0;
export const STAGE_TURN = 1;
export const STAGE_DISCARD = 2;
export const STAGE_BANDIT = 3;
export const STAGE_TRADE = 4;
export const STAGE_OVER = 5;

// Dev card indices, in the order of DEV_CARDS in types.ts.
export const KNIGHT = 0;
export const VICTORY_POINT = 1;
export const ROADWORKS = 2;
export const WINDFALL = 3;
export const EMBARGO = 4;
export const DECK_COUNTS = [14, 5, 2, 2, 2];

export const MAX_TURNS = 200;
export const WIN_VP = 10;
export const ROAD_LIMIT = 15;
export const SETTLEMENT_LIMIT = 5;
export const CITY_LIMIT = 4;
/** Vertices a seat can occupy: every settlement, including those upgraded to cities. */
export const TOWN_LIMIT = SETTLEMENT_LIMIT + CITY_LIMIT;
export const OFFER_LIMIT = 5;
export const TALK_LIMIT = 240;
export const TALK_LOG_SIZE = 20;
/** Awards: largest army needs this many knights, longest road this many roads; each is worth AWARD_VP. */
export const LARGEST_ARMY_MIN = 3;
export const LONGEST_ROAD_MIN = 5;
export const AWARD_VP = 2;
export const SETTLEMENT_VP = 1;
export const CITY_VP = 2;
/** After a 7, a seat holding more than this many cards discards half, rounded down. */
export const DISCARD_ABOVE = 7;
/** Bank trade rates: base, with any generic port, with the resource's own port. */
export const BANK_RATE = 4;
export const GENERIC_PORT_RATE = 3;
export const RESOURCE_PORT_RATE = 2;

// Costs as [brick, lumber, wool, grain, ore].
export const COST_ROAD = [1, 1, 0, 0, 0];
export const COST_SETTLEMENT = [1, 1, 1, 1, 0];
export const COST_CITY = [0, 0, 0, 2, 3];
export const COST_DEV = [0, 0, 1, 1, 1];

export const BOARD_RESOURCES = [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, DESERT];
export const TOKENS = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12];

export interface Game {
  readonly seed: string;
  /** Seat count, 3 or 4. */
  readonly n: number;
  /** The event log, or null when events are off (simulation speed mode). */
  readonly log: GameEvent[] | null;

  // Board
  readonly hexRes: Int8Array; // 0..4 resource, 5 desert
  readonly hexToken: Int8Array; // 0 on the desert
  /** TOKEN_HEXES[t * 2 + k]: up to two hexes carrying token t, -1 padded. */
  readonly tokenHexes: Int8Array;
  bandit: number;

  // Pieces
  readonly roadOwner: Int8Array; // per edge, -1 empty
  readonly townOwner: Int8Array; // per vertex, -1 empty
  readonly isCity: Uint8Array; // per vertex
  /** Per hex: bitmask of the seats with a settlement or city on one of its corners. */
  readonly hexTowns: Uint8Array;
  /** Each seat's roads in building order: roadList[seat * 15 + i], i < 15 - roadsLeft[seat]. */
  readonly roadList: Int8Array;
  /** Each seat's towns in building order: townList[seat * 9 + i], i < townCount(g, seat). */
  readonly townList: Int8Array;

  // Per seat (index seat * 5 + resource / card where two-dimensional)
  readonly hand: Int16Array;
  readonly devOld: Int8Array; // cards held since before this turn
  readonly devNew: Int8Array; // cards bought this turn
  readonly knights: Int8Array;
  readonly roadsLeft: Int8Array;
  readonly settlementsLeft: Int8Array;
  readonly citiesLeft: Int8Array;
  readonly roadLen: Int8Array;
  /** Bits 0..4: 2:1 port of that resource; bit 5: a generic 3:1 port. */
  readonly portMask: Uint8Array;
  readonly strikes: Int8Array;
  readonly resigned: Uint8Array;
  /** Set by recordStrike: the seat's next applied answer is recorded as a default. */
  readonly nextDefault: Uint8Array;

  // Deck and hidden randomness
  readonly deck: Int8Array;
  deckPos: number;
  readonly diceRng: Uint32Array;
  readonly stealRng: Uint32Array;

  // Turn state
  stage: number;
  setupStep: number;
  current: number;
  turn: number;
  die1: number;
  die2: number;
  devPlayed: boolean;
  offers: number;

  // Simultaneous decisions (discards, trade responses): buffered per seat until all are in.
  // Seat sets are bitmasks (bit s = seat s): plain numbers read faster than typed arrays.
  readonly owed: Int16Array; // discard owed per seat, 0 = none
  /** Seats that owe the current simultaneous decision (asked to trade, or owing a discard). */
  asked: number;
  /** Those of `asked` that have not answered yet. */
  waiting: number;
  readonly discardBuf: Int16Array;
  /** Seats whose buffered trade answer accepts. */
  accepts: number;
  readonly bufAction: Array<AnyAction | null>;
  /** Seats whose buffered answer was played for them (a default). */
  bufDefault: number;

  // Open trade offer (valid while stage === STAGE_TRADE)
  tradeFrom: number;
  tradeTo: number; // -1 for an open offer
  readonly tradeGive: Int16Array;
  readonly tradeGet: Int16Array;
  tradeTalk: string | null;

  talkLog: TableTalk[];
  largestArmy: number; // -1 nobody
  longestRoad: number;

  winner: number;
  endReason: 'win' | 'cap' | 'aborted' | null;
  outcome: Outcome | null;
  pendingCache: readonly PendingDecision[] | null;
}

export function createGame(seed: string, seatCount: number, events: boolean): Game {
  if (seatCount !== 3 && seatCount !== 4) throw new RangeError(`seatCount must be 3 or 4, got ${seatCount}`);
  if (typeof seed !== 'string') throw new TypeError('seed must be a string');
  const n = seatCount;

  const boardRng = stream(seed, 'board');
  const hexRes = Int8Array.from(BOARD_RESOURCES);
  shuffle(boardRng, hexRes);
  const tokens = TOKENS.slice();
  shuffle(boardRng, tokens);
  const hexToken = new Int8Array(HEX_COUNT);
  const tokenHexes = new Int8Array(13 * 2).fill(-1);
  let bandit = 0;
  for (let h = 0, k = 0; h < HEX_COUNT; h++) {
    if (hexRes[h] === DESERT) {
      bandit = h;
      continue;
    }
    const t = tokens[k++];
    hexToken[h] = t;
    tokenHexes[t * 2 + (tokenHexes[t * 2] === -1 ? 0 : 1)] = h;
  }

  const deck = new Int8Array(25);
  for (let c = 0, k = 0; c < 5; c++) for (let i = 0; i < DECK_COUNTS[c]; i++) deck[k++] = c;
  shuffle(stream(seed, 'deck'), deck);

  const fresh: Game = {
    seed,
    n,
    log: null,
    hexRes,
    hexToken,
    tokenHexes,
    bandit,
    roadOwner: new Int8Array(EDGE_COUNT).fill(-1),
    townOwner: new Int8Array(VERTEX_COUNT).fill(-1),
    isCity: new Uint8Array(VERTEX_COUNT),
    hexTowns: new Uint8Array(HEX_COUNT),
    roadList: new Int8Array(n * ROAD_LIMIT).fill(-1),
    townList: new Int8Array(n * TOWN_LIMIT).fill(-1),
    hand: new Int16Array(n * 5),
    devOld: new Int8Array(n * 5),
    devNew: new Int8Array(n * 5),
    knights: new Int8Array(n),
    roadsLeft: new Int8Array(n).fill(ROAD_LIMIT),
    settlementsLeft: new Int8Array(n).fill(SETTLEMENT_LIMIT),
    citiesLeft: new Int8Array(n).fill(CITY_LIMIT),
    roadLen: new Int8Array(n),
    portMask: new Uint8Array(n),
    strikes: new Int8Array(n),
    resigned: new Uint8Array(n),
    nextDefault: new Uint8Array(n),
    deck,
    deckPos: 0,
    diceRng: stream(seed, 'dice'),
    stealRng: stream(seed, 'steal'),
    stage: STAGE_SETUP,
    setupStep: 0,
    current: 0,
    turn: 0,
    die1: 0,
    die2: 0,
    devPlayed: false,
    offers: 0,
    owed: new Int16Array(n),
    asked: 0,
    waiting: 0,
    discardBuf: new Int16Array(n * 5),
    accepts: 0,
    bufAction: new Array<AnyAction | null>(n).fill(null),
    bufDefault: 0,
    tradeFrom: -1,
    tradeTo: -1,
    tradeGive: new Int16Array(5),
    tradeGet: new Int16Array(5),
    tradeTalk: null,
    talkLog: [],
    largestArmy: -1,
    longestRoad: -1,
    winner: -1,
    endReason: null,
    outcome: null,
    pendingCache: null,
  };
  return assemble(fresh, false, events ? [] : null);
}

/**
 * The one place a Game object literal is built, for new games and copies
 * alike: every Game then has the same hidden class, and the engine's property
 * reads stay monomorphic (a copy built key by key would slow every game in
 * the process down).
 */
function assemble(s: Game, copy: boolean, log: GameEvent[] | null): Game {
  const c = <T extends Int8Array | Uint8Array | Int16Array | Uint32Array>(x: T): T => (copy ? (x.slice() as T) : x);
  return {
    seed: s.seed,
    n: s.n,
    log,
    hexRes: c(s.hexRes),
    hexToken: c(s.hexToken),
    tokenHexes: c(s.tokenHexes),
    bandit: s.bandit,
    roadOwner: c(s.roadOwner),
    townOwner: c(s.townOwner),
    isCity: c(s.isCity),
    hexTowns: c(s.hexTowns),
    roadList: c(s.roadList),
    townList: c(s.townList),
    hand: c(s.hand),
    devOld: c(s.devOld),
    devNew: c(s.devNew),
    knights: c(s.knights),
    roadsLeft: c(s.roadsLeft),
    settlementsLeft: c(s.settlementsLeft),
    citiesLeft: c(s.citiesLeft),
    roadLen: c(s.roadLen),
    portMask: c(s.portMask),
    strikes: c(s.strikes),
    resigned: c(s.resigned),
    nextDefault: c(s.nextDefault),
    deck: c(s.deck),
    deckPos: s.deckPos,
    diceRng: c(s.diceRng),
    stealRng: c(s.stealRng),
    stage: s.stage,
    setupStep: s.setupStep,
    current: s.current,
    turn: s.turn,
    die1: s.die1,
    die2: s.die2,
    devPlayed: s.devPlayed,
    offers: s.offers,
    owed: c(s.owed),
    asked: s.asked,
    waiting: s.waiting,
    discardBuf: c(s.discardBuf),
    accepts: s.accepts,
    bufAction: copy ? s.bufAction.slice() : s.bufAction,
    bufDefault: s.bufDefault,
    tradeFrom: s.tradeFrom,
    tradeTo: s.tradeTo,
    tradeGive: c(s.tradeGive),
    tradeGet: c(s.tradeGet),
    tradeTalk: s.tradeTalk,
    talkLog: copy ? s.talkLog.slice() : s.talkLog,
    largestArmy: s.largestArmy,
    longestRoad: s.longestRoad,
    winner: s.winner,
    endReason: s.endReason,
    outcome:
      copy && s.outcome
        ? { ...s.outcome, placements: s.outcome.placements.slice(), vp: s.outcome.vp.slice() }
        : s.outcome,
    pendingCache: s.pendingCache,
  };
}

/** Appends an event when the log is on. Call sites guard with `if (g.log)` to skip building `data` at all. */
export function emit<K extends GameEventKind>(
  g: Game,
  kind: K,
  seat: EventOf<K>['seat'],
  data: EventOf<K>['data'],
): void {
  if (!g.log) return;
  // Key order kind, seat, data, as in every record.
  const ev = (seat === undefined ? { kind, data } : { kind, seat, data }) as GameEvent;
  g.log.push(ev);
}

/** Roads the seat has on the board. */
export function roadCount(g: Game, seat: number): number {
  return ROAD_LIMIT - g.roadsLeft[seat];
}

/** Vertices the seat occupies (settlements and cities). */
export function townCount(g: Game, seat: number): number {
  return SETTLEMENT_LIMIT - g.settlementsLeft[seat] + CITY_LIMIT - g.citiesLeft[seat];
}

export function handTotal(g: Game, seat: number): number {
  const o = seat * 5;
  const h = g.hand;
  return h[o] + h[o + 1] + h[o + 2] + h[o + 3] + h[o + 4];
}

export function devTotal(g: Game, seat: number): number {
  let t = 0;
  for (let c = 0; c < 5; c++) t += g.devOld[seat * 5 + c] + g.devNew[seat * 5 + c];
  return t;
}

export function canAfford(g: Game, seat: number, cost: readonly number[]): boolean {
  const o = seat * 5;
  for (let r = 0; r < 5; r++) if (g.hand[o + r] < cost[r]) return false;
  return true;
}

export function pay(g: Game, seat: number, cost: readonly number[]): void {
  const o = seat * 5;
  for (let r = 0; r < 5; r++) g.hand[o + r] -= cost[r];
}

/** Public VP: towns and awards. Hidden VP cards excluded. */
export function publicVp(g: Game, seat: number): number {
  const settlements = SETTLEMENT_LIMIT - g.settlementsLeft[seat];
  const cities = CITY_LIMIT - g.citiesLeft[seat];
  return (
    SETTLEMENT_VP * settlements +
    CITY_VP * cities +
    (g.largestArmy === seat ? AWARD_VP : 0) +
    (g.longestRoad === seat ? AWARD_VP : 0)
  );
}

/** True VP: public VP plus hidden victory_point cards. */
export function trueVp(g: Game, seat: number): number {
  return publicVp(g, seat) + g.devOld[seat * 5 + VICTORY_POINT] + g.devNew[seat * 5 + VICTORY_POINT];
}

/** Seat owning the current setup placement (snake order). */
export function setupSeat(g: Game): number {
  return g.setupStep < g.n ? g.setupStep : 2 * g.n - 1 - g.setupStep;
}

/** ResourceCounts with only the non-zero entries, in resource order. */
export function toCounts(arr: ArrayLike<number>, offset = 0): ResourceCounts {
  const out: ResourceCounts = {};
  for (let r = 0; r < 5; r++) if (arr[offset + r] !== 0) out[RESOURCES[r]] = arr[offset + r];
  return out;
}

export function hexVertex(h: number, k: number): number {
  return HEX_VERTICES[h * 6 + k];
}

/** Appends a talk entry to the log kept in views (last 20) and emits a `talk` event. */
export function addTalk(g: Game, seat: number, message: string): void {
  g.talkLog.push({ seat, message, turn: g.turn });
  if (g.talkLog.length > TALK_LOG_SIZE) g.talkLog.shift();
  if (g.log) emit(g, 'talk', seat, { message });
}

/**
 * A deep copy of the state. The copy's log is null (events off) unless
 * keepLog is set. Note: a copy carries the hidden state too (deck order,
 * dice stream); a bot that looks ahead must not peek at it.
 */
export function cloneGame(g: Game, keepLog = false): Game {
  return assemble(g, true, keepLog && g.log ? g.log.slice() : null);
}

/**
 * Makes dst a copy of src in place, equal to cloneGame(src) (events off), for
 * a search that plays many short copies: nothing is allocated. dst must be
 * another game of the same seat count; the legal-action generator must be
 * told (forgetGame in legal.ts), as it remembers games by identity.
 */
export function refillGame(dst: Game, src: Game): void {
  if (dst.n !== src.n) throw new RangeError(`refillGame: seat counts differ (${dst.n} and ${src.n})`);
  if (dst === src) throw new RangeError('refillGame: a game cannot be refilled from itself');
  copyInto(dst, src);
}

/**
 * A copy of src equal to cloneGame(src) (log null), built on the typed arrays
 * of `spent`, a game of the same seat count that the caller gives up: only
 * the game object itself is allocated. For searches that copy a game many
 * times per decision, whose fresh copies made the garbage collector pause
 * them. A new object rather than `spent` refilled, so caches keyed by the
 * game object (legal.ts's move lists) need not be told (refillGame is the
 * in-place form, for callers that tell them).
 */
export function recycleGame(spent: Game, src: Game): Game {
  if (spent.n !== src.n) throw new RangeError(`recycleGame: seat counts differ (${spent.n} and ${src.n})`);
  if (spent === src) return cloneGame(src);
  copyInto(spent, src);
  return assemble(spent, false, null);
}

/** Overwrites every field of dst (same seat count) with src's, copying arrays element by element. */
function copyInto(dst: Game, src: Game): void {
  const d = dst as { -readonly [K in keyof Game]: Game[K] };
  d.seed = src.seed;
  d.log = null;
  dst.hexRes.set(src.hexRes);
  dst.hexToken.set(src.hexToken);
  dst.tokenHexes.set(src.tokenHexes);
  d.bandit = src.bandit;
  dst.roadOwner.set(src.roadOwner);
  dst.townOwner.set(src.townOwner);
  dst.isCity.set(src.isCity);
  dst.hexTowns.set(src.hexTowns);
  dst.roadList.set(src.roadList);
  dst.townList.set(src.townList);
  dst.hand.set(src.hand);
  dst.devOld.set(src.devOld);
  dst.devNew.set(src.devNew);
  dst.knights.set(src.knights);
  dst.roadsLeft.set(src.roadsLeft);
  dst.settlementsLeft.set(src.settlementsLeft);
  dst.citiesLeft.set(src.citiesLeft);
  dst.roadLen.set(src.roadLen);
  dst.portMask.set(src.portMask);
  dst.strikes.set(src.strikes);
  dst.resigned.set(src.resigned);
  dst.nextDefault.set(src.nextDefault);
  dst.deck.set(src.deck);
  d.deckPos = src.deckPos;
  dst.diceRng.set(src.diceRng);
  dst.stealRng.set(src.stealRng);
  d.stage = src.stage;
  d.setupStep = src.setupStep;
  d.current = src.current;
  d.turn = src.turn;
  d.die1 = src.die1;
  d.die2 = src.die2;
  d.devPlayed = src.devPlayed;
  d.offers = src.offers;
  dst.owed.set(src.owed);
  d.asked = src.asked;
  d.waiting = src.waiting;
  dst.discardBuf.set(src.discardBuf);
  d.accepts = src.accepts;
  for (let s = 0; s < src.n; s++) dst.bufAction[s] = src.bufAction[s];
  d.bufDefault = src.bufDefault;
  d.tradeFrom = src.tradeFrom;
  d.tradeTo = src.tradeTo;
  dst.tradeGive.set(src.tradeGive);
  dst.tradeGet.set(src.tradeGet);
  d.tradeTalk = src.tradeTalk;
  // Talk is rare in a search: a new array only when there is some to copy.
  d.talkLog = src.talkLog.length === 0 ? (dst.talkLog.length === 0 ? dst.talkLog : []) : src.talkLog.slice();
  d.largestArmy = src.largestArmy;
  d.longestRoad = src.longestRoad;
  d.winner = src.winner;
  d.endReason = src.endReason;
  d.outcome = src.outcome
    ? { ...src.outcome, placements: src.outcome.placements.slice(), vp: src.outcome.vp.slice() }
    : null;
  d.pendingCache = src.pendingCache;
}
