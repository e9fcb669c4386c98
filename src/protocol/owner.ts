// What a bot's owner alone may see of its matches on the server (issue 28
// part 3, issue 29 item 6): the bot's notes and its strike log with what it
// sent. Spectators and other owners see neither (public records keep only the
// strike's reason class and, after the match, the engine's code).
import { z } from 'zod';
import { DecisionKindSchema, SeatIndex, StrikeReasonSchema } from './common';
import { RejectionCodeSchema } from './events';
import { DecisionEntrySchema } from './match-header';

/** The most of a struck answer a strike keeps (the runner's ANSWER_PREVIEW_BYTES). */
export const STRIKE_ANSWER_BYTES = 200;

export const StrikeDetailSchema = z
  .strictObject({
    decisionId: z.number().int().min(1).describe('The DecisionRequest id.'),
    kind: DecisionKindSchema,
    turn: z.number().int().min(0).describe("The game's turn counter when struck (0 during setup)."),
    seat: SeatIndex,
    reason: StrikeReasonSchema,
    code: RejectionCodeSchema.optional().describe("`illegal`: the engine's rejection code."),
    message: z.string().describe('What went wrong, as `arena play --verbose` says it.'),
    answer: z
      .string()
      .optional()
      .describe(
        `The frame the bot sent (malformed, oversize, illegal): its first ${STRIKE_ANSWER_BYTES} bytes as UTF-8.`,
      ),
    answerBytes: z.number().int().min(0).optional().describe("The sent frame's full size in bytes."),
    strikes: z.number().int().min(1).describe("The seat's strikes in the match, this one included."),
  })
  .describe('One strike of a bot, with what it sent: for its owner only.');

export const BotStrikeSchema = StrikeDetailSchema.extend({
  matchId: z.string(),
  at: z.string().describe('When the match ended (ISO 8601).'),
}).describe("One strike in a bot's strike log.");

export const BotStrikePageSchema = z.strictObject({
  strikes: z
    .array(BotStrikeSchema)
    .describe('Newest first (matches in the order they ended; within a match, the last strike first).'),
  next: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
});

/** A decision that carried a note: the record's decision entry, `debug` present. */
export const DecisionNoteSchema = DecisionEntrySchema.extend({
  debug: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .describe("The bot's notes (DecisionResponse.debug), up to 2048 bytes."),
}).describe("A decision of the bot's and the note it sent with it.");

export const MatchNotesSchema = z.strictObject({
  matchId: z.string(),
  botId: z.string(),
  notes: z.array(DecisionNoteSchema).describe('The decisions that carried a note, in order.'),
  strikes: z.array(StrikeDetailSchema).describe("The bot's strikes in this match, in order."),
});

export type StrikeDetail = z.infer<typeof StrikeDetailSchema>;
export type BotStrike = z.infer<typeof BotStrikeSchema>;
export type BotStrikePage = z.infer<typeof BotStrikePageSchema>;
export type DecisionNote = z.infer<typeof DecisionNoteSchema>;
export type MatchNotes = z.infer<typeof MatchNotesSchema>;
