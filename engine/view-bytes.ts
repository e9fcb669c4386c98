// A seat's view (PioneersView) as JSON bytes straight from the game state,
// with no view object in between: the bytes are exactly
// JSON.stringify(seatView(g, seat)) (same keys, order and values;
// test/engine/view-bytes.test.ts and test/runner/seat-frame.test.ts check
// every decision of whole games). Building the view cost more than encoding
// it (~40 small objects and arrays a decision, and their GC); this reads the
// typed arrays seatView reads, so it lives beside view.ts: change one,
// change both (the tests fail otherwise).
// Parts that rarely change are kept as bytes: the board's hexes and ports
// (fixed for a game), roads and towns (a few changes a turn), the talk log.
// Node only (Buffer, and a module-level slab): a door of its own, not
// re-exported by index.ts, so the browser bundle and bot-arena/engine never load it.
import { EDGE_COUNT, RESOURCES, VERTEX_COUNT } from './board';
import type { Game } from './state';
import { STAGE_SETUP, STAGE_TRADE, devTotal, handTotal, publicVp, trueVp } from './state';
import { DEV_CARDS } from './types';
import { boardView } from './view';
import { ascii, buf, bytes, num, StringLiterals } from './json-bytes';

// The slab primitives, for the code that wraps a view in a frame (src/runner/seat-frame.ts).
export { ascii, beginFrame, buf, bytes, num, StringLiterals, takeFrame } from './json-bytes';

/** `"brick":` ... as JSON text, in resource order (the order seatView's hand and toCounts use). */
const RESOURCE_KEYS = RESOURCES.map((r) => `${JSON.stringify(r)}:`);
/** `{"brick":`, `,"lumber":` ... : the always-complete hand record. */
const HAND_KEYS = RESOURCES.map((r, i) => `${i === 0 ? '{' : ','}${JSON.stringify(r)}:`);
const DEV_CARD_LITERALS = DEV_CARDS.map((c) => JSON.stringify(c));

/**
 * One writer per match (it follows a new game if given one, re-reading the
 * board). It writes into the current slab of json-bytes.ts, between the
 * caller's beginFrame() and takeFrame(); `strings` caches JSON literals and
 * may be shared with the caller's own strings.
 */
export class SeatViewBytes {
  private game: Game | null = null;
  /** `{"hexes":[...],"ports":[...],"bandit":` for this game. */
  private boardHead: Buffer = Buffer.alloc(0);
  private readonly roads = new RoadsBytes();
  private readonly towns = new TownsBytes();
  private readonly talk = new TalkBytes();

  constructor(private readonly strings = new StringLiterals()) {}

  /** Writes seatView(g, seat) as JSON at `p`; returns the position after it. */
  write(p: number, g: Game, seat: number): number {
    // seatView's own check, so a bad seat fails the same way.
    if (!Number.isInteger(seat) || seat < 0 || seat >= g.n)
      throw new RangeError(`no seat ${seat} in a ${g.n}-seat game`);
    if (g !== this.game) this.follow(g);
    return this.view(p, g, seat);
  }

  private follow(g: Game): void {
    const b = boardView(g);
    this.boardHead = Buffer.from(`{"hexes":${JSON.stringify(b.hexes)},"ports":${JSON.stringify(b.ports)},"bandit":`);
    this.roads.forget();
    this.towns.forget();
    this.talk.forget();
    this.game = g;
  }

  private view(p: number, g: Game, seat: number): number {
    const setup = g.stage === STAGE_SETUP;
    const n = g.n;
    p = ascii(p, '{"seat":');
    p = num(p, seat);
    p = ascii(p, ',"seatCount":');
    p = num(p, n);
    p = ascii(p, setup ? ',"phase":"setup","turn":' : ',"phase":"main","turn":');
    p = num(p, g.turn);
    if (setup) p = ascii(p, ',"dice":null');
    else {
      p = ascii(p, ',"dice":[');
      p = num(p, g.die1);
      buf[p++] = 0x2c;
      p = num(p, g.die2);
      buf[p++] = 0x5d;
    }
    p = ascii(p, ',"board":');
    p = bytes(p, this.boardHead);
    p = num(p, g.bandit);
    p = ascii(p, '},"roads":');
    p = this.roads.write(p, g);
    p = ascii(p, ',"towns":');
    p = this.towns.write(p, g);
    p = ascii(p, ',"hand":');
    const o = seat * 5;
    for (let r = 0; r < 5; r++) {
      p = ascii(p, HAND_KEYS[r]);
      p = num(p, g.hand[o + r]);
    }
    p = ascii(p, '},"handCounts":[');
    for (let s = 0; s < n; s++) {
      if (s > 0) buf[p++] = 0x2c;
      p = num(p, handTotal(g, s));
    }
    p = cards(ascii(p, '],"devCards":'), g.devOld, o);
    p = cards(ascii(p, ',"devBoughtThisTurn":'), g.devNew, o);
    p = ascii(p, ',"devCounts":[');
    for (let s = 0; s < n; s++) {
      if (s > 0) buf[p++] = 0x2c;
      p = num(p, devTotal(g, s));
    }
    p = ascii(p, '],"knightsPlayed":[');
    for (let s = 0; s < n; s++) {
      if (s > 0) buf[p++] = 0x2c;
      p = num(p, g.knights[s]);
    }
    p = ascii(p, '],"scores":[');
    for (let s = 0; s < n; s++) {
      if (s > 0) buf[p++] = 0x2c;
      p = num(p, publicVp(g, s));
    }
    p = ascii(p, '],"myScore":');
    p = num(p, trueVp(g, seat));
    p = ascii(p, ',"awards":{"largestArmy":');
    p = g.largestArmy === -1 ? ascii(p, 'null') : num(p, g.largestArmy);
    p = ascii(p, ',"longestRoad":');
    p = g.longestRoad === -1 ? ascii(p, 'null') : num(p, g.longestRoad);
    p = ascii(p, '},"deckRemaining":');
    p = num(p, g.deck.length - g.deckPos);
    p = ascii(p, ',"openTrade":');
    if (g.stage !== STAGE_TRADE) p = ascii(p, 'null');
    else {
      p = ascii(p, '{"from":');
      p = num(p, g.tradeFrom);
      p = counts(ascii(p, ',"give":'), g.tradeGive);
      p = counts(ascii(p, ',"get":'), g.tradeGet);
      // seatView leaves `to` out for an offer to everyone and `talk` out when there is none.
      if (g.tradeTo !== -1) {
        p = ascii(p, ',"to":');
        p = num(p, g.tradeTo);
      }
      if (g.tradeTalk !== null) {
        p = ascii(p, ',"talk":');
        p = this.strings.write(p, g.tradeTalk);
      }
      buf[p++] = 0x7d;
    }
    p = ascii(p, ',"talkLog":');
    p = this.talk.write(p, g.talkLog, this.strings);
    buf[p++] = 0x7d;
    return p;
  }
}

/** A dev card list as seatView's cardList makes it: each card name repeated by its count, in DEV_CARDS order. */
function cards(p: number, arr: Int8Array, o: number): number {
  buf[p++] = 0x5b; // [
  let first = true;
  for (let c = 0; c < 5; c++) {
    for (let k = 0; k < arr[o + c]; k++) {
      if (!first) buf[p++] = 0x2c;
      first = false;
      p = ascii(p, DEV_CARD_LITERALS[c]);
    }
  }
  buf[p++] = 0x5d;
  return p;
}

/** ResourceCounts as toCounts makes them: only the non-zero entries, in resource order. */
function counts(p: number, arr: Int16Array): number {
  buf[p++] = 0x7b; // {
  let first = true;
  for (let r = 0; r < 5; r++) {
    const v = arr[r];
    if (v === 0) continue;
    if (!first) buf[p++] = 0x2c;
    first = false;
    p = ascii(p, RESOURCE_KEYS[r]);
    p = num(p, v);
  }
  buf[p++] = 0x7d;
  return p;
}

/**
 * The roads array, re-encoded only when roadOwner changed since the last
 * frame: a copy of it is kept and compared (72 bytes; cheaper than encoding).
 * (Roads, towns and talk each get their own class so every loop stays monomorphic.)
 */
class RoadsBytes {
  private readonly last = new Int8Array(EDGE_COUNT);
  private bytes: Buffer | null = null;

  forget(): void {
    this.bytes = null;
  }

  write(p: number, g: Game): number {
    const owner = g.roadOwner;
    const last = this.last;
    if (this.bytes !== null) {
      let e = 0;
      while (e < EDGE_COUNT && owner[e] === last[e]) e++;
      if (e === EDGE_COUNT) return bytes(p, this.bytes);
    }
    const start = p;
    buf[p++] = 0x5b; // [
    let first = true;
    for (let e = 0; e < EDGE_COUNT; e++) {
      if (owner[e] === -1) continue;
      p = ascii(p, first ? '{"edge":' : ',{"edge":');
      first = false;
      p = num(p, e);
      p = ascii(p, ',"seat":');
      p = num(p, owner[e]);
      buf[p++] = 0x7d;
    }
    buf[p++] = 0x5d;
    last.set(owner);
    this.bytes = Buffer.from(buf.subarray(start, p));
    return p;
  }
}

/** The towns array, kept like RoadsBytes (owners and city flags). */
class TownsBytes {
  private readonly lastOwner = new Int8Array(VERTEX_COUNT);
  private readonly lastCity = new Uint8Array(VERTEX_COUNT);
  private bytes: Buffer | null = null;

  forget(): void {
    this.bytes = null;
  }

  write(p: number, g: Game): number {
    const owner = g.townOwner;
    const city = g.isCity;
    const lastOwner = this.lastOwner;
    const lastCity = this.lastCity;
    if (this.bytes !== null) {
      let v = 0;
      while (v < VERTEX_COUNT && owner[v] === lastOwner[v] && city[v] === lastCity[v]) v++;
      if (v === VERTEX_COUNT) return bytes(p, this.bytes);
    }
    const start = p;
    buf[p++] = 0x5b; // [
    let first = true;
    for (let v = 0; v < VERTEX_COUNT; v++) {
      if (owner[v] === -1) continue;
      p = ascii(p, first ? '{"vertex":' : ',{"vertex":');
      first = false;
      p = num(p, v);
      p = ascii(p, ',"seat":');
      p = num(p, owner[v]);
      p = ascii(p, city[v] === 1 ? ',"city":true}' : ',"city":false}');
    }
    buf[p++] = 0x5d;
    lastOwner.set(owner);
    lastCity.set(city);
    this.bytes = Buffer.from(buf.subarray(start, p));
    return p;
  }
}

/**
 * The talk log (up to 20 lines of up to 240 characters, escaped on every
 * frame otherwise), re-encoded only when an entry's seat, message or turn
 * differs from the last frame's: values are compared, not entry objects.
 */
class TalkBytes {
  private seats: number[] = [];
  private messages: string[] = [];
  private turns: number[] = [];
  private bytes: Buffer | null = null;

  forget(): void {
    this.bytes = null;
  }

  write(p: number, log: Game['talkLog'], strings: StringLiterals): number {
    if (this.bytes !== null && this.same(log)) return bytes(p, this.bytes);
    const start = p;
    buf[p++] = 0x5b; // [
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      p = ascii(p, i === 0 ? '{"seat":' : ',{"seat":');
      p = num(p, e.seat);
      p = ascii(p, ',"message":');
      p = strings.write(p, e.message);
      p = ascii(p, ',"turn":');
      p = num(p, e.turn);
      buf[p++] = 0x7d;
    }
    buf[p++] = 0x5d;
    this.seats = log.map((e) => e.seat);
    this.messages = log.map((e) => e.message);
    this.turns = log.map((e) => e.turn);
    this.bytes = Buffer.from(buf.subarray(start, p));
    return p;
  }

  private same(log: Game['talkLog']): boolean {
    if (log.length !== this.seats.length) return false;
    for (let i = 0; i < log.length; i++) {
      const e = log[i];
      if (e.seat !== this.seats[i] || e.message !== this.messages[i] || e.turn !== this.turns[i]) return false;
    }
    return true;
  }
}
