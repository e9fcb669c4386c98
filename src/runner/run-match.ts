// Plays one match: the engine plus one seat per entrant. Each round asks every
// pending decision at once (simultaneous discards and trade responses go out
// together), applies the answers in seat order, strikes what a bot got wrong,
// and streams the engine's events. A bot can only cost itself strikes.
import {
  abortGame,
  BUILTIN_BOTS,
  currentTurn,
  createBuiltinBot,
  defaultAction,
  gameEvents,
  isOver,
  newGame,
  outcome as gameOutcome,
  pendingDecisions,
  publicView,
  recordStrike,
  releaseEvents,
  resignSeat,
  RULES_VERSION,
  seatOrder,
  submit,
  type BuiltinBot,
  type Game,
  type StrikeDetail,
} from '../../engine';
import type { Outcome, PendingDecision } from '../../engine/index';
import type { DecisionEntry, MatchRecord, StrikeReason } from '../protocol';
import { judgeAction } from './answer-frame';
import { boundDebugNote } from './debug-note';
import { EventLog } from './event-log';
import { SeatFrameWriter } from './seat-frame';
import { emptySeatStats, totalStrikes } from './seat-stats';
import { StopSignal } from './stop-signal';
import type { MatchEntrant, MatchResult, RunMatchOptions, SeatStats, StrikeRecord } from './types';
import { WsSeat, type SeatAnswer } from './ws-seat';

export const DEFAULT_DEADLINE_MS = 5000;
/** Thinking time per WebSocket seat per match (docs/decisions.md): a match of slow but legal bots still ends. */
export const DEFAULT_TIME_BANK_MS = 120_000;
export const DEFAULT_WALL_CLOCK_MS = 600_000;
export const STRIKES_TO_RESIGN = 3;
/** How much of a struck answer StrikeRecord.answer keeps. */
export const ANSWER_PREVIEW_BYTES = 200;
/** Built-in-only rounds run synchronously; yield this often so the wall clock and Ctrl-C can fire. */
const YIELD_EVERY_ROUNDS = 64;

interface Seat {
  stats: SeatStats;
  ws: WsSeat | null;
  builtin: BuiltinBot | null;
  /** WebSocket seats: thinking time left this match, in ms. */
  bankLeftMs: number;
  /** WebSocket seats: the round and slot of the decision asked now (read by onAnswer). */
  round: Round | null;
  slot: number;
  /** WebSocket seats: one answer callback for the whole match, not a closure per decision. */
  onAnswer: ((answer: SeatAnswer) => void) | null;
  /**
   * WebSocket seats: the round trip of the previous answer (whole ms), sent as lastRttMs; undefined before the first or
   * after no answer.
   */
  lastRttMs: number | undefined;
  /** The timeBankMs and lastRttMs of the frame asked now, for the record (-1 / undefined: no frame sent). */
  sentBankMs: number;
  sentRttMs: number | undefined;
}

export async function runMatch(opts: RunMatchOptions): Promise<MatchResult> {
  checkOptions(opts);
  const deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const seatCount = opts.entrants.length as 3 | 4;
  const startedAt = new Date().toISOString();
  const g = newGame(opts.seed, seatCount);
  const timeBankMs = opts.timeBankMs ?? DEFAULT_TIME_BANK_MS;
  const seats = seatOrder(opts.seed, seatCount).map((entrantIndex, seat) =>
    makeSeat(opts, opts.entrants[entrantIndex], seat, timeBankMs),
  );
  const onFlush = opts.onFlush;
  const log = new EventLog(opts.onEvent, onFlush && (() => onFlush(() => publicView(g))));
  const stop = new StopSignal(opts.wallClockMs ?? DEFAULT_WALL_CLOCK_MS, opts.signal);
  const closing: Promise<void>[] = [];
  const frames = new SeatFrameWriter();
  const decisions: DecisionEntry[] = [];
  for (const s of seats) s.ws?.preconnect(deadlineMs);
  try {
    log.flush(gameEvents(g));
    await playRounds({
      g,
      seats,
      log,
      stop,
      frames,
      closing,
      decisions,
      matchId: opts.matchId,
      deadlineMs,
      minTurnMs: opts.minTurnMs ?? 0,
      onStrike: opts.onStrike,
    });
    if (!isOver(g)) {
      abortGame(g);
      log.flush(gameEvents(g));
    }
  } finally {
    stop.dispose();
    for (const s of seats) if (s.ws) closing.push(s.ws.close());
    await Promise.all(closing);
    for (const s of seats) {
      if (!s.ws) continue;
      s.stats.connections = s.ws.connections;
      s.stats.unrequestedFrames = s.ws.unrequested;
    }
  }

  const result = gameOutcome(g);
  const match = buildRecord(opts, seatCount, seats, result, startedAt, log, decisions);
  // The replay holds what it needs of the events; the game goes now, and should not keep them alive.
  releaseEvents(g);
  return {
    match,
    outcome: result,
    seats: seats.map((s) => s.stats),
  };
}

interface MatchState {
  g: Game;
  seats: Seat[];
  log: EventLog;
  stop: StopSignal;
  frames: SeatFrameWriter;
  closing: Promise<void>[];
  /** The record's per-decision entries, appended as decisions are applied. */
  decisions: DecisionEntry[];
  matchId: string;
  deadlineMs: number;
  minTurnMs: number;
  onStrike?: (strike: StrikeRecord) => void;
}

/** One round: every pending decision, asked at once. */
interface Round {
  pending: readonly PendingDecision[];
  firstId: number;
  answers: Array<SeatAnswer | null>;
  /** Socket answers still owed, plus one while the round is still being sent. */
  waiting: number;
}

/**
 * Plays rounds until the game is over or the stop fires. When a round's last
 * socket answer arrives, the round is applied and the next one sent straight
 * from the socket's message handler: no promise or timer per decision.
 * Built-in-only stretches run synchronously and yield every so often.
 */
function playRounds(m: MatchState): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let nextId = 1;
    let syncRounds = 0;
    let finished = false;
    // Pacing (minTurnMs): the turn being played and when it began; the pause before the next turn's events.
    let turn = currentTurn(m.g);
    let turnBegan = performance.now();
    let pause: NodeJS.Timeout | null = null;
    const finish = (err?: unknown) => {
      if (finished) return;
      finished = true;
      if (pause) clearTimeout(pause);
      m.stop.onStop = null;
      if (err === undefined) resolve();
      else reject(err);
    };
    m.stop.onStop = () => finish();

    const send = (): Round => {
      const engineOrder = pendingDecisions(m.g);
      if (engineOrder.length === 0) throw new Error('engine reports no pending decision for a game that is not over');
      const pending = engineOrder.length === 1 ? engineOrder : [...engineOrder].sort((a, b) => a.seat - b.seat);
      // Every decision gets an id, built-in ones too, so strike logs can name it.
      const round: Round = {
        pending,
        firstId: nextId,
        answers: new Array<SeatAnswer | null>(pending.length).fill(null),
        waiting: 1,
      };
      nextId += pending.length;
      for (let i = 0; i < pending.length; i++) {
        const d = pending[i];
        const seat = m.seats[d.seat];
        if (seat.stats.resigned) continue;
        seat.stats.decisions++;
        if (seat.builtin) {
          round.answers[i] = askBuiltin(seat.builtin, m.g, d.seat);
          continue;
        }
        // The time bank: a frame never allows more than the bank has left; an empty bank is late at once.
        const deadlineMs = Math.min(m.deadlineMs, Math.floor(seat.bankLeftMs));
        if (deadlineMs < 1) {
          seat.sentBankMs = -1;
          round.answers[i] = {
            ok: false,
            reason: 'late',
            detail: 'time bank empty: no thinking time left this match',
            spentMs: 0,
          };
          continue;
        }
        // The DecisionRequest { id, matchId, game, seat, kind, deadlineMs, view: seatView(g, seat) },
        // encoded straight from the game state (seat-frame.ts, the view by engine/view-bytes.ts): no view object is
        // built.
        const id = round.firstId + i;
        round.waiting++;
        seat.round = round;
        seat.slot = i;
        seat.onAnswer ??= (answer) => {
          // A seat has one decision pending at a time, so round and slot are those of this answer.
          const r = seat.round!;
          r.answers[seat.slot] = answer;
          if (--r.waiting === 0) answered(r);
        };
        seat.sentBankMs = Math.floor(seat.bankLeftMs);
        seat.sentRttMs = seat.lastRttMs;
        const frame = m.frames.encode(id, m.matchId, d.seat, d.kind, deadlineMs, m.g, seat.sentBankMs, seat.sentRttMs);
        seat.ws!.askThen(id, frame, deadlineMs, seat.onAnswer);
      }
      round.waiting--;
      return round;
    };

    /** Applies a round's answers; true when its events wait for the turn's minimum (pacing), and run() with them. */
    const apply = (round: Round): boolean => {
      for (let i = 0; i < round.pending.length; i++) {
        const d = round.pending[i];
        const answer = round.answers[i];
        if (answer) {
          const seat = m.seats[d.seat];
          spendTime(seat, answer);
          const entry = decisionEntry(round.firstId + i, d, answer, gameEvents(m.g).length, seat);
          applyAnswer(m, seat, d, answer, round.firstId + i);
          m.decisions.push(entry);
        } else playDefault(m.g, d.seat);
      }
      if (m.minTurnMs > 0 && paced()) return true;
      m.log.flush(gameEvents(m.g));
      return false;
    };

    /**
     * minTurnMs: when the round started a new turn (the engine rolls for it at
     * once) before the last turn's minimum is up, holds the round's events
     * back until it is, so spectators see each turn's roll at least minTurnMs
     * after the one before; then plays on. True when it holds them.
     */
    const paced = (): boolean => {
      const t = currentTurn(m.g);
      if (t === turn) return false;
      const now = performance.now();
      const waitMs = turnBegan + m.minTurnMs - now;
      turn = t;
      turnBegan = Math.max(now, turnBegan + m.minTurnMs);
      if (waitMs <= 0) return false;
      m.stop.extend(waitMs);
      const resume = () => {
        // A timer may fire a millisecond early: wait again until the minimum has truly passed.
        const left = turnBegan - performance.now();
        if (left > 0) {
          pause = setTimeout(resume, Math.ceil(left));
          return;
        }
        pause = null;
        syncRounds = 0;
        // The turn begins when spectators see it (a late timer must not shorten the next one).
        turnBegan = performance.now();
        try {
          m.log.flush(gameEvents(m.g));
        } catch (err) {
          finish(err);
          return;
        }
        run();
      };
      pause = setTimeout(resume, Math.ceil(waitMs));
      return true;
    };

    /** Plays rounds until one has to wait for sockets or pacing (or the match is done). */
    const run = (): void => {
      try {
        while (!finished) {
          if (isOver(m.g) || m.stop.reason) return finish();
          const round = send();
          if (round.waiting > 0) return; // continues in answered()
          if (apply(round)) return; // continues after the pause
          if (++syncRounds % YIELD_EVERY_ROUNDS === 0) {
            // Let the wall clock and Ctrl-C fire.
            setImmediate(run);
            return;
          }
        }
      } catch (err) {
        finish(err);
      }
    };

    /** The last socket answer of a round arrived (called from the socket's handlers). */
    const answered = (round: Round): void => {
      if (finished) return;
      syncRounds = 0;
      try {
        if (apply(round)) return;
      } catch (err) {
        finish(err);
        return;
      }
      run();
    };

    run();
  });
}

function makeSeat(opts: RunMatchOptions, entrant: MatchEntrant, seat: number, timeBankMs: number): Seat {
  const stats = emptySeatStats(seat, entrant.botId, entrant.botName);
  if (entrant.source.type === 'builtin') {
    return {
      stats,
      ws: null,
      builtin: createBuiltinBot(entrant.source.bot, `${opts.seed}:${seat}`),
      bankLeftMs: timeBankMs,
      round: null,
      slot: 0,
      onAnswer: null,
      lastRttMs: undefined,
      sentBankMs: -1,
      sentRttMs: undefined,
    };
  }
  const ws = new WsSeat({
    url: entrant.source.url,
    matchId: opts.matchId,
    platformKey: opts.platformKey,
    gate: opts.gate,
  });
  return {
    stats,
    ws,
    builtin: null,
    bankLeftMs: timeBankMs,
    round: null,
    slot: 0,
    onAnswer: null,
    lastRttMs: undefined,
    sentBankMs: -1,
    sentRttMs: undefined,
  };
}

/** Charges a decision's time to the seat: recorded for every seat, taken from the bank of socket seats. */
function spendTime(seat: Seat, answer: SeatAnswer): void {
  const spent = answer.ok ? answer.latencyMs : answer.spentMs;
  seat.stats.timeUsedMs += spent;
  if (spent > seat.stats.slowestMs) seat.stats.slowestMs = spent;
  if (seat.ws) {
    seat.bankLeftMs = Math.max(0, seat.bankLeftMs - spent);
    // A frame that arrived (an answer, or one struck as malformed/illegal/oversize) has a round trip; a timeout or drop
    // has none.
    seat.lastRttMs = answer.ok || answer.frame ? Math.round(spent) : undefined;
  }
}

/**
 * The record's entry for one decision; `seq` is the number of events before
 * its answer is applied. A socket seat's entry keeps the frame's timing fields
 * as sent, so the frame can be rebuilt byte for byte (src/arena/recorded-requests.ts).
 */
function decisionEntry(id: number, d: PendingDecision, answer: SeatAnswer, seq: number, seat: Seat): DecisionEntry {
  const entry: DecisionEntry = {
    id,
    seat: d.seat,
    kind: d.kind,
    seq,
    ms: Math.round(answer.ok ? answer.latencyMs : answer.spentMs),
  };
  if (seat.ws && seat.sentBankMs >= 0) {
    entry.timeBankMs = seat.sentBankMs;
    if (seat.sentRttMs !== undefined) entry.lastRttMs = seat.sentRttMs;
  }
  const note = answer.ok && answer.debug !== undefined ? boundDebugNote(answer.debug) : undefined;
  return note ? { ...entry, ...note } : entry;
}

function askBuiltin(bot: BuiltinBot, g: Game, seat: number): SeatAnswer {
  const t0 = performance.now();
  const action = bot.decide(g, seat);
  return { ok: true, action, latencyMs: performance.now() - t0 };
}

function applyAnswer(m: MatchState, seat: Seat, d: PendingDecision, answer: SeatAnswer, decisionId: number): void {
  if (!answer.ok) {
    strike(m, seat, d, answer.reason, answer.detail, decisionId, undefined, answer.frame);
    return;
  }
  seat.stats.latenciesMs.push(answer.latencyMs);
  // Shape and rules in one judge, the same as `arena bot check` (answer-frame.ts).
  const v = judgeAction(m.g, d.seat, answer.action);
  if (v.type === 'illegal') strike(m, seat, d, 'illegal', v.detail, decisionId, v.code, answer.frame);
}

function strike(
  m: MatchState,
  seat: Seat,
  d: PendingDecision,
  reason: StrikeReason,
  detail: string,
  decisionId: number,
  code?: StrikeDetail['code'],
  frame?: Buffer,
): void {
  const { g, closing } = m;
  const stats = seat.stats;
  stats.strikes[reason]++;
  const total = totalStrikes(stats);
  const record: StrikeRecord = { decisionId, kind: d.kind, reason, detail, seat: d.seat, turn: g.turn, strikes: total };
  if (code !== undefined) record.code = code;
  if (frame) {
    record.answer = frame.subarray(0, ANSWER_PREVIEW_BYTES).toString('utf8');
    record.answerBytes = frame.length;
  }
  stats.strikeLog.push(record);
  m.onStrike?.(record);
  // The replay says why an answer was refused (engine code, or what was wrong with the frame).
  // Connection details stay out: they can name the bot's host, and replays become public.
  const publicDetail =
    reason === 'illegal' || reason === 'malformed' ? { code, message: detail.slice(0, 200) } : undefined;
  recordStrike(g, d.seat, reason, total, d.kind, publicDetail);
  playDefault(g, d.seat);
  if (total >= STRIKES_TO_RESIGN) {
    resignSeat(g, d.seat);
    stats.resigned = true;
    if (seat.ws) closing.push(seat.ws.close());
  }
}

function playDefault(g: Game, seat: number): void {
  const r = submit(g, seat, defaultAction(g, seat));
  if (!r.ok) throw new Error(`engine refused its own default for seat ${seat}: ${r.reason.code} ${r.reason.message}`);
}

function buildRecord(
  opts: RunMatchOptions,
  seatCount: 3 | 4,
  seats: Seat[],
  result: Outcome | null,
  startedAt: string,
  log: EventLog,
  decisions: DecisionEntry[],
): MatchRecord {
  return {
    id: opts.matchId,
    game: 'pioneers',
    status: result ? 'completed' : 'aborted',
    players: seats.map((s) => ({
      seat: s.stats.seat,
      botId: s.stats.botId,
      botName: s.stats.botName,
      placement: result ? result.placements[s.stats.seat] : null,
      ratingDelta: null,
    })),
    startedAt,
    endedAt: new Date().toISOString(),
    seed: opts.seed,
    replay: log.events(),
    rulesVersion: RULES_VERSION,
    seatCount,
    vp: result ? result.vp : null,
    timeUsedMs: seats.map((s) => Math.round(s.stats.timeUsedMs)),
    decisions,
  };
}

/** Programmer errors only: a bot can never make runMatch throw. */
function checkOptions(opts: RunMatchOptions): void {
  const n = opts.entrants.length;
  if (n !== 3 && n !== 4) throw new RangeError(`runMatch: a match seats 3 or 4 entrants, got ${n}`);
  if (!opts.matchId) throw new TypeError('runMatch: matchId must be a non-empty string');
  for (const [name, v] of [
    ['deadlineMs', opts.deadlineMs],
    ['wallClockMs', opts.wallClockMs],
    ['timeBankMs', opts.timeBankMs],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new RangeError(`runMatch: ${name} must be a positive integer, got ${v}`);
  }
  if (opts.minTurnMs !== undefined && (!Number.isInteger(opts.minTurnMs) || opts.minTurnMs < 0))
    throw new RangeError(`runMatch: minTurnMs must be a non-negative integer, got ${opts.minTurnMs}`);
  for (const e of opts.entrants) {
    if (e.source.type === 'builtin' && !(BUILTIN_BOTS as readonly string[]).includes(e.source.bot)) {
      throw new RangeError(`runMatch: unknown built-in bot "${String(e.source.bot)}"`);
    }
  }
}
