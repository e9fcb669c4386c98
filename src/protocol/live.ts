// The live stream of a match (GET /matches/{id}/live, Server-Sent Events):
// the data of each message type. The service writes them (src/service/live),
// `arena watch` and the dashboard read them. Only public information: the
// view is the spectators' PublicView, events are PublicMatchEvents.
//
//   snapshot  first message of a fresh connection: header, position, recent events
//   event     one replay event in public form; the SSE id is its seq
//   view      the position after a batch of events (one decision round)
//   end       how the match ended; the stream closes after it
import { z } from 'zod';
import { MatchPlayerSchema, MatchStatusSchema } from './match';
import { PublicMatchEventSchema } from './events';
import { PublicViewSchema } from './view';

const Seq = z.number().int().min(-1).describe('Seq of the last event the message accounts for; -1 before any.');

/** The match as the stream names it: never its seed or replay. Finished matches may carry more record fields. */
export const LiveMatchHeaderSchema = z
  .object({
    id: z.string(),
    game: z.literal('pioneers'),
    status: MatchStatusSchema,
    players: z.array(MatchPlayerSchema).min(3).max(4),
    startedAt: z.string(),
  })
  .describe('The match a live stream follows.');

export const LiveSnapshotSchema = z
  .object({
    match: LiveMatchHeaderSchema,
    seq: Seq,
    view: PublicViewSchema.nullable().describe('The position after event `seq`; null before the first one.'),
    recent: z.array(PublicMatchEventSchema).describe('The last events up to `seq`, oldest first (a bounded window).'),
    strikes: z.array(z.number().int().min(0)).min(3).max(4).optional().describe('Strikes per seat so far.'),
  })
  .describe('First message of a new connection.');

export const LiveViewMessageSchema = z
  .object({ seq: Seq, view: PublicViewSchema })
  .describe('The position after event `seq`.');

export const LiveEndSchema = z
  .object({
    id: z.string(),
    status: MatchStatusSchema,
    players: z.array(MatchPlayerSchema).min(3).max(4),
    endedAt: z.string().nullable(),
  })
  .describe('The match is over (placements and rating deltas when completed); the stream closes.');

export type LiveMatchHeaderData = z.infer<typeof LiveMatchHeaderSchema>;
export type LiveSnapshot = z.infer<typeof LiveSnapshotSchema>;
export type LiveViewMessage = z.infer<typeof LiveViewMessageSchema>;
export type LiveEnd = z.infer<typeof LiveEndSchema>;

/** One parsed message of the stream. */
export type LiveMessage =
  | { type: 'snapshot'; data: LiveSnapshot }
  | { type: 'event'; data: z.infer<typeof PublicMatchEventSchema> }
  | { type: 'view'; data: LiveViewMessage }
  | { type: 'end'; data: LiveEnd };

// How a client follows the stream (src/client/live.ts implements it; the TUI takes it injected).
export type LiveConnection =
  | { state: 'connecting'; attempt: number }
  | { state: 'open' }
  /** Lost (or could not open) the stream; the next attempt comes after delayMs. */
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string };

export interface FollowLiveOptions {
  baseUrl: string;
  matchId: string;
  onMessage: (msg: LiveMessage) => void;
  onConnection?: (c: LiveConnection) => void;
  signal?: AbortSignal;
  /** Wait before the first reconnect (default 500 ms); doubles per failure up to maxRetryMs (default 10 s). */
  retryMs?: number;
  maxRetryMs?: number;
  /** Give up after this many failed attempts in a row (default: never). */
  maxAttempts?: number;
  fetch?: typeof fetch;
}

/** Follows a match until `end`; src/client/live.ts followLive. */
export type FollowLive = (opts: FollowLiveOptions) => Promise<LiveEnd>;
