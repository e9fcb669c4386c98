// Replay events (spec section 6, MatchEvent; engine/README.md "Events"): a
// union discriminated by `kind`, one exact schema per kind. The engine writes
// the same union as plain TypeScript (engine/types.ts GameEvent, it depends
// on nothing); test/protocol/engine-types.test.ts keeps the two in step.
//
// Three forms: GameEvent (as the engine emits it), MatchEvent (a replay
// record entry: plus `seq` and `at`, match.ts) and PublicGameEvent /
// PublicMatchEvent (what a spectator of a running match sees: engine
// publicEvent(), for the live stream).
import { z } from 'zod';
import { RecordedActionSchemaByKind } from './actions';
import {
  DecisionKindSchema,
  DevCardNameSchema,
  ResourceCountsSchema,
  ResourceNameSchema,
  SeatIndex,
  StrikeReasonSchema,
  Talk,
} from './common';
import { BoardViewSchema } from './view';

/** Every rejection code the engine answers with (engine/rejections.ts; a test keeps the lists equal). */
export const REJECTION_CODES = [
  'game_over',
  'bad_seat',
  'not_your_decision',
  'already_answered',
  'bad_shape',
  'talk_too_long',
  'occupied',
  'distance_rule',
  'road_not_adjacent',
  'not_connected',
  'blocked_by_town',
  'limit_reached',
  'cannot_afford',
  'not_own_settlement',
  'deck_empty',
  'dev_already_played',
  'dev_bought_this_turn',
  'no_such_card',
  'bandit_same_hex',
  'bad_victim',
  'bad_amount',
  'not_enough_cards',
  'wrong_discard_count',
  'bad_trade',
  'offer_limit',
  'offer_empty',
  'bad_offer',
  'bad_target',
  'offer_uncovered',
  'trade_already_open',
] as const;
export const RejectionCodeSchema = z
  .enum(REJECTION_CODES)
  .describe('Why the engine refused an answer (stable, snake_case).');
export type RejectionCode = z.infer<typeof RejectionCodeSchema>;

const Int = z.number().int();
const Die = Int.min(1).max(6);
const Counts = ResourceCountsSchema;
const ActingSeat = SeatIndex.describe('The acting seat.');
// `start` and `end` have no acting seat: the key must be absent. Declaring it
// (as never) lets code read `ev.seat` on any event, as the engine's types do.
const NoSeat = z.never().optional().describe('Absent: this kind has no acting seat.');
const GAME_EVENT_KINDS = [
  'start',
  'action',
  'roll',
  'payout',
  'discard',
  'bandit',
  'build',
  'dev',
  'trade',
  'talk',
  'award',
  'timeout',
  'resign',
  'end',
] as const;
export const GameEventKindSchema = z.enum(GAME_EVENT_KINDS).describe('What happened; fixes the shape of `data`.');

// ---- data of each kind ----

const actionData = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('setup'),
      action: RecordedActionSchemaByKind.setup,
      default: z.literal(true).optional(),
    }),
    z.strictObject({
      kind: z.literal('turn'),
      action: RecordedActionSchemaByKind.turn,
      default: z.literal(true).optional(),
    }),
    z.strictObject({
      kind: z.literal('discard'),
      action: RecordedActionSchemaByKind.discard,
      default: z.literal(true).optional(),
    }),
    z.strictObject({
      kind: z.literal('bandit'),
      action: RecordedActionSchemaByKind.bandit,
      default: z.literal(true).optional(),
    }),
    z.strictObject({
      kind: z.literal('trade'),
      action: RecordedActionSchemaByKind.trade,
      default: z.literal(true).optional(),
    }),
  ])
  .describe(
    'An applied answer in canonical form; `default: true` when the engine played it for the seat. The verifier replays these.',
  );

const devPlays = [
  z.strictObject({ action: z.literal('play'), card: z.literal('knight') }),
  z.strictObject({
    action: z.literal('play'),
    card: z.literal('roadworks'),
    edges: z.array(Int.min(0).max(71)).min(1).max(2),
  }),
  z.strictObject({ action: z.literal('play'), card: z.literal('windfall'), take: Counts }),
  z.strictObject({
    action: z.literal('play'),
    card: z.literal('embargo'),
    resource: ResourceNameSchema,
    taken: z.array(Int.min(0)).min(3).max(4).describe('Cards taken from each seat.'),
  }),
] as const;

const strikeCore = {
  reason: StrikeReasonSchema,
  strikes: Int.min(0).describe("The seat's strikes so far in this match, this one included."),
  decision: DecisionKindSchema.describe('The decision the seat owed.'),
};

// ---- one shape per kind (the shapes are reused for the stamped record form) ----

const shapes = {
  start: {
    kind: z.literal('start'),
    seat: NoSeat,
    data: z.strictObject({ rulesVersion: z.string(), seatCount: Int.min(3).max(4), board: BoardViewSchema }),
  },
  action: { kind: z.literal('action'), seat: ActingSeat, data: actionData },
  roll: {
    kind: z.literal('roll'),
    seat: ActingSeat,
    data: z.strictObject({
      dice: z.tuple([Die, Die]),
      produced: z.array(Counts).min(3).max(4).describe('What each seat received (all empty on a 7).'),
    }),
  },
  payout: {
    kind: z.literal('payout'),
    seat: ActingSeat,
    data: z.strictObject({ gained: Counts.describe("The second setup settlement's cards.") }),
  },
  discard: { kind: z.literal('discard'), seat: ActingSeat, data: z.strictObject({ cards: Counts }) },
  bandit: {
    kind: z.literal('bandit'),
    seat: ActingSeat,
    data: z.union([
      z.strictObject({ hex: Int.min(0).max(18) }),
      z.strictObject({
        hex: Int.min(0).max(18),
        victim: SeatIndex,
        stole: ResourceNameSchema.nullable().describe(
          'The card taken; null when the victim had none. Private until the match ends.',
        ),
      }),
    ]),
  },
  build: {
    kind: z.literal('build'),
    seat: ActingSeat,
    data: z.strictObject({
      what: z.enum(['road', 'settlement', 'city']),
      at: Int.min(0).max(71).describe('Edge id for a road, vertex id otherwise.'),
      free: z.literal(true).optional().describe('Placed by roadworks.'),
    }),
  },
  dev: {
    kind: z.literal('dev'),
    seat: ActingSeat,
    data: z.union([
      z.strictObject({ action: z.literal('buy'), card: DevCardNameSchema.describe('Private until the match ends.') }),
      ...devPlays,
    ]),
  },
  trade: {
    kind: z.literal('trade'),
    seat: ActingSeat,
    data: z.union([
      z.strictObject({ from: SeatIndex, to: z.literal('bank'), give: Counts, get: Counts }),
      z.strictObject({ from: SeatIndex, to: SeatIndex, give: Counts, get: Counts }),
      z.strictObject({ from: SeatIndex, accepted: z.literal(false) }),
    ]),
  },
  talk: { kind: z.literal('talk'), seat: ActingSeat, data: z.strictObject({ message: Talk }) },
  award: {
    kind: z.literal('award'),
    seat: SeatIndex.optional().describe('The new holder, if anyone.'),
    data: z.strictObject({
      award: z.enum(['largestArmy', 'longestRoad']),
      seat: SeatIndex.nullable(),
      from: SeatIndex.nullable(),
    }),
  },
  timeout: {
    kind: z.literal('timeout'),
    seat: ActingSeat,
    data: z.strictObject({
      ...strikeCore,
      code: RejectionCodeSchema.optional().describe(
        'For an illegal answer: why the engine refused it. Private until the match ends.',
      ),
      message: z.string().optional().describe('What was wrong, for people. Private until the match ends.'),
    }),
  },
  resign: { kind: z.literal('resign'), seat: ActingSeat, data: z.strictObject({ strikes: Int.min(0) }) },
  end: {
    kind: z.literal('end'),
    seat: NoSeat,
    data: z.union([
      z.strictObject({
        reason: z.enum(['win', 'cap']),
        winner: SeatIndex.nullable(),
        placements: z.array(Int.min(1).max(4)).min(3).max(4),
        vp: z.array(Int.min(0)).min(3).max(4).describe('True VP per seat, hidden VP cards included.'),
        turns: Int.min(0),
      }),
      z.strictObject({ reason: z.literal('aborted'), turns: Int.min(0) }),
    ]),
  },
} as const;

// What a spectator sees of the three kinds with private facts (engine/public-events.ts).
const publicShapes = {
  ...shapes,
  dev: { ...shapes.dev, data: z.union([z.strictObject({ action: z.literal('buy') }), ...devPlays]) },
  bandit: {
    ...shapes.bandit,
    data: z.union([
      z.strictObject({ hex: Int.min(0).max(18) }),
      z.strictObject({
        hex: Int.min(0).max(18),
        victim: SeatIndex,
        stoleCard: z.boolean().describe('Whether a card changed hands.'),
      }),
    ]),
  },
  timeout: { ...shapes.timeout, data: z.strictObject(strikeCore) },
} as const;

type Shape = z.core.$ZodLooseShape;
type Kind = (typeof GAME_EVENT_KINDS)[number];
type KindShapes = { readonly [K in Kind]: Shape };

const stamp = {
  seq: Int.min(0).describe('0-based, consecutive within a match.'),
  at: z.string().describe('ISO 8601 timestamp when the event happened.'),
};
type Stamp = typeof stamp;

/** One exact object per kind, in GAME_EVENT_KINDS order, as a discriminated union. */
function union<S extends KindShapes>(s: S) {
  const o = <K extends Kind>(k: K) => z.strictObject(s[k]);
  return z.discriminatedUnion('kind', [
    o('start'),
    o('action'),
    o('roll'),
    o('payout'),
    o('discard'),
    o('bandit'),
    o('build'),
    o('dev'),
    o('trade'),
    o('talk'),
    o('award'),
    o('timeout'),
    o('resign'),
    o('end'),
  ]);
}

/** The same with `seq` and `at` first (the record's key order). */
function stamped<S extends KindShapes>(s: S) {
  const o = <K extends Kind>(k: K) => z.strictObject({ ...stamp, ...s[k] } as Stamp & S[K]);
  return z.discriminatedUnion('kind', [
    o('start'),
    o('action'),
    o('roll'),
    o('payout'),
    o('discard'),
    o('bandit'),
    o('build'),
    o('dev'),
    o('trade'),
    o('talk'),
    o('award'),
    o('timeout'),
    o('resign'),
    o('end'),
  ]);
}

export const GameEventSchema = union(shapes).describe('A replay event as the engine emits it (no seq/at).');
export const PublicGameEventSchema = union(publicShapes).describe(
  'A replay event as a spectator of a running match sees it: no bought card, stolen resource or strike code.',
);
/** A replay record entry; match.ts publishes it as MatchEventSchema. */
export const StampedGameEventSchema = stamped(shapes).describe('One replay event.');
export const PublicMatchEventSchema = stamped(publicShapes).describe(
  'One replay event as the live stream shows it while the match runs.',
);

export type GameEventKind = z.infer<typeof GameEventKindSchema>;
export type GameEvent = z.infer<typeof GameEventSchema>;
export type PublicGameEvent = z.infer<typeof PublicGameEventSchema>;
export type PublicMatchEvent = z.infer<typeof PublicMatchEventSchema>;
