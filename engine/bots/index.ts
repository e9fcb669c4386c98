// Built-in bots, by name.

import type { Game } from '../state';
import type { AnyAction } from '../types';
import { GreedyBot } from './greedy';
import { BUILTIN_BOTS, type BuiltinBotName } from './names';
import { RandomBot } from './random';
import { SearchBot } from './search';

export { BUILTIN_BOTS, type BuiltinBotName };

export interface BuiltinBot {
  readonly name: string;
  /** An answer for the seat's pending decision, using only what that seat may know. */
  decide(g: Game, seat: number): AnyAction;
  /**
   * For a seat that owes an answer to the open offer: whether it accepts, with
   * the same choice and draws as decide. Lets a driver answer all those seats
   * at once with answerOpenOffer.
   */
  respond?(g: Game, seat: number): boolean;
}

export function createBuiltinBot(name: BuiltinBotName, seed: string): BuiltinBot {
  switch (name) {
    case 'random':
      return new RandomBot(seed);
    case 'greedy':
      return new GreedyBot(seed);
    case 'search':
      return new SearchBot(seed);
    default:
      throw new Error(`unknown built-in bot '${String(name)}' (known: ${BUILTIN_BOTS.join(', ')})`);
  }
}
