// Serialises DecisionRequest frames straight to UTF-8 bytes from a request
// object (JSON.stringify plus UTF-8 encoding cost ~4.5 us a frame; this ~1.5).
// The output is byte for byte what JSON.stringify(request) gives for the
// engine's PioneersView (test/runner/request-frame.test.ts checks whole
// matches), so it sends exactly the fields seatView chose: no more, no less.
// The runner itself encodes from the game state without building the view
// (seat-frame.ts); this writer serves callers that hold a view already.
// The board's hexes and ports never change during a match (only the bandit
// moves) and are over half of every frame: they are encoded once per writer.
import type { DecisionRequest } from '../protocol';
import { ascii, beginFrame, buf, bytes, num, nums, StringLiterals, takeFrame } from './frame-bytes';

type View = DecisionRequest['view'];

/** One writer per match: the board's hexes and ports are taken from its first frame. */
export class RequestFrameWriter {
  private hexes: Buffer | null = null;
  private ports: Buffer | null = null;
  private readonly strings = new StringLiterals();
  // Roads and towns are most of a late-game frame and change a few times a turn.
  private readonly roads = new RoadsCache();
  private readonly towns = new TownsCache();

  /** The frame as text (tests, logs). */
  write(req: DecisionRequest): string {
    return this.encode(req).toString('utf8');
  }

  /**
   * The frame as UTF-8 bytes (send it as a text frame). The result's bytes
   * are the caller's own: nothing writes to them again, so it can wait for a
   * connection or sit in a socket's queue safely.
   */
  encode(req: DecisionRequest): Buffer {
    const v = req.view;
    this.hexes ??= Buffer.from(JSON.stringify(v.board.hexes));
    this.ports ??= Buffer.from(JSON.stringify(v.board.ports));
    let p = ascii(beginFrame(), '{"id":');
    p = num(p, req.id);
    p = ascii(p, ',"matchId":');
    p = this.str(p, req.matchId);
    p = ascii(p, ',"game":');
    p = this.str(p, req.game);
    p = ascii(p, ',"seat":');
    p = num(p, req.seat);
    p = ascii(p, ',"kind":');
    p = this.str(p, req.kind);
    p = ascii(p, ',"deadlineMs":');
    p = num(p, req.deadlineMs);
    p = ascii(p, ',"view":');
    p = this.view(p, v);
    buf[p++] = 0x7d; // }
    return takeFrame(p);
  }

  // Key order follows engine/view.ts seatView, as JSON.stringify would.
  private view(p: number, v: View): number {
    p = ascii(p, '{"seat":');
    p = num(p, v.seat);
    p = ascii(p, ',"seatCount":');
    p = num(p, v.seatCount);
    p = ascii(p, ',"phase":');
    p = this.str(p, v.phase);
    p = ascii(p, ',"turn":');
    p = num(p, v.turn);
    p = ascii(p, ',"dice":');
    p = v.dice === null ? ascii(p, 'null') : nums(p, v.dice);
    p = ascii(p, ',"board":{"hexes":');
    p = bytes(p, this.hexes!);
    p = ascii(p, ',"ports":');
    p = bytes(p, this.ports!);
    p = ascii(p, ',"bandit":');
    p = num(p, v.board.bandit);
    p = ascii(p, '},"roads":');
    p = this.roads.write(p, v.roads);
    p = ascii(p, ',"towns":');
    p = this.towns.write(p, v.towns);
    p = ascii(p, ',"hand":');
    p = this.counts(p, v.hand);
    p = ascii(p, ',"handCounts":');
    p = nums(p, v.handCounts);
    p = ascii(p, ',"devCards":');
    p = this.strs(p, v.devCards);
    p = ascii(p, ',"devBoughtThisTurn":');
    p = this.strs(p, v.devBoughtThisTurn);
    p = ascii(p, ',"devCounts":');
    p = nums(p, v.devCounts);
    p = ascii(p, ',"knightsPlayed":');
    p = nums(p, v.knightsPlayed);
    p = ascii(p, ',"scores":');
    p = nums(p, v.scores);
    p = ascii(p, ',"myScore":');
    p = num(p, v.myScore);
    p = ascii(p, ',"awards":{"largestArmy":');
    p = v.awards.largestArmy === null ? ascii(p, 'null') : num(p, v.awards.largestArmy);
    p = ascii(p, ',"longestRoad":');
    p = v.awards.longestRoad === null ? ascii(p, 'null') : num(p, v.awards.longestRoad);
    p = ascii(p, '},"deckRemaining":');
    p = num(p, v.deckRemaining);
    p = ascii(p, ',"openTrade":');
    const t = v.openTrade;
    if (t === null) p = ascii(p, 'null');
    else {
      p = ascii(p, '{"from":');
      p = num(p, t.from);
      p = ascii(p, ',"give":');
      p = this.counts(p, t.give);
      p = ascii(p, ',"get":');
      p = this.counts(p, t.get);
      if (t.to !== undefined) {
        p = ascii(p, ',"to":');
        p = num(p, t.to);
      }
      if (t.talk !== undefined) {
        p = ascii(p, ',"talk":');
        p = this.str(p, t.talk);
      }
      buf[p++] = 0x7d;
    }
    p = ascii(p, ',"talkLog":[');
    const talk = v.talkLog;
    for (let i = 0; i < talk.length; i++) {
      const e = talk[i];
      p = ascii(p, i === 0 ? '{"seat":' : ',{"seat":');
      p = num(p, e.seat);
      p = ascii(p, ',"message":');
      p = this.str(p, e.message);
      p = ascii(p, ',"turn":');
      p = num(p, e.turn);
      buf[p++] = 0x7d;
    }
    return ascii(p, ']}');
  }

  /** A resource-count record: keys in insertion order, undefined values left out (as JSON.stringify does). */
  private counts(p: number, c: Readonly<Record<string, number | undefined>>): number {
    buf[p++] = 0x7b; // {
    let first = true;
    for (const k in c) {
      const n = c[k];
      if (n === undefined) continue;
      if (!first) buf[p++] = 0x2c;
      first = false;
      p = this.str(p, k);
      buf[p++] = 0x3a; // :
      p = num(p, n);
    }
    buf[p++] = 0x7d;
    return p;
  }

  private strs(p: number, a: readonly string[]): number {
    buf[p++] = 0x5b; // [
    for (let i = 0; i < a.length; i++) {
      if (i > 0) buf[p++] = 0x2c;
      p = this.str(p, a[i]);
    }
    buf[p++] = 0x5d;
    return p;
  }

  private str(p: number, s: string): number {
    return this.strings.write(p, s);
  }
}

/**
 * The roads array, re-encoded only when its content changes: the last list
 * written is kept as numbers and its bytes reused when every entry matches.
 * (Roads and towns each get their own class so every loop stays monomorphic.)
 */
class RoadsCache {
  private last = new Int32Array(0);
  private count = -1;
  private bytes: Buffer = Buffer.alloc(0);

  write(p: number, roads: View['roads']): number {
    if (roads.length === this.count && this.same(roads)) return bytes(p, this.bytes);
    const start = p;
    buf[p++] = 0x5b; // [
    for (let i = 0; i < roads.length; i++) {
      const r = roads[i];
      p = ascii(p, i === 0 ? '{"edge":' : ',{"edge":');
      p = num(p, r.edge);
      p = ascii(p, ',"seat":');
      p = num(p, r.seat);
      buf[p++] = 0x7d;
    }
    buf[p++] = 0x5d;
    if (this.last.length < roads.length * 2) this.last = new Int32Array(roads.length * 4);
    for (let i = 0; i < roads.length; i++) {
      this.last[2 * i] = roads[i].edge;
      this.last[2 * i + 1] = roads[i].seat;
    }
    this.count = roads.length;
    this.bytes = Buffer.from(buf.subarray(start, p));
    return p;
  }

  private same(roads: View['roads']): boolean {
    const last = this.last;
    for (let i = 0; i < roads.length; i++) {
      const r = roads[i];
      if (r.edge !== last[2 * i] || r.seat !== last[2 * i + 1]) return false;
    }
    return true;
  }
}

/** The towns array, cached like RoadsCache (city flags included). */
class TownsCache {
  private last = new Int32Array(0);
  private count = -1;
  private bytes: Buffer = Buffer.alloc(0);

  write(p: number, towns: View['towns']): number {
    if (towns.length === this.count && this.same(towns)) return bytes(p, this.bytes);
    const start = p;
    buf[p++] = 0x5b; // [
    for (let i = 0; i < towns.length; i++) {
      const t = towns[i];
      p = ascii(p, i === 0 ? '{"vertex":' : ',{"vertex":');
      p = num(p, t.vertex);
      p = ascii(p, ',"seat":');
      p = num(p, t.seat);
      p = ascii(p, t.city ? ',"city":true}' : ',"city":false}');
    }
    buf[p++] = 0x5d;
    if (this.last.length < towns.length * 3) this.last = new Int32Array(towns.length * 6);
    for (let i = 0; i < towns.length; i++) {
      this.last[3 * i] = towns[i].vertex;
      this.last[3 * i + 1] = towns[i].seat;
      this.last[3 * i + 2] = towns[i].city ? 1 : 0;
    }
    this.count = towns.length;
    this.bytes = Buffer.from(buf.subarray(start, p));
    return p;
  }

  private same(towns: View['towns']): boolean {
    const last = this.last;
    for (let i = 0; i < towns.length; i++) {
      const t = towns[i];
      if (t.vertex !== last[3 * i] || t.seat !== last[3 * i + 1] || (t.city ? 1 : 0) !== last[3 * i + 2]) return false;
    }
    return true;
  }
}
