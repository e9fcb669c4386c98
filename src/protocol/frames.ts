// The frames of the per-match WebSocket (spec sections 2 and 4): the arena
// sends a DecisionRequest, the bot answers with a DecisionResponse.
import { z } from 'zod';
import { DecisionKindSchema, SeatIndex } from './common';
import { PioneersViewSchema } from './view';

export const DecisionRequestSchema = z
  .strictObject({
    id: z.number().int().min(0).describe('Echo it in the answer; pairs answers with questions.'),
    matchId: z.string(),
    game: z.literal('pioneers'),
    seat: SeatIndex.describe("The bot's 0-indexed seat."),
    kind: DecisionKindSchema,
    deadlineMs: z.number().int().min(1).describe('Time allowed to answer, in milliseconds; read it from the frame.'),
    timeBankMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "Thinking time the seat has left this match (ms), before this decision; the arena's runner always sends it.",
      ),
    lastRttMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "The measured round trip of the seat's previous answer (ms: frame sent to answer received); absent on the seat's first decision and after one that got no answer.",
      ),
    // The spec makes `view` optional; the arena always sends it.
    view: PioneersViewSchema,
  })
  .describe('One decision the bot owes (arena -> bot), one text frame.');

export const DecisionResponseSchema = z
  .object({
    id: z.number().int().min(0).describe('The id of the request being answered.'),
    action: z
      .unknown()
      .describe('SetupAction, TurnAction, DiscardAction, BanditAction or TradeResponse, by the request kind.'),
    // Any value passes: a bad note is dropped, never a strike (src/runner/debug-note.ts).
    debug: z
      .unknown()
      .optional()
      .describe(
        "Optional: the bot's notes on this decision, a string or a JSON object of up to 2048 bytes (UTF-8; an object's JSON). " +
          'Longer notes are cut and marked truncated; other types are ignored; never a strike. Kept in local records for the ' +
          "bot's owner: never sent to other seats or spectators, never in a public record.",
      ),
  })
  // `action` is required: z.unknown() alone would accept a missing key.
  .refine((v) => Object.hasOwn(v, 'action'), { message: 'action is required', path: ['action'] })
  .describe('The answer to a DecisionRequest (bot -> arena). Extra fields are ignored.');

export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;
export type DecisionResponse = z.infer<typeof DecisionResponseSchema>;
