// Encodes a seat's DecisionRequest frame straight from the game state: the
// bytes are exactly
// JSON.stringify({ id, matchId, game, seat, kind, deadlineMs, timeBankMs?, lastRttMs?, view: seatView(g, seat) })
// (same keys, order and values; test/runner/seat-frame.test.ts checks every
// decision of whole games). The view is the engine's to write
// (engine/view-bytes.ts, which reads the game's typed arrays); this file
// writes the envelope around it into the same slab.
import type { Game } from '../../engine/index';
import { ascii, beginFrame, buf, num, SeatViewBytes, StringLiterals, takeFrame } from '../../engine/view-bytes';
import type { DecisionRequest } from '../protocol';

/** One writer per match (it follows a new game if given one). */
export class SeatFrameWriter {
  private readonly strings = new StringLiterals();
  private readonly views = new SeatViewBytes(this.strings);

  /** The frame as text (tests, logs). */
  write(
    id: number,
    matchId: string,
    seat: number,
    kind: DecisionRequest['kind'],
    deadlineMs: number,
    g: Game,
    timeBankMs?: number,
    lastRttMs?: number,
  ): string {
    return this.encode(id, matchId, seat, kind, deadlineMs, g, timeBankMs, lastRttMs).toString('utf8');
  }

  /**
   * The frame as UTF-8 bytes, the caller's own (nothing writes to them
   * again: it may wait for a connection or sit in a socket's queue). Positional arguments: no header
   * object per decision. `timeBankMs` and `lastRttMs` (whole ms) are left out when undefined.
   */
  encode(
    id: number,
    matchId: string,
    seat: number,
    kind: DecisionRequest['kind'],
    deadlineMs: number,
    g: Game,
    timeBankMs?: number,
    lastRttMs?: number,
  ): Buffer {
    let p = ascii(beginFrame(), '{"id":');
    p = num(p, id);
    p = ascii(p, ',"matchId":');
    p = this.strings.write(p, matchId);
    p = ascii(p, ',"game":"pioneers","seat":');
    p = num(p, seat);
    p = ascii(p, ',"kind":');
    p = this.strings.write(p, kind);
    p = ascii(p, ',"deadlineMs":');
    p = num(p, deadlineMs);
    if (timeBankMs !== undefined) {
      p = ascii(p, ',"timeBankMs":');
      p = num(p, timeBankMs);
    }
    if (lastRttMs !== undefined) {
      p = ascii(p, ',"lastRttMs":');
      p = num(p, lastRttMs);
    }
    // The view writer refuses a bad seat as seatView does (RangeError); the frame begun is then dropped.
    p = this.views.write(ascii(p, ',"view":'), g, seat);
    buf[p++] = 0x7d; // }
    return takeFrame(p);
  }
}
