// Frozen lists of pending decisions for every (kind, set of seats), so that
// listing what the engine waits for never allocates: PENDING[kind][seatMask].

import type { DecisionKind, PendingDecision } from './types';

export const KINDS: readonly DecisionKind[] = ['setup', 'turn', 'discard', 'bandit', 'trade'];
export const K_SETUP = 0,
  K_TURN = 1,
  K_DISCARD = 2,
  K_BANDIT = 3,
  K_TRADE = 4;

export const PENDING: ReadonlyArray<ReadonlyArray<readonly PendingDecision[]>> = KINDS.map((kind) => {
  const one = [0, 1, 2, 3].map((seat) => Object.freeze({ seat, kind }));
  return Array.from({ length: 16 }, (_, mask) => Object.freeze(one.filter((_, s) => mask & (1 << s))));
});
export const NONE: readonly PendingDecision[] = PENDING[0][0];
/** The trade answers still owed, by mask of seats. */
export const PENDING_TRADE = PENDING[K_TRADE];
