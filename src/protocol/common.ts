// Building blocks shared by the view, action, frame and record schemas: the
// spec's bounded integers (section 3 numbering), resource names and counts.
//
// Strictness policy (applies to every schema in src/protocol):
// - What a bot SENDS us (DecisionResponse and the action inside it) tolerates
//   extra unknown fields: they are stripped before the engine sees the answer.
//   A bot that adds debugging fields must not take strikes for it.
// - What WE emit (views, DecisionRequest frames, match records, events) is
//   exact: z.strictObject, so a leak of an unexpected field (a hand, the seed,
//   the deck) fails validation in tests instead of reaching a bot.
// - ResourceCounts is a closed map everywhere: its keys ARE the data, so an
//   unknown key ("gold") means the bot misunderstood the game and is refused.
import { z } from 'zod';

export const RESOURCE_NAMES = ['brick', 'lumber', 'wool', 'grain', 'ore'] as const;
export const HEX_KIND_NAMES = [...RESOURCE_NAMES, 'desert'] as const;
export const DEV_CARD_NAMES = ['knight', 'victory_point', 'roadworks', 'windfall', 'embargo'] as const;
export const DECISION_KINDS = ['setup', 'turn', 'discard', 'bandit', 'trade'] as const;
export const STRIKE_REASONS = ['late', 'malformed', 'oversize', 'dropped', 'illegal'] as const;

/** Spec limits the schemas enforce. */
export const TALK_MAX = 240;
export const MAX_FRAME_BYTES = 65_536;

const int = () => z.number().int();
export const Count = int().min(0);
export const SeatIndex = int().min(0).max(3).describe('Seat index, 0-based (0..3).');
export const VertexId = int()
  .min(0)
  .max(53)
  .describe('Vertex id 0..53 (numbering: docs/rules.md, "1. The board"; `arena board`).');
export const EdgeId = int()
  .min(0)
  .max(71)
  .describe('Edge id 0..71 (numbering: docs/rules.md, "1. The board"; `arena board`).');
export const HexId = int().min(0).max(18).describe('Hex id 0..18, row-major.');
export const Talk = z
  .string()
  .max(TALK_MAX)
  .describe('Table talk, at most 240 characters; logged, never read by the engine.');

export const ResourceNameSchema = z.enum(RESOURCE_NAMES).describe('A resource: brick, lumber, wool, grain or ore.');
export const HexKindSchema = z.enum(HEX_KIND_NAMES).describe('What a hex produces; the desert produces nothing.');
export const DevCardNameSchema = z.enum(DEV_CARD_NAMES).describe('A development card name.');
export const DecisionKindSchema = z.enum(DECISION_KINDS).describe('Which decision is owed; fixes the answer shape.');
export const StrikeReasonSchema = z.enum(STRIKE_REASONS).describe('Why a seat took a strike.');

export const ResourceCountsSchema = z
  .strictObject({
    brick: Count.optional(),
    lumber: Count.optional(),
    wool: Count.optional(),
    grain: Count.optional(),
    ore: Count.optional(),
  })
  .describe('Resource name -> integer >= 0. Missing keys mean zero; unknown keys are refused.');

export function totalCards(counts: z.infer<typeof ResourceCountsSchema>): number {
  let n = 0;
  for (const r of RESOURCE_NAMES) n += counts[r] ?? 0;
  return n;
}

export type ResourceName = z.infer<typeof ResourceNameSchema>;
export type HexKind = z.infer<typeof HexKindSchema>;
export type DevCardName = z.infer<typeof DevCardNameSchema>;
export type DecisionKind = z.infer<typeof DecisionKindSchema>;
export type StrikeReason = z.infer<typeof StrikeReasonSchema>;
export type ResourceCounts = z.infer<typeof ResourceCountsSchema>;
