// Plays one match: the engine plus one seat per entrant. Each round asks every
// pending decision at once (simultaneous discards and trade responses go out
// together), applies the answers in seat order, strikes what a bot got wrong,
// and streams the engine's events. A bot can only cost itself strikes.
import {
  abortGame, createBuiltinBot, defaultAction, gameEvents, isOver, newGame, outcome as gameOutcome,
  pendingDecisions, recordStrike, resignSeat, RULES_VERSION, seatOrder, seatView, submit,
  type BuiltinBot, type Game,
} from '../../engine';
import type { Outcome, PendingDecision } from '../../engine/types';
import { parseAction, type DecisionRequest, type MatchRecord, type StrikeReason } from '../protocol';
import { EventLog } from './event-log';
import { RequestFrameWriter } from './request-frame';
import { emptySeatStats, totalStrikes } from './seat-stats';
import { StopSignal } from './stop-signal';
import type { MatchEntrant, MatchResult, RunMatchOptions, SeatStats } from './types';
import { WsSeat, type SeatAnswer } from './ws-seat';

export const DEFAULT_DEADLINE_MS = 5000;
export const DEFAULT_WALL_CLOCK_MS = 600_000;
export const STRIKES_TO_RESIGN = 3;
/** Built-in-only rounds run synchronously; yield this often so the wall clock and Ctrl-C can fire. */
const YIELD_EVERY_ROUNDS = 64;

interface Seat {
  stats: SeatStats;
  ws: WsSeat | null;
  builtin: BuiltinBot | null;
}

export async function runMatch(opts: RunMatchOptions): Promise<MatchResult> {
  checkOptions(opts);
  const deadlineMs = opts.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const seatCount = opts.entrants.length as 3 | 4;
  const startedAt = new Date().toISOString();
  const g = newGame(opts.seed, seatCount);
  const seats = seatOrder(opts.seed, seatCount).map((entrantIndex, seat) => makeSeat(opts, opts.entrants[entrantIndex], seat));
  const log = new EventLog(opts.onEvent);
  const stop = new StopSignal(opts.wallClockMs ?? DEFAULT_WALL_CLOCK_MS, opts.signal);
  const closing: Promise<void>[] = [];
  const frames = new RequestFrameWriter();
  for (const s of seats) s.ws?.preconnect(deadlineMs);
  let nextId = 1;
  let syncRounds = 0;

  try {
    log.flush(gameEvents(g));
    while (!isOver(g) && !stop.reason) {
      const pending = [...pendingDecisions(g)].sort((a, b) => a.seat - b.seat);
      if (pending.length === 0) throw new Error('engine reports no pending decision for a game that is not over');
      // Every decision gets an id, built-in ones too, so strike logs can name it.
      const ids = pending.map(() => nextId++);
      const asks: Array<SeatAnswer | Promise<SeatAnswer> | null> = pending.map((d, i) => {
        const seat = seats[d.seat];
        if (seat.stats.resigned) return null;
        seat.stats.decisions++;
        if (seat.builtin) return askBuiltin(seat.builtin, g, d.seat);
        const request: DecisionRequest = {
          id: ids[i], matchId: opts.matchId, game: 'pioneers', seat: d.seat, kind: d.kind, deadlineMs, view: seatView(g, d.seat),
        };
        return seat.ws!.ask(request.id, frames.write(request), deadlineMs);
      });
      let answers: Array<SeatAnswer | null>;
      if (asks.some((a) => a instanceof Promise)) {
        syncRounds = 0;
        const all = await new Promise<Array<SeatAnswer | null> | null>((resolve) => {
          stop.onStop = () => resolve(null);
          if (stop.reason) resolve(null);
          void Promise.all(asks).then(resolve);
        });
        stop.onStop = null;
        if (!all) break;
        answers = all;
      } else {
        answers = asks as Array<SeatAnswer | null>;
        if (++syncRounds % YIELD_EVERY_ROUNDS === 0) await new Promise((r) => setImmediate(r));
      }
      pending.forEach((d, i) => {
        const seat = seats[d.seat];
        const answer = answers[i];
        if (answer) applyAnswer(g, seat, d, answer, ids[i], closing);
        else playDefault(g, d.seat);
      });
      log.flush(gameEvents(g));
    }
    if (!isOver(g)) {
      abortGame(g);
      log.flush(gameEvents(g));
    }
  } finally {
    stop.dispose();
    for (const s of seats) if (s.ws) closing.push(s.ws.close());
    await Promise.all(closing);
    for (const s of seats) if (s.ws) s.stats.connections = s.ws.connections;
  }

  const result = gameOutcome(g);
  return {
    match: buildRecord(opts, seatCount, seats, result, startedAt, log),
    outcome: result,
    seats: seats.map((s) => s.stats),
  };
}

function makeSeat(opts: RunMatchOptions, entrant: MatchEntrant, seat: number): Seat {
  const stats = emptySeatStats(seat, entrant.botId, entrant.botName);
  if (entrant.source.type === 'builtin') {
    return { stats, ws: null, builtin: createBuiltinBot(entrant.source.bot, `${opts.seed}:${seat}`) };
  }
  const ws = new WsSeat({ url: entrant.source.url, matchId: opts.matchId, platformKey: opts.platformKey, checkUrl: opts.checkUrl });
  return { stats, ws, builtin: null };
}

function askBuiltin(bot: BuiltinBot, g: Game, seat: number): SeatAnswer {
  const t0 = performance.now();
  const action = bot.decide(g, seat);
  return { ok: true, action, latencyMs: performance.now() - t0 };
}

function applyAnswer(g: Game, seat: Seat, d: PendingDecision, answer: SeatAnswer, decisionId: number, closing: Promise<void>[]): void {
  if (!answer.ok) {
    strike(g, seat, d, answer.reason, answer.detail, decisionId, closing);
    return;
  }
  seat.stats.latenciesMs.push(answer.latencyMs);
  // Shape first (strips extra fields a bot may add); then the engine judges legality.
  const parsed = parseAction(d.kind, answer.action);
  if (!parsed.ok) {
    strike(g, seat, d, 'illegal', `bad_shape: ${parsed.message}`, decisionId, closing, 'bad_shape');
    return;
  }
  const r = submit(g, d.seat, parsed.action);
  if (!r.ok) strike(g, seat, d, 'illegal', `${r.reason.code}: ${r.reason.message}`, decisionId, closing, r.reason.code);
}

function strike(g: Game, seat: Seat, d: PendingDecision, reason: StrikeReason, detail: string, decisionId: number, closing: Promise<void>[], code?: string): void {
  const stats = seat.stats;
  stats.strikes[reason]++;
  stats.strikeLog.push({ decisionId: decisionId, kind: d.kind, reason, detail });
  const total = totalStrikes(stats);
  // The replay says why an answer was refused (engine code, or what was wrong with the frame).
  // Connection details stay out: they can name the bot's host, and replays become public.
  const publicDetail = reason === 'illegal' || reason === 'malformed' ? { code, message: detail.slice(0, 200) } : undefined;
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
  opts: RunMatchOptions, seatCount: 3 | 4, seats: Seat[], result: Outcome | null, startedAt: string, log: EventLog,
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
    replay: log.events,
    rulesVersion: RULES_VERSION,
    seatCount,
    vp: result ? result.vp : null,
  };
}

/** Programmer errors only: a bot can never make runMatch throw. */
function checkOptions(opts: RunMatchOptions): void {
  const n = opts.entrants.length;
  if (n !== 3 && n !== 4) throw new RangeError(`runMatch: a match seats 3 or 4 entrants, got ${n}`);
  if (!opts.matchId) throw new TypeError('runMatch: matchId must be a non-empty string');
  for (const [name, v] of [['deadlineMs', opts.deadlineMs], ['wallClockMs', opts.wallClockMs]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw new RangeError(`runMatch: ${name} must be a positive integer, got ${v}`);
  }
  for (const e of opts.entrants) {
    if (e.source.type === 'builtin' && e.source.bot !== 'random' && e.source.bot !== 'greedy') {
      throw new RangeError(`runMatch: unknown built-in bot "${String(e.source.bot)}"`);
    }
  }
}
