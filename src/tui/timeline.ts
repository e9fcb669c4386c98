// Every moment of a recorded match, rebuilt from its seed and replay with the
// engine: one frame per replay event. A record that does not reproduce
// exactly is refused, naming the first event that differs.
import { newGame, gameEvents, RULES_VERSION, type Game } from '../../engine/game';
import { checkHeaderResult, checkHeaderSeats, stepReplay } from '../../engine/replay';
import { publicView, seatSecrets } from '../../engine/view';
import type { BoardView, DevCardName, Outcome, PublicView, ResourceCounts } from '../../engine/types';
import type { MatchEvent, MatchRecord } from '../protocol/match';

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
}

export class ReplayVerifyError extends Error {
  constructor(message: string, readonly eventIndex: number | null) {
    super(message);
    this.name = 'ReplayVerifyError';
  }
}

function snapshot(g: Game, seatCount: number): Frame {
  const { board, talkLog: _talk, ...pub } = publicView(g);
  const seats: SeatFrame[] = [];
  for (let s = 0; s < seatCount; s++) {
    // The replay is public once the match is over: each seat's secrets, without building a whole seat view per seat per event.
    const v = seatSecrets(g, s);
    seats.push({ hand: v.hand, devCards: v.devCards, devBoughtThisTurn: v.devBoughtThisTurn, trueVp: v.myScore });
  }
  return { ...pub, bandit: board.bandit, strikes: Array.from(g.strikes), seats };
}

/** Rebuilds every frame of a record. Throws ReplayVerifyError when the record cannot be replayed as recorded. */
export function buildTimeline(record: MatchRecord): Timeline {
  if (record.seed === null || record.replay.length === 0) {
    throw new ReplayVerifyError(`match ${record.id} is ${record.status} and has no public seed and replay yet; replay it once it has finished`, null);
  }
  if (record.rulesVersion !== RULES_VERSION) {
    throw new ReplayVerifyError(`match ${record.id} was played under rules ${record.rulesVersion}, but this arena replays ${RULES_VERSION}; use an arena release with those rules`, null);
  }
  if (record.status === 'running') {
    throw new ReplayVerifyError(`match ${record.id} says it is running but carries a seed and replay; a running match has neither, so the record is not to be trusted`, null);
  }
  const seatCount = record.seatCount as 3 | 4;
  const seats = checkHeaderSeats(record, record.replay);
  if (seats) throw new ReplayVerifyError(`match ${record.id} does not verify: ${seats}`, null);
  const seed = record.seed;
  const events = record.replay;
  const names = Array.from({ length: seatCount }, (_, s) => record.players.find((p) => p.seat === s)?.botName ?? `seat ${s}`);

  // frames[i] is the game as it stood when the engine appended event i; the
  // last event of each input gets the state once the input is fully applied.
  const frames: Frame[] = new Array<Frame>(events.length);
  const initial = newGame(seed, seatCount);
  const board = publicView(initial).board;
  const first = snapshot(initial, seatCount);
  const opening = Math.min(events.length, gameEvents(initial).length);
  for (let i = 0; i < opening; i++) frames[i] = first;
  let settled = opening - 1;

  const result = stepReplay(
    seed, seatCount, events,
    (g, last) => {
      if (last > settled && last < events.length) frames[last] = snapshot(g, seatCount);
      settled = Math.max(settled, last);
    },
    (g, i) => {
      if (i < events.length) frames[i] = snapshot(g, seatCount);
    },
  );
  if (!result.ok) {
    const full = result.message.replace(/^event \d+: /, '');
    // The engine quotes both events; keep the message to a readable length.
    const detail = full.length > 400 ? `${full.slice(0, 400)}…` : full;
    throw new ReplayVerifyError(`match ${record.id} does not verify at event ${result.index} (${events[result.index]?.kind ?? 'past the end'}): ${detail}`, result.index);
  }
  // The replay is the engine's; the header beside it must tell the same story.
  const header = checkHeaderResult(record, events, result.outcome);
  if (header) throw new ReplayVerifyError(`match ${record.id} does not verify: ${header}`, null);
  // A verified replay has every event regenerated, so every frame is set; this only guards the invariant.
  for (let i = 1; i < events.length; i++) frames[i] ??= frames[i - 1];
  const turnOf: number[] = [];
  let turn = 0;
  for (const ev of events) {
    if (ev.kind === 'roll') turn++;
    turnOf.push(turn);
  }
  return {
    matchId: record.id, seed, seatCount, status: record.status, names, board, events, frames,
    turnOf, lastTurn: turn, outcome: result.outcome,
  };
}

/** Index of the first event of turn `turn` (its roll; 0 = the start of setup), clamped to the match. */
export function firstEventOfTurn(t: Timeline, turn: number): number {
  if (turn <= 0) return 0;
  for (let i = 0; i < t.turnOf.length; i++) if (t.turnOf[i] >= turn) return i;
  return firstEventOfTurn(t, t.lastTurn);
}
