// Every moment of a recorded match, rebuilt from its seed and replay with the
// engine: one frame per replay event. A record that does not reproduce
// exactly is refused, naming the first event that differs.
import {
  checkHeaderResult,
  checkHeaderSeats,
  gameEvents,
  newGame,
  publicView,
  RULES_VERSION,
  seatSecrets,
  stepReplay,
  type Game,
} from '../../engine/index';
import type { BoardView, DevCardName, Outcome, PublicView, ResourceCounts } from '../../engine/index';
import type { DecisionEntry, MatchEvent, MatchRecord } from '../protocol/match';

/** What one seat holds; the replay is public, so this is the truth, not counts. */
export interface SeatFrame {
  hand: ResourceCounts;
  devCards: DevCardName[];
  devBoughtThisTurn: DevCardName[];
  /** VP including hidden victory_point cards. */
  trueVp: number;
}

/** The state of the game as it stood right after one replay event. */
export interface Frame extends Omit<PublicView, 'board' | 'talkLog'> {
  bandit: number;
  /** Strikes per seat so far. */
  strikes: number[];
  seats: SeatFrame[];
}

export interface Timeline {
  matchId: string;
  seed: string;
  seatCount: 3 | 4;
  status: MatchRecord['status'];
  /** Bot name per seat. */
  names: string[];
  /** Hexes and ports never change; the bandit's position is per frame. */
  board: BoardView;
  events: readonly MatchEvent[];
  /** frames[i] is the state after events[i]; events produced by one answer share a frame. */
  frames: readonly Frame[];
  /** Turn of each event: 0 during setup, then n from the roll that starts turn n. */
  turnOf: readonly number[];
  lastTurn: number;
  outcome: Outcome | null;
  /** The record's per-decision entries (time, bot notes), when it has them (older records do not). */
  decisions?: readonly DecisionEntry[];
}

export class ReplayVerifyError extends Error {
  constructor(
    message: string,
    readonly eventIndex: number | null,
  ) {
    super(message);
    this.name = 'ReplayVerifyError';
  }
}

function snapshot(g: Game, seatCount: number): Frame {
  const { board, talkLog: _talk, ...pub } = publicView(g);
  const seats: SeatFrame[] = [];
  for (let s = 0; s < seatCount; s++) {
    // The replay is public once the match is over: each seat's secrets, without building a whole seat view per seat per
    // event.
    const v = seatSecrets(g, s);
    seats.push({ hand: v.hand, devCards: v.devCards, devBoughtThisTurn: v.devBoughtThisTurn, trueVp: v.myScore });
  }
  return { ...pub, bandit: board.bandit, strikes: Array.from(g.strikes), seats };
}

export interface TimelineOptions {
  /**
   * 'all' (the default) builds every frame up front, as the viewer steps
   * through them. 'lazy' builds a frame when it is first read, by replaying
   * the record up to it: one moment (`--plain`, `--json`) then costs one more
   * replay instead of a snapshot of every event, but each frame read the first
   * time costs a replay up to it, so stepping through many is slow.
   */
  frames?: 'all' | 'lazy';
}

/** Rebuilds every frame of a record. Throws ReplayVerifyError when the record cannot be replayed as recorded. */
export function buildTimeline(record: MatchRecord, opts: TimelineOptions = {}): Timeline {
  if (record.seed === null || record.replay.length === 0) {
    throw new ReplayVerifyError(
      `match ${record.id} is ${record.status} and has no public seed and replay yet; replay it once it has finished`,
      null,
    );
  }
  if (record.rulesVersion !== RULES_VERSION) {
    throw new ReplayVerifyError(
      `match ${record.id} was played under rules ${record.rulesVersion}, but this arena replays ${RULES_VERSION}; use an arena release with those rules`,
      null,
    );
  }
  if (record.status === 'running') {
    throw new ReplayVerifyError(
      `match ${record.id} says it is running but carries a seed and replay; a running match has neither, so the record is not to be trusted`,
      null,
    );
  }
  const seatCount = record.seatCount as 3 | 4;
  const seats = checkHeaderSeats(record, record.replay);
  if (seats) throw new ReplayVerifyError(`match ${record.id} does not verify: ${seats}`, null);
  const seed = record.seed;
  const events = record.replay;
  const names = Array.from(
    { length: seatCount },
    (_, s) => record.players.find((p) => p.seat === s)?.botName ?? `seat ${s}`,
  );

  const lazy = opts.frames === 'lazy';
  const initial = newGame(seed, seatCount);
  const board = publicView(initial).board;
  const eager = lazy ? null : replayFrames(seed, seatCount, events, () => true);
  const result = eager?.result ?? stepReplay(seed, seatCount, events, () => {});
  if (!result.ok) {
    const full = result.message.replace(/^event \d+: /, '');
    // The engine quotes both events; keep the message to a readable length.
    const detail = full.length > 400 ? `${full.slice(0, 400)}…` : full;
    throw new ReplayVerifyError(
      `match ${record.id} does not verify at event ${result.index} (${events[result.index]?.kind ?? 'past the end'}): ${detail}`,
      result.index,
    );
  }
  // The replay is the engine's; the header beside it must tell the same story.
  const header = checkHeaderResult(record, events, result.outcome);
  if (header) throw new ReplayVerifyError(`match ${record.id} does not verify: ${header}`, null);
  const frames = eager ? eager.frames : lazyFrames(seed, seatCount, events);
  if (eager) {
    // A verified replay has every event regenerated, so every frame is set; this only guards the invariant.
    for (let i = 1; i < events.length; i++) eager.frames[i] ??= eager.frames[i - 1];
  }
  const turnOf: number[] = [];
  let turn = 0;
  for (const ev of events) {
    if (ev.kind === 'roll') turn++;
    turnOf.push(turn);
  }
  return {
    matchId: record.id,
    seed,
    seatCount,
    status: record.status,
    names,
    board,
    events,
    frames,
    turnOf,
    lastTurn: turn,
    outcome: result.outcome,
    ...(record.decisions ? { decisions: record.decisions } : {}),
  };
}

/**
 * Replays the record, keeping the frames `want` asks for: frames[i] is the
 * game as it stood when the engine appended event i, and the last event of
 * each input gets the state once the input is fully applied. With `stopAt`,
 * stops once frame stopAt is final (and then there is no result).
 */
function replayFrames(
  seed: string,
  seatCount: 3 | 4,
  events: readonly MatchEvent[],
  want: (i: number) => boolean,
  stopAt?: number,
): { frames: Frame[]; result: ReturnType<typeof stepReplay> | null } {
  const frames: Frame[] = new Array<Frame>(events.length);
  const initial = newGame(seed, seatCount);
  const opening = Math.min(events.length, gameEvents(initial).length);
  let first: Frame | undefined;
  for (let i = 0; i < opening; i++) if (want(i)) frames[i] = first ??= snapshot(initial, seatCount);
  let settled = opening - 1;
  const done = {};
  let result: ReturnType<typeof stepReplay> | null = null;
  try {
    result = stepReplay(
      seed,
      seatCount,
      events,
      (g, last) => {
        if (last > settled && last < events.length && want(last)) frames[last] = snapshot(g, seatCount);
        settled = Math.max(settled, last);
        if (stopAt !== undefined && settled >= stopAt) throw done;
      },
      (g, i) => {
        if (i < events.length && want(i)) frames[i] = snapshot(g, seatCount);
      },
    );
  } catch (err) {
    if (err !== done) throw err;
  }
  return { frames, result };
}

/** Frames of a verified record, each built when first read (TimelineOptions 'lazy'). */
function lazyFrames(seed: string, seatCount: 3 | 4, events: readonly MatchEvent[]): readonly Frame[] {
  const built = new Map<number, Frame>();
  const frame = (i: number): Frame => {
    let f = built.get(i);
    if (!f) {
      // Every event of a verified replay is regenerated, so frame i is set; the fallback only guards that.
      f = replayFrames(seed, seatCount, events, (j) => j === i, i).frames[i] ?? (i > 0 ? frame(i - 1) : undefined);
      if (!f) throw new Error(`no frame for event ${i}`);
      built.set(i, f);
    }
    return f;
  };
  return new Proxy(new Array<Frame>(events.length), {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && /^(0|[1-9]\d*)$/.test(prop) && Number(prop) < events.length)
        return frame(Number(prop));
      return Reflect.get(target, prop, receiver);
    },
  });
}

/** Index of the first event of turn `turn` (its roll; 0 = the start of setup), clamped to the match. */
export function firstEventOfTurn(t: Timeline, turn: number): number {
  if (turn <= 0) return 0;
  for (let i = 0; i < t.turnOf.length; i++) if (t.turnOf[i] >= turn) return i;
  return firstEventOfTurn(t, t.lastTurn);
}
