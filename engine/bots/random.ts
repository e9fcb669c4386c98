// The `random` bot: a uniformly random choice among the legal actions, from
// its own seeded stream so its games reproduce.

import { randomLegalAction, randomResponse } from '../legal';
import { stream } from '../rng';
import type { Game } from '../state';
import type { AnyAction } from '../types';

export class RandomBot {
  readonly name = 'random';
  private readonly rng: Uint32Array;
  /** Reused between decisions: the generator overwrites it, so deciding allocates nothing. */
  private readonly buffer: AnyAction[] = [];

  constructor(seed: string) {
    this.rng = stream(seed, 'bot');
  }

  decide(g: Game, seat: number): AnyAction {
    const a = randomLegalAction(g, seat, this.buffer, this.rng);
    if (a === null) throw new Error(`random bot: seat ${seat} owes no decision`);
    return a;
  }

  respond(g: Game, seat: number): boolean {
    return randomResponse(g, seat, this.rng);
  }
}
