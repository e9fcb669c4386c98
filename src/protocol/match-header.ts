// The parts of a match record apart from its events, in a module that does not
// build the event schemas: `arena replay` checks a record's header with these
// and leaves the events to the engine's verifying replay (src/tui/load.ts),
// so it starts without paying for schemas it would not use.
import { z } from 'zod';
import { DecisionKindSchema, SeatIndex } from './common';

export const MatchStatusSchema = z.enum(['running', 'completed', 'aborted']);

export const MatchPlayerSchema = z
  .strictObject({
    seat: SeatIndex,
    botId: z.string(),
    botName: z.string(),
    placement: z
      .number()
      .int()
      .min(1)
      .max(4)
      .nullable()
      .describe('1-based; ties share; null while running or when aborted.'),
    ratingDelta: z.number().nullable().describe('Shown rating after minus before, once the match completes.'),
    version: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("The bot's version that played (server matches; absent in older records and for built-in bots)."),
  })
  .describe('One seat of a match.');

export const summaryShape = {
  id: z.string(),
  game: z.literal('pioneers'),
  status: MatchStatusSchema,
  players: z.array(MatchPlayerSchema).min(3).max(4),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  qualification: z
    .literal(true)
    .optional()
    .describe("A bot's qualifier: one unrated match against the server's built-in bots (absent otherwise)."),
  rated: z
    .boolean()
    .optional()
    .describe(
      'false: played but changed no rating (a qualifier, a challenge, or two bots of one owner at the table under `serve --same-owner avoid`). Absent means true; an aborted match changes no rating either way.',
    ),
  challenge: z
    .string()
    .optional()
    .describe(
      'Set when the match was played for a challenge (GET /challenges): the challenge id. Such a match is unrated. Absent for matchmaking.',
    ),
};

export const seedShape = {
  seed: z.string().nullable().describe('Null while the match runs.'),
};

/**
 * One decision the arena asked for (built-in seats included; not the defaults
 * played for a resigned seat): its time, and the bot's notes in local records.
 */
export const DecisionEntrySchema = z
  .strictObject({
    id: z.number().int().min(1).describe('The DecisionRequest id.'),
    seat: SeatIndex,
    kind: DecisionKindSchema,
    seq: z
      .number()
      .int()
      .min(0)
      .describe("The seq of the first replay event the decision's answer (or its default) led to."),
    ms: z
      .number()
      .int()
      .min(0)
      .describe('Time the decision took (ms): frame sent to answer, strike or timeout; built-in seats: thinking time.'),
    timeBankMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("The frame's timeBankMs, as sent (WebSocket seats that were sent a frame)."),
    lastRttMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("The frame's lastRttMs, as sent (absent when the frame had none)."),
    debug: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .describe(
        "The bot's notes (DecisionResponse.debug), up to 2048 bytes. Local records only: a public record has none.",
      ),
    debugTruncated: z
      .literal(true)
      .optional()
      .describe('The note was longer: `debug` is its first 2048 bytes as text.'),
  })
  .describe("One decision of a match: who, what kind, its time, and the bot's notes (local records).");

/** What MatchRecord adds to Match. */
export const recordExtraShape = {
  rulesVersion: z.string().describe("The engine's rules version; an old replay is never judged by new rules."),
  seatCount: z.number().int().min(3).max(4),
  vp: z
    .array(z.number().int().min(0))
    .min(3)
    .max(4)
    .nullable()
    .describe('True VP per seat at the end; null if aborted.'),
  timeUsedMs: z
    .array(z.number().int().min(0))
    .min(3)
    .max(4)
    .optional()
    .describe("Thinking time per seat (ms): what came out of each seat's time bank. Absent in older records."),
  decisions: z
    .array(DecisionEntrySchema)
    .optional()
    .describe('Every decision asked, in order, with its time (and notes in local records). Absent in older records.'),
};

/** A MatchRecord whose replay is only known to be an array: its events are for the engine to check. */
export const MatchRecordHeaderSchema = z.strictObject({
  ...summaryShape,
  ...seedShape,
  replay: z.array(z.unknown()),
  ...recordExtraShape,
});
