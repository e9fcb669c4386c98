// Rejection codes: stable, machine-readable, snake_case. The message says
// what was wrong in words a bot author can act on.

import type { Rejection } from './types';

export const REJECTION_MESSAGES = {
  game_over: 'the game is over; no decisions are pending',
  bad_seat: 'no such seat in this game',
  not_your_decision: 'this seat owes no decision right now',
  already_answered: 'this seat has already answered the current decision',
  bad_shape: 'the answer does not have the shape this decision needs',
  talk_too_long: 'talk is limited to 240 characters',
  occupied: 'that place is already taken',
  distance_rule: 'a settlement needs the vertex and all its neighbours free of towns',
  road_not_adjacent: 'the setup road must touch the settlement placed with it',
  not_connected: 'the piece must connect to your own network',
  blocked_by_town: "an opponent's town blocks building through its vertex",
  limit_reached: 'no pieces of that kind left',
  cannot_afford: 'not enough resources for that',
  not_own_settlement: 'a city must replace one of your own settlements',
  deck_empty: 'the development deck is empty',
  dev_already_played: 'only one development card may be played per turn',
  dev_bought_this_turn: 'a card bought this turn can be played from your next turn',
  no_such_card: 'you do not hold a playable card of that kind',
  bandit_same_hex: 'the bandit must move to a different hex',
  bad_victim: 'the victim must be an opponent with a settlement or city on the bandit hex',
  bad_amount: 'windfall takes exactly 2 resources',
  not_enough_cards: 'you cannot discard cards you do not hold',
  wrong_discard_count: 'you must discard exactly half your hand, rounded down',
  bad_trade: 'a bank trade needs two different resources',
  offer_limit: 'at most 5 offers per turn',
  offer_empty: 'an offer must move at least one card each way',
  bad_offer: 'an offer cannot name the same resource on both sides',
  bad_target: 'a targeted offer must name an opponent seat in this game',
  offer_uncovered: 'you do not hold the cards you offer',
  trade_already_open: 'another offer is still open',
} as const;

/** Every code `submit` can answer with; a union, so a new code is added here or nowhere. */
export type RejectionCode = keyof typeof REJECTION_MESSAGES;

/** The codes in a fixed order (src/protocol lists them too; a test keeps the two lists equal). */
export const REJECTION_CODES = Object.keys(REJECTION_MESSAGES) as RejectionCode[];

export function rejection(code: RejectionCode, detail?: string): Rejection {
  const base = REJECTION_MESSAGES[code];
  return { code, message: detail ? `${base} (${detail})` : base };
}
