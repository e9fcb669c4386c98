// Answer shapes a bot sends (spec section 2, "Action shapes"). Extra unknown
// fields are tolerated and stripped (see common.ts); bounds are the spec's.
// The engine's shape check (engine/shape.ts) accepts exactly what these
// schemas accept (test/protocol/answer-agreement.test.ts): optional fields are
// absent, never null; ResourceCounts keys are closed and counts are at most
// 1000; a windfall takes exactly 2 cards; talk is at most 240 characters.
// Rules that need the game state (costs, connectivity, offers per turn, a
// roadworks naming one edge twice) are the engine's job: it rejects with a
// reason and the runner strikes `illegal`, as it does for a wrong shape.
import { z } from 'zod';
import {
  Count,
  EdgeId,
  HexId,
  ResourceNameSchema,
  SeatIndex,
  Talk,
  VertexId,
  totalCards,
  type DecisionKind,
} from './common';

/** Largest count an answer may name for one resource (engine/shape.ts MAX_ANSWER_COUNT). */
export const MAX_ANSWER_COUNT = 1000;
/** Cards a windfall takes. */
export const WINDFALL_CARDS = 2;

const AnswerCount = Count.max(MAX_ANSWER_COUNT);

/** ResourceCounts in an answer: closed keys, counts 0..1000. */
export const AnswerCountsSchema = z
  .strictObject({
    brick: AnswerCount.optional(),
    lumber: AnswerCount.optional(),
    wool: AnswerCount.optional(),
    grain: AnswerCount.optional(),
    ore: AnswerCount.optional(),
  })
  .describe('Resource name -> integer 0..1000. Missing keys mean zero; unknown keys are refused.');

const WindfallTake = AnswerCountsSchema.refine((c) => totalCards(c) === WINDFALL_CARDS, {
  message: `windfall takes exactly ${WINDFALL_CARDS} resources in total`,
});

// Each action shape is written once and built twice: as a bot may send it
// (unknown fields stripped) and as a record holds it (exact, for the replay's
// `action` events). `object` is z.object or z.strictObject.
type ObjectOf = <T extends z.core.$ZodLooseShape>(
  shape: T,
) => z.ZodObject<z.core.util.Writeable<T>, z.core.$strip | z.core.$strict>;

function actionSchemas(object: ObjectOf) {
  const setup = object({
    settlement: VertexId.describe('Vertex for the settlement (distance rule applies).'),
    road: EdgeId.describe('Edge for the road; must touch the settlement.'),
  }).describe('Answer to a `setup` decision: one settlement and one road touching it.');

  const turn = z
    .discriminatedUnion('type', [
      object({ type: z.literal('build_road'), edge: EdgeId }).describe('Build a road (1 brick, 1 lumber).'),
      object({ type: z.literal('build_settlement'), vertex: VertexId }).describe(
        'Build a settlement (1 brick, 1 lumber, 1 wool, 1 grain).',
      ),
      object({ type: z.literal('build_city'), vertex: VertexId }).describe(
        'Upgrade an own settlement (3 ore, 2 grain).',
      ),
      object({ type: z.literal('buy_dev') }).describe('Buy a development card (1 ore, 1 wool, 1 grain).'),
      object({ type: z.literal('play_knight'), hex: HexId, victim: SeatIndex.optional() }).describe(
        'Play a knight: move the bandit, optionally steal from a seat with a town on that hex.',
      ),
      object({ type: z.literal('play_roadworks'), edges: z.array(EdgeId).min(1).max(2) }).describe(
        'Play roadworks: 1 or 2 free roads, each legal in order.',
      ),
      object({ type: z.literal('play_windfall'), take: WindfallTake }).describe(
        'Play windfall: take exactly 2 resources of choice from the bank.',
      ),
      object({ type: z.literal('play_embargo'), resource: ResourceNameSchema }).describe(
        'Play embargo: every opponent hands over all their cards of the named resource.',
      ),
      object({ type: z.literal('bank_trade'), give: ResourceNameSchema, get: ResourceNameSchema }).describe(
        'Trade with the bank at the best rate (4:1, 3:1 generic port, 2:1 matching port).',
      ),
      object({
        type: z.literal('offer_trade'),
        give: AnswerCountsSchema,
        get: AnswerCountsSchema,
        to: SeatIndex.optional().describe('Target seat; omitted means an open offer to every opponent.'),
        talk: Talk.optional(),
      }).describe('Offer a trade to one seat or to everyone (at most 5 offers per turn).'),
      object({ type: z.literal('end_turn'), talk: Talk.optional() }).describe('End the turn.'),
    ])
    .describe('Answer to a `turn` decision: exactly one action, discriminated by `type`.');

  const discard = object({
    cards: AnswerCountsSchema.describe('Cards to discard: exactly floor(hand/2) in total.'),
  }).describe('Answer to a `discard` decision.');

  const bandit = object({
    hex: HexId.describe('Hex to move the bandit to; must differ from its current hex.'),
    victim: SeatIndex.optional().describe('Opponent with a town on that hex to steal one random card from.'),
    talk: Talk.optional(),
  }).describe('Answer to a `bandit` decision.');

  const trade = object({ accept: z.boolean(), talk: Talk.optional() }).describe(
    'Answer to a `trade` decision: accept or reject the offer in the view.',
  );

  return { setup, turn, discard, bandit, trade };
}

const answers = actionSchemas(z.object);
/** The same shapes, exact: how a match record holds an applied answer (engine/types.ts ActionEventData). */
export const RecordedActionSchemaByKind = actionSchemas(z.strictObject);

export const SetupActionSchema = answers.setup;
export const TurnActionSchema = answers.turn;
export const DiscardActionSchema = answers.discard;
export const BanditActionSchema = answers.bandit;
export const TradeResponseSchema = answers.trade;

/** The answer schema owed for each decision kind. */
export const ActionSchemaByKind = {
  setup: SetupActionSchema,
  turn: TurnActionSchema,
  discard: DiscardActionSchema,
  bandit: BanditActionSchema,
  trade: TradeResponseSchema,
} as const satisfies Record<DecisionKind, z.ZodType>;

export type SetupAction = z.infer<typeof SetupActionSchema>;
export type TurnAction = z.infer<typeof TurnActionSchema>;
export type TurnActionType = TurnAction['type'];
export type DiscardAction = z.infer<typeof DiscardActionSchema>;
export type BanditAction = z.infer<typeof BanditActionSchema>;
export type TradeResponse = z.infer<typeof TradeResponseSchema>;
export type ActionByKind = { [K in DecisionKind]: z.infer<(typeof ActionSchemaByKind)[K]> };
export type AnyAction = ActionByKind[DecisionKind];

export type ParsedAction = { ok: true; action: AnyAction } | { ok: false; message: string };

/**
 * Checks an answer against the shape its decision kind requires; the message
 * names the offending field. For bot authors and docs: the arena itself
 * judges answers with the engine, whose shape check agrees with this one.
 */
export function parseAction(kind: DecisionKind, value: unknown): ParsedAction {
  const r = ActionSchemaByKind[kind].safeParse(value);
  if (r.success) return { ok: true, action: r.data };
  return { ok: false, message: describeIssues(r.error) };
}

/** One line naming each failing field, e.g. `take: windfall takes exactly 2 resources in total`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}
