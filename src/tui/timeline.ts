// Every moment of a recorded match, rebuilt from its seed and replay with the
// engine: one frame per replay event. A record that does not reproduce
// exactly is refused, naming the first event that differs.
import { newGame, gameEvents, RULES_VERSION, type Game } from '../../engine/game';
import { stepReplay } from '../../engine/replay';
import { publicView, seatView } from '../../engine/view';
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

function snapshot(g: Game, seatCount: number, strikes: number[]): { frame: Frame; board: BoardView } {
  const { board, talkLog: _talk, ...pub } = publicView(g);
  const seats: SeatFrame[] = [];
  for (let s = 0; s < seatCount; s++) {
    const v = seatView(g, s);
    seats.push({ hand: v.hand, devCards: v.devCards, devBoughtThisTurn: v.devBoughtThisTurn, trueVp: v.myScore });
  }
  return { frame: { ...pub, bandit: board.bandit, strikes: strikes.slice(), seats }, board };
}

/** Rebuilds every frame of a record. Throws ReplayVerifyError when the record cannot be replayed as recorded. */
export function buildTimeline(record: MatchRecord): Timeline {
  if (record.seed === null || record.replay.length === 0) {
    throw new ReplayVerifyError(`match ${record.id} is ${record.status} and has no public seed and replay yet; replay it once it has finished`, null);
  }
  if (record.rulesVersion !== RULES_VERSION) {
    throw new ReplayVerifyError(`match ${record.id} was played under rules ${record.rulesVersion}, but this arena replays ${RULES_VERSION}; use an arena release with those rules`, null);
  }
  const seatCount = record.seatCount as 3 | 4;
  if (record.players.length !== seatCount) {
    throw new ReplayVerifyError(`match ${record.id} names ${record.players.length} players for ${seatCount} seats`, null);
  }
  const seed = record.seed;
  const events = record.replay;
  const names = Array.from({ length: seatCount }, (_, s) => record.players.find((p) => p.seat === s)?.botName ?? `seat ${s}`);

  const strikes = new Array<number>(seatCount).fill(0);
  const frames: Frame[] = [];
  const initial = newGame(seed, seatCount);
  const first = snapshot(initial, seatCount, strikes);
  const board = first.board;
  let covered = gameEvents(initial).length - 1;
  let last = first.frame;
  for (let i = 0; i <= covered && i < events.length; i++) frames.push(last);

  const result = stepReplay(seed, seatCount, events, (g, lastIndex) => {
    for (let i = covered + 1; i <= lastIndex; i++) {
      const ev = events[i];
      if (ev?.kind === 'timeout' && ev.seat !== undefined) {
        const data = ev.data as { strikes?: unknown } | undefined;
        strikes[ev.seat] = typeof data?.strikes === 'number' ? data.strikes : strikes[ev.seat] + 1;
      }
    }
    last = snapshot(g, seatCount, strikes).frame;
    for (let i = covered + 1; i <= lastIndex; i++) frames[i] = last;
    covered = Math.max(covered, lastIndex);
  });
  if (!result.ok) {
    const full = result.message.replace(/^event \d+: /, '');
    // The engine quotes both events; keep the message to a readable length.
    const detail = full.length > 400 ? `${full.slice(0, 400)}…` : full;
    throw new ReplayVerifyError(`match ${record.id} does not verify at event ${result.index} (${events[result.index]?.kind ?? 'past the end'}): ${detail}`, result.index);
  }
  // Events after the last answer (an abort's `end`) show the last state.
  for (let i = covered + 1; i < events.length; i++) frames[i] = last;
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
