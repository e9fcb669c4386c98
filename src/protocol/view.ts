// What the arena shows: a seat's PioneersView (spec section 2) and the
// spectator PublicView (engine/types.ts). We emit these, so they are exact
// (z.strictObject): an extra field fails validation instead of leaking.
import { z } from 'zod';
import {
  Count,
  DevCardNameSchema,
  EdgeId,
  HexId,
  HexKindSchema,
  ResourceCountsSchema,
  ResourceNameSchema,
  SeatIndex,
  Talk,
  VertexId,
} from './common';

const Die = z.number().int().min(1).max(6);
const SeatCount = z.number().int().min(3).max(4).describe('Seats at the table: 3 or 4.');
const Dice = z.tuple([Die, Die]).nullable().describe("This turn's roll; null during setup.");

export const TableTalkSchema = z
  .strictObject({ seat: SeatIndex, message: Talk, turn: Count })
  .describe('One line of table talk.');

export const OpenTradeSchema = z
  .strictObject({
    from: SeatIndex.describe('The offering seat.'),
    give: ResourceCountsSchema.describe('What the offerer gives.'),
    get: ResourceCountsSchema.describe('What the offerer wants; an accepter must hold it.'),
    to: SeatIndex.optional().describe('Target seat; absent for an open offer.'),
    talk: Talk.optional(),
  })
  .describe('The offer awaiting responses.');

export const BoardViewSchema = z
  .strictObject({
    hexes: z
      .array(
        z.strictObject({
          id: HexId,
          resource: HexKindSchema,
          token: z.number().int().min(2).max(12).nullable().describe('Number token; null on the desert.'),
        }),
      )
      .length(19),
    ports: z.array(
      z.strictObject({
        vertices: z.tuple([VertexId, VertexId]),
        rate: z.union([z.literal(2), z.literal(3)]),
        resource: ResourceNameSchema.optional().describe('Absent for a generic 3:1 port.'),
      }),
    ),
    bandit: HexId.describe('Hex the bandit is on.'),
  })
  .describe('Hex layout, ports and the bandit. The adjacency graph derives from the numbering rules.');

const Roads = z.array(z.strictObject({ edge: EdgeId, seat: SeatIndex })).describe('Every placed road.');
const Towns = z
  .array(z.strictObject({ vertex: VertexId, seat: SeatIndex, city: z.boolean() }))
  .describe('Every settlement and city.');
const Awards = z.strictObject({
  largestArmy: SeatIndex.nullable().describe('Holder of largest army, null while unclaimed.'),
  longestRoad: SeatIndex.nullable().describe('Holder of longest road, null while unclaimed.'),
});
const PerSeat = (what: string) => z.array(Count).min(3).max(4).describe(what);

export const PioneersViewSchema = z
  .strictObject({
    seat: SeatIndex.describe('Your seat.'),
    seatCount: SeatCount,
    phase: z.enum(['setup', 'main']),
    turn: Count.describe('0 during setup.'),
    dice: Dice,
    board: BoardViewSchema,
    roads: Roads,
    towns: Towns,
    hand: ResourceCountsSchema.describe('Your own resources.'),
    handCounts: PerSeat('Total resource cards per seat.'),
    devCards: z.array(DevCardNameSchema).describe('Your dev cards playable now.'),
    devBoughtThisTurn: z
      .array(DevCardNameSchema)
      .describe('Your dev cards bought this turn, playable from your next turn.'),
    devCounts: PerSeat('Total dev cards held per seat.'),
    knightsPlayed: PerSeat('Knights played per seat.'),
    scores: PerSeat('Public VP per seat; hidden VP cards excluded.'),
    myScore: Count.describe('Your true VP, hidden VP cards included.'),
    awards: Awards,
    deckRemaining: Count.max(25).describe('Dev cards left in the 25-card deck.'),
    openTrade: OpenTradeSchema.nullable(),
    talkLog: z.array(TableTalkSchema).max(20).describe('Last 20 talk entries, most recent last.'),
  })
  .describe('Everything one seat may know, never more.');

export const PublicViewSchema = z
  .strictObject({
    seatCount: SeatCount,
    phase: z.enum(['setup', 'main', 'over']),
    turn: Count,
    current: SeatIndex.describe('Seat whose turn (or setup placement) it is.'),
    dice: Dice,
    board: BoardViewSchema,
    roads: Roads,
    towns: Towns,
    handCounts: PerSeat('Total resource cards per seat.'),
    devCounts: PerSeat('Total dev cards held per seat.'),
    knightsPlayed: PerSeat('Knights played per seat.'),
    roadLengths: PerSeat('Longest road length per seat.'),
    scores: PerSeat('Public VP per seat; hidden VP cards excluded.'),
    awards: Awards,
    deckRemaining: Count.max(25),
    openTrade: OpenTradeSchema.nullable(),
    talkLog: z.array(TableTalkSchema).max(20),
    resigned: z.array(z.boolean()).min(3).max(4).describe('Seats that resigned after three strikes.'),
  })
  .describe('What a spectator of a running match may see: counts only, no hands, no dev identities, no seed.');

export type TableTalk = z.infer<typeof TableTalkSchema>;
export type OpenTrade = z.infer<typeof OpenTradeSchema>;
export type BoardView = z.infer<typeof BoardViewSchema>;
export type PioneersView = z.infer<typeof PioneersViewSchema>;
export type PublicView = z.infer<typeof PublicViewSchema>;
