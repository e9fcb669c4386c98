// The runner's public contract (shared with src/arena and the service).
import type { KeyObject } from 'node:crypto';
import type { Outcome } from '../../engine/types';
import type { DecisionKind, MatchEvent, MatchRecord, StrikeReason } from '../protocol';

/** Where a seat's answers come from. A ws url may be http(s):// (upgraded to ws(s)://) or ws(s)://. */
export type SeatSource = { type: 'builtin'; bot: 'random' | 'greedy' } | { type: 'ws'; url: string };

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
  /** Signs every socket handshake (src/keys signHandshake). */
  platformKey: KeyObject;
  /** Sent in every DecisionRequest; default 5000. */
  deadlineMs?: number;
  /** Default 600_000; then the match is aborted. */
  wallClockMs?: number;
  /** Abort (e.g. Ctrl-C): the match ends with status 'aborted'. */
  signal?: AbortSignal;
  /**
   * Every replay event as it happens (progress, the owner's own live view).
   * These are the full replay events: pass them through the engine's
   * publicEvent() before showing them to anyone else while the match runs.
   * Must not throw: an error here ends runMatch with that error.
   */
  onEvent?: (event: MatchEvent) => void;
  /** Called before every connect; throws to refuse the URL (production policy). */
  checkUrl?: (url: string) => Promise<void> | void;
}

/** One strike as the runner saw it; `detail` says what the bot did (for reports and `bot check`). */
export interface StrikeRecord {
  decisionId: number;
  kind: DecisionKind;
  reason: StrikeReason;
  detail: string;
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
}

export interface MatchResult {
  match: MatchRecord;
  outcome: Outcome | null;
  seats: SeatStats[];
}
