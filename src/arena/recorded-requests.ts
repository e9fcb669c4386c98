// Rebuilds the DecisionRequest frames a match record's seats were sent, from
// the seed and the replay: `arena position` prints one, `arena replay --feed`
// sends a seat's to a running bot. The engine replays the record (verifying
// it); the runner's own frame writer (src/runner/seat-frame.ts) encodes each
// frame, so the bytes are the runner's. Rounds, decision ids and the frames'
// game state follow run-match.ts: each round asks every pending decision at
// once, in seat order, numbered from 1 across the match (built-in and
// resigned seats take ids too), from the state before any of its answers.
//
// What a record does not keep: the deadline and time bank the match was run
// with. A frame's deadlineMs is min(deadline, bank left). Records with
// `decisions` keep each frame's timeBankMs and lastRttMs as sent, so those
// frames are exact. Older records keep only each seat's total thinking time
// (`timeUsedMs`): their frames have no timing fields, and deadlineMs is
// exact when the seat's total time used leaves at least a deadline in the
// bank (then the bank never went below it); `deadlineExact` says so.
import { cloneGame, isOver, newGame, pendingDecisions, stepReplay, type Game } from '../../engine';
import type { DecisionKind, RecordedEvent, StrikeReason } from '../../engine/index';
import type { MatchRecord } from '../protocol';
import { SeatFrameWriter } from '../runner/seat-frame';

/** What the record says the seat answered. */
export type RecordedAnswer =
  | { type: 'action'; action: unknown }
  /** The answer was struck (the engine's default was played); `code` for an illegal one. */
  | { type: 'strike'; reason: StrikeReason; code?: string }
  /** No frame was sent: the seat had resigned. */
  | { type: 'resigned' };

export interface RecordedRequest {
  /** The decision id the runner gave it. */
  id: number;
  seat: number;
  kind: DecisionKind;
  /** The game's turn counter then (0 during setup). */
  turn: number;
  /** 1-based number of the replay event that answered it (as `arena replay --event` counts). */
  event: number;
  /** The frame as the runner sent it (UTF-8 JSON). */
  frame: Buffer;
  answer: RecordedAnswer;
  /** The game as it stood when the frame was sent (for judging a new answer); only when asked for. */
  game?: Game;
}

export interface RebuildOptions {
  /** The deadline the match was run with (arena play --deadline-ms). */
  deadlineMs: number;
  /** The time bank per seat the match was run with, in ms (arena play --time-bank). */
  timeBankMs: number;
  /** Only this seat's requests (all seats by default). */
  seat?: number;
  /** Keep a copy of the game with each request (for `--feed` to judge struck answers). */
  keepGames?: boolean;
}

export interface RebuiltRequests {
  requests: RecordedRequest[];
  /** Per seat: every frame's deadlineMs is exactly as sent (see the module comment). */
  deadlineExact: boolean[];
  /** Why some detail is not exact, for people. */
  notes: string[];
}

export class RecordReplayError extends Error {}

/** Every request frame of the record (or of one seat), in the order they were sent. */
export function rebuildRequests(record: MatchRecord, opts: RebuildOptions): RebuiltRequests {
  const seed = record.seed;
  if (seed === null) throw new RecordReplayError('the record has no seed (a match still running): nothing to rebuild');
  const n = record.seatCount as 3 | 4;
  const events = record.replay as unknown as readonly RecordedEvent[];
  // Every input event of the record, in order: stepReplay visits after each one.
  const inputs: number[] = [];
  events.forEach((e, i) => {
    if (
      e.kind === 'action' ||
      e.kind === 'timeout' ||
      e.kind === 'resign' ||
      (e.kind === 'end' && (e.data as { reason?: string } | undefined)?.reason === 'aborted')
    )
      inputs.push(i);
  });

  const used = record.timeUsedMs;
  // The timing fields each frame was sent with, by decision id (records with decisions).
  const sent = new Map<number, { timeBankMs: number; lastRttMs?: number }>();
  for (const d of record.decisions ?? [])
    if (d.timeBankMs !== undefined) sent.set(d.id, { timeBankMs: d.timeBankMs, lastRttMs: d.lastRttMs });
  const timed = record.decisions !== undefined;
  const deadlineExact = Array.from(
    { length: n },
    (_, s) => timed || (used !== undefined && used[s] + opts.deadlineMs <= opts.timeBankMs - 1),
  );
  const notes: string[] = [];
  const writer = new SeatFrameWriter();
  const requests: RecordedRequest[] = [];
  const resigned = new Array<boolean>(n).fill(false);
  let nextId = 1;
  // The round being answered: its requests by seat, and the seats still owing an action.
  let round: Map<number, RecordedRequest> | null = null;
  let owing = 0;
  let k = 0;

  const startRound = (g: Game) => {
    if (isOver(g)) {
      round = null;
      return;
    }
    const engineOrder = pendingDecisions(g);
    const pending = engineOrder.length === 1 ? engineOrder : [...engineOrder].sort((a, b) => a.seat - b.seat);
    round = new Map();
    owing = pending.length;
    pending.forEach((d, i) => {
      const id = nextId + i;
      const wanted = opts.seat === undefined || opts.seat === d.seat;
      // A resigned seat is sent nothing (its id is still taken).
      const t = sent.get(id);
      const deadlineMs = t ? Math.min(opts.deadlineMs, t.timeBankMs) : opts.deadlineMs;
      const frame =
        wanted && !resigned[d.seat]
          ? Buffer.from(writer.encode(id, record.id, d.seat, d.kind, deadlineMs, g, t?.timeBankMs, t?.lastRttMs))
          : Buffer.alloc(0);
      const req: RecordedRequest = {
        id,
        seat: d.seat,
        kind: d.kind,
        turn: g.turn,
        event: 0,
        frame,
        answer: resigned[d.seat] ? { type: 'resigned' } : { type: 'action', action: null },
      };
      if (wanted && opts.keepGames && !resigned[d.seat]) req.game = cloneGame(g);
      round!.set(d.seat, req);
      if (wanted && !resigned[d.seat]) requests.push(req);
    });
    nextId += pending.length;
  };

  // The first round is asked from the new game (the replay's game is the same, bit for bit).
  try {
    startRound(newGame(seed, n));
  } catch (err) {
    throw new RecordReplayError(`cannot start the game: ${(err as Error).message}`);
  }
  const result = stepReplay(seed, n, events, (g) => {
    const ev = events[inputs[k]];
    const at = inputs[k];
    k++;
    const req = round?.get(ev.seat ?? -1);
    const data = (ev.data ?? {}) as { action?: unknown; default?: boolean; reason?: StrikeReason; code?: string };
    if (req && ev.kind === 'timeout') {
      req.answer =
        data.code === undefined
          ? { type: 'strike', reason: data.reason! }
          : { type: 'strike', reason: data.reason!, code: data.code };
      req.event = at + 1;
    } else if (req && ev.kind === 'action') {
      if (req.answer.type === 'action') {
        req.answer = { type: 'action', action: data.action };
        req.event = at + 1;
      }
      owing--;
    } else if (ev.kind === 'resign' && ev.seat !== undefined) {
      resigned[ev.seat] = true;
    }
    // The round is over when every seat has its action and no resignation follows (it belongs to the round).
    const nextKind = k < inputs.length ? events[inputs[k]].kind : null;
    if (owing <= 0 && nextKind !== 'resign') startRound(g);
  });
  if (!result.ok) throw new RecordReplayError(`the record does not replay: ${result.message}`);

  if (used === undefined && !timed)
    notes.push(
      'the record has no timeUsedMs (an older record): deadlineMs assumes the time bank never ran below the deadline',
    );
  deadlineExact.forEach((exact, s) => {
    if (!exact && used !== undefined && (opts.seat === undefined || opts.seat === s)) {
      notes.push(
        `seat ${s} used ${used[s]} ms of its ${opts.timeBankMs} ms bank: late in the match its bank may have been under the ${opts.deadlineMs} ms deadline, and the record keeps no per-decision time, so deadlineMs may be higher than sent`,
      );
    }
  });
  return { requests, deadlineExact, notes };
}

/**
 * The request answered at event `event` (1-based), or, for another event, the seat's first request answered at or after
 * it.
 */
export function requestAt(requests: readonly RecordedRequest[], event: number, seat?: number): RecordedRequest | null {
  const mine = seat === undefined ? requests : requests.filter((r) => r.seat === seat);
  const exact = mine.find((r) => r.event === event);
  if (exact) return exact;
  if (seat === undefined) return null;
  return mine.filter((r) => r.event >= event).sort((a, b) => a.event - b.event)[0] ?? null;
}
