// The engine's public types: the JSON shapes of the spec (section 2) as plain
// TypeScript. The engine depends on nothing, so these are written out here;
// src/protocol's zod schemas describe the same shapes and a type test keeps
// the two in step.

import type { ResourceName, HexKind } from './board';
import type { RejectionCode } from './rejections';

export type { ResourceName, HexKind, RejectionCode };

export type ResourceCounts = Partial<Record<ResourceName, number>>;
export type DevCardName = 'knight' | 'victory_point' | 'roadworks' | 'windfall' | 'embargo';
export const DEV_CARDS: readonly DevCardName[] = ['knight', 'victory_point', 'roadworks', 'windfall', 'embargo'];

export type DecisionKind = 'setup' | 'turn' | 'discard' | 'bandit' | 'trade';

export interface SetupAction {
  settlement: number;
  road: number;
}

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

export interface DiscardAction {
  cards: ResourceCounts;
}
export interface BanditAction {
  hex: number;
  victim?: number;
  talk?: string;
}
export interface TradeResponse {
  accept: boolean;
  talk?: string;
}

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
export interface PendingDecision {
  seat: number;
  kind: DecisionKind;
}

/** Why an answer was refused. `code` is stable and machine-readable; `message` is for people. */
export interface Rejection {
  code: RejectionCode;
  message: string;
}

export interface TableTalk {
  seat: number;
  message: string;
  turn: number;
}

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
 * A replay event as the engine emits it: a union discriminated by `kind`
 * (engine/README.md, "Events"). The runner adds `seq` and `at`. `seat` is the
 * acting seat where there is one (never on `start` and `end`; on `award`
 * only when someone takes it).
 */
export type GameEvent =
  | StartEvent
  | ActionEvent
  | RollEvent
  | PayoutEvent
  | DiscardEvent
  | BanditEvent
  | BuildEvent
  | DevEvent
  | TradeEvent
  | TalkEvent
  | AwardEvent
  | TimeoutEvent
  | ResignEvent
  | EndEvent;
export type GameEventKind = GameEvent['kind'];
/** The event of one kind, e.g. EventOf<'roll'>. */
export type EventOf<K extends GameEventKind> = Extract<GameEvent, { kind: K }>;

export interface StartEvent {
  kind: 'start';
  seat?: never;
  data: { rulesVersion: string; seatCount: number; board: BoardView };
}

/**
 * One applied answer, in canonical form; `default` marks an answer the engine played for the seat. The verifier replays
 * these.
 */
export type ActionEventData = {
  [K in DecisionKind]: { kind: K; action: ActionByKind[K]; default?: true };
}[DecisionKind];
export interface ActionEvent {
  kind: 'action';
  seat: number;
  data: ActionEventData;
}

/** `produced` has one entry per seat (all empty on a 7). */
export interface RollEvent {
  kind: 'roll';
  seat: number;
  data: { dice: [number, number]; produced: ResourceCounts[] };
}
/** The second setup settlement's cards. */
export interface PayoutEvent {
  kind: 'payout';
  seat: number;
  data: { gained: ResourceCounts };
}
export interface DiscardEvent {
  kind: 'discard';
  seat: number;
  data: { cards: ResourceCounts };
}
/** `stole` is the card taken (null: the victim had none); private until the match ends. */
export interface BanditEvent {
  kind: 'bandit';
  seat: number;
  data: { hex: number } | { hex: number; victim: number; stole: ResourceName | null };
}
/** `free`: placed by roadworks. */
export interface BuildEvent {
  kind: 'build';
  seat: number;
  data: { what: 'road' | 'settlement' | 'city'; at: number; free?: true };
}
/** A bought card's identity is private until the match ends; a played card is public. */
export type DevEventData =
  | { action: 'buy'; card: DevCardName }
  | { action: 'play'; card: 'knight' }
  | { action: 'play'; card: 'roadworks'; edges: number[] }
  | { action: 'play'; card: 'windfall'; take: ResourceCounts }
  | { action: 'play'; card: 'embargo'; resource: ResourceName; taken: number[] };
export interface DevEvent {
  kind: 'dev';
  seat: number;
  data: DevEventData;
}
export interface TradeEvent {
  kind: 'trade';
  seat: number;
  data:
    | { from: number; to: 'bank'; give: ResourceCounts; get: ResourceCounts }
    | { from: number; to: number; give: ResourceCounts; get: ResourceCounts }
    | { from: number; accepted: false };
}
export interface TalkEvent {
  kind: 'talk';
  seat: number;
  data: { message: string };
}
export interface AwardEvent {
  kind: 'award';
  seat?: number;
  data: { award: 'largestArmy' | 'longestRoad'; seat: number | null; from: number | null };
}
/**
 * A strike. `code` (the rejection code of an illegal answer) and `message`
 * say why; they can reveal a hand, so the public form drops them.
 */
export interface TimeoutEvent {
  kind: 'timeout';
  seat: number;
  data: { reason: StrikeReason; strikes: number; decision: DecisionKind; code?: RejectionCode; message?: string };
}
export interface ResignEvent {
  kind: 'resign';
  seat: number;
  data: { strikes: number };
}
export interface EndEvent {
  kind: 'end';
  seat?: never;
  data:
    | { reason: 'win' | 'cap'; winner: number | null; placements: number[]; vp: number[]; turns: number }
    | { reason: 'aborted'; turns: number };
}

/**
 * An event as read from a stored record, before anything checked it (the
 * replay verifier compares it with what the engine regenerates).
 */
export interface RecordedEvent {
  kind: string;
  seat?: number;
  data?: unknown;
}

/**
 * What a live spectator may see of an event (publicEvent): a bought card's
 * identity, the stolen resource and a strike's code and message are removed;
 * every other kind is table-public and unchanged.
 */
export type PublicGameEvent =
  | Exclude<GameEvent, DevEvent | BanditEvent | TimeoutEvent>
  | PublicDevEvent
  | PublicBanditEvent
  | PublicTimeoutEvent;
export interface PublicDevEvent {
  kind: 'dev';
  seat: number;
  data: Exclude<DevEventData, { action: 'buy' }> | { action: 'buy' };
}
export interface PublicBanditEvent {
  kind: 'bandit';
  seat: number;
  data: { hex: number } | { hex: number; victim: number; stoleCard: boolean };
}
export interface PublicTimeoutEvent {
  kind: 'timeout';
  seat: number;
  data: { reason: StrikeReason; strikes: number; decision: DecisionKind };
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

export type SubmitResult = { ok: true; events: GameEvent[] } | { ok: false; reason: Rejection };
