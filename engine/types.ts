// The engine's public types: the JSON shapes of the spec (section 2) as plain
// TypeScript. The engine depends on nothing, so these are written out here;
// src/protocol's zod schemas describe the same shapes and a type test keeps
// the two in step.

import type { ResourceName, HexKind } from './board';

export type { ResourceName, HexKind };

export type ResourceCounts = Partial<Record<ResourceName, number>>;
export type DevCardName = 'knight' | 'victory_point' | 'roadworks' | 'windfall' | 'embargo';
export const DEV_CARDS: readonly DevCardName[] = ['knight', 'victory_point', 'roadworks', 'windfall', 'embargo'];

export type DecisionKind = 'setup' | 'turn' | 'discard' | 'bandit' | 'trade';

export interface SetupAction { settlement: number; road: number }

export type TurnAction =
  | { type: 'build_road'; edge: number }
  | { type: 'build_settlement'; vertex: number }
  | { type: 'build_city'; vertex: number }
  | { type: 'buy_dev' }
  | { type: 'play_knight'; hex: number; victim?: number }
  | { type: 'play_roadworks'; edges: number[] }
  | { type: 'play_windfall'; take: ResourceCounts }
  | { type: 'play_embargo'; resource: ResourceName }
  | { type: 'bank_trade'; give: ResourceName; get: ResourceName }
  | { type: 'offer_trade'; give: ResourceCounts; get: ResourceCounts; to?: number; talk?: string }
  | { type: 'end_turn'; talk?: string };

export type TurnActionType = TurnAction['type'];

export interface DiscardAction { cards: ResourceCounts }
export interface BanditAction { hex: number; victim?: number; talk?: string }
export interface TradeResponse { accept: boolean; talk?: string }

/** The answer shape owed for each decision kind. */
export interface ActionByKind {
  setup: SetupAction;
  turn: TurnAction;
  discard: DiscardAction;
  bandit: BanditAction;
  trade: TradeResponse;
}
export type AnyAction = ActionByKind[DecisionKind];

/** One decision the engine is waiting for. Several may be pending at once (discards, open offers). */
export interface PendingDecision { seat: number; kind: DecisionKind }

/** Why an answer was refused. `code` is stable and machine-readable; `message` is for people. */
export interface Rejection { code: string; message: string }

export interface TableTalk { seat: number; message: string; turn: number }

export interface OpenTrade {
  from: number;
  give: ResourceCounts;
  get: ResourceCounts;
  to?: number;
  talk?: string;
}

export interface BoardView {
  hexes: Array<{ id: number; resource: HexKind; token: number | null }>;
  ports: Array<{ vertices: [number, number]; rate: 2 | 3; resource?: ResourceName }>;
  bandit: number;
}

/** PioneersView, exactly the spec's fields: everything one seat may know. */
export interface PioneersView {
  seat: number;
  seatCount: number;
  phase: 'setup' | 'main';
  turn: number;
  dice: [number, number] | null;
  board: BoardView;
  roads: Array<{ edge: number; seat: number }>;
  towns: Array<{ vertex: number; seat: number; city: boolean }>;
  hand: ResourceCounts;
  handCounts: number[];
  devCards: DevCardName[];
  devBoughtThisTurn: DevCardName[];
  devCounts: number[];
  knightsPlayed: number[];
  scores: number[];
  myScore: number;
  awards: { largestArmy: number | null; longestRoad: number | null };
  deckRemaining: number;
  openTrade: OpenTrade | null;
  talkLog: TableTalk[];
}

/** What a spectator of a running match may see: counts only, no hands, no dev identities, no seed. */
export interface PublicView {
  seatCount: number;
  phase: 'setup' | 'main' | 'over';
  turn: number;
  current: number;
  dice: [number, number] | null;
  board: BoardView;
  roads: Array<{ edge: number; seat: number }>;
  towns: Array<{ vertex: number; seat: number; city: boolean }>;
  handCounts: number[];
  devCounts: number[];
  knightsPlayed: number[];
  roadLengths: number[];
  scores: number[];
  awards: { largestArmy: number | null; longestRoad: number | null };
  deckRemaining: number;
  openTrade: OpenTrade | null;
  talkLog: TableTalk[];
  resigned: boolean[];
}

/**
 * A replay event as the engine emits it. The runner adds `seq` and `at`.
 * Kinds and their `data` (documented in engine/replay.ts):
 *   start    {rulesVersion, seatCount, board}
 *   action   {kind, action, default?: true}  -- the answer applied for a decision (the verifier replays these)
 *   roll     {dice, produced: ResourceCounts[] per seat}
 *   payout   {gained: ResourceCounts}            -- the second setup settlement's cards
 *   discard  {cards}                         -- result of a discard
 *   bandit   {hex, victim?, stole?: ResourceName | null}
 *   build    {what: 'road'|'settlement'|'city', at}
 *   dev      {card, ...effects}              -- buy (card hidden in public views) or play
 *   trade    {from, to, give, get} | {from, accepted: false}
 *   talk     {message}
 *   award    {award: 'largestArmy'|'longestRoad', seat: number|null}
 *   timeout  {reason: 'late'|'malformed'|'oversize'|'dropped'|'illegal', strikes, decision}
 *   resign   {strikes}
 *   end      {reason: 'win'|'cap'|'aborted', placements, vp, turns}
 */
export interface GameEvent {
  kind: string;
  seat?: number;
  data?: unknown;
}

export type StrikeReason = 'late' | 'malformed' | 'oversize' | 'dropped' | 'illegal';

export interface Outcome {
  reason: 'win' | 'cap';
  winner: number | null;
  /** 1-based standard competition ranking per seat; resigned seats after all others. */
  placements: number[];
  /** True VP per seat, hidden VP cards included. */
  vp: number[];
  turns: number;
}

export type SubmitResult =
  | { ok: true; events: GameEvent[] }
  | { ok: false; reason: Rejection };
