// The runner's public contract (shared with src/arena and the service).
import type { KeyObject } from 'node:crypto';
import type { Outcome, PublicView, RejectionCode } from '../../engine/index';
import type { BuiltinBotName } from '../../engine/index';
import type { DecisionKind, MatchEvent, MatchRecord, StrikeReason } from '../protocol';
import type { AddressGate } from './connect';

/** Where a seat's answers come from. A ws url may be http(s):// (upgraded to ws(s)://) or ws(s)://. */
export type SeatSource = { type: 'builtin'; bot: BuiltinBotName } | { type: 'ws'; url: string };

export interface MatchEntrant {
  botId: string;
  botName: string;
  source: SeatSource;
}

export interface RunMatchOptions {
  matchId: string;
  seed: string;
  /** 3 or 4, in any order; the engine's seatOrder(seed, n) decides who sits where. */
  entrants: MatchEntrant[];
  /** Signs every socket handshake (src/keys signBoundHandshake: the spec's headers and the audience-bound ones). */
  platformKey: KeyObject;
  /** Sent in every DecisionRequest (or the seat's time bank left, if less); default 5000. */
  deadlineMs?: number;
  /**
   * Thinking time per WebSocket seat for the whole match; default 120_000.
   * Each frame's deadlineMs is min(deadlineMs, bank left); the time from a
   * frame's send to its answer (or strike) comes out of the bank; with the
   * bank empty every decision is `late` at once. Built-in seats are not timed.
   */
  timeBankMs?: number;
  /** Default 600_000; then the match is aborted. The arena's own waits (minTurnMs) do not count. */
  wallClockMs?: number;
  /**
   * Pacing for spectators (arena serve --min-turn-ms): each game turn (setup
   * counts as turn 0) takes at least this much wall time; the runner waits
   * before the next turn's first decision. The wait is the arena's: no
   * deadline, time bank or wall clock is charged for it. Default 0 (none).
   */
  minTurnMs?: number;
  /** Abort (e.g. Ctrl-C): the match ends with status 'aborted'. */
  signal?: AbortSignal;
  /**
   * Every replay event as it happens (progress, the owner's own live view).
   * These are the full replay events: pass them through the engine's
   * publicEvent() before showing them to anyone else while the match runs.
   * Must not throw: an error here ends runMatch with that error.
   */
  onEvent?: (event: MatchEvent) => void;
  /**
   * After each batch of events (one decision round): reads the spectators'
   * public view of the position the batch leads to. Call view() only when
   * someone watches; it builds a fresh object. Must not throw.
   */
  onFlush?: (view: () => PublicView) => void;
  /**
   * Each strike as it happens, with what the bot sent (StrikeRecord.answer):
   * for the bot's owner (arena play --verbose), never for spectators. Must not throw.
   */
  onStrike?: (strike: StrikeRecord) => void;
  /**
   * The address check, run before every connect and reconnect: throws to
   * refuse the URL (production policy), or returns the address it checked,
   * and the socket then connects to exactly that address (pinned lookup).
   */
  gate?: AddressGate;
}

/** One strike as the runner saw it; `detail` says what the bot did (for reports and `bot check`). */
export interface StrikeRecord {
  decisionId: number;
  kind: DecisionKind;
  reason: StrikeReason;
  detail: string;
  /** The seat struck, and the game's turn counter then (0 during setup). */
  seat: number;
  turn: number;
  /** The seat's strikes in this match, this one included. */
  strikes: number;
  /** `illegal`: the engine's rejection code (detail is "code: message"). */
  code?: RejectionCode;
  /**
   * The frame the bot sent, when it sent one (malformed, oversize, illegal):
   * its first ANSWER_PREVIEW_BYTES bytes as UTF-8, and its size. For the bot's
   * owner only (arena play --verbose): never in the replay or a public stream.
   */
  answer?: string;
  answerBytes?: number;
}

export interface SeatStats {
  seat: number;
  botId: string;
  botName: string;
  strikes: Record<StrikeReason, number>;
  resigned: boolean;
  /** Decisions sent to the seat (not counting defaults played after it resigned). */
  decisions: number;
  /** One per answered decision: request sent -> valid frame received. */
  latenciesMs: number[];
  /** Every strike, in order, with what went wrong (e.g. the engine's rejection code). */
  strikeLog: StrikeRecord[];
  /** WebSocket seats: connection attempts (1 + reconnects, failed attempts included). 0 for built-in seats. */
  connections: number;
  /** Time the seat spent on its decisions (frame sent -> answer or strike), in ms; what came out of its time bank. */
  timeUsedMs: number;
  /** Frames the seat sent that answered no pending decision. */
  unrequestedFrames: number;
  /** The seat's slowest decision (ms, answer or strike; 0 if none). */
  slowestMs: number;
}

export interface MatchResult {
  match: MatchRecord;
  outcome: Outcome | null;
  seats: SeatStats[];
}
