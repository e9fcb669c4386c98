// The numbers of challenges, apart from their schemas, so that help texts
// (the CLI builds every command at start-up) do not load zod.
/**
 * Opponents one challenge names: the table is the challenger's bot and these (2 to 4 bots; built-in bots fill a table
 * of 2 to the game's 3 seats).
 */
export const CHALLENGE_MAX_OPPONENTS = 3;
/** Challenges one account may have waiting at once. */
export const CHALLENGE_MAX_PENDING = 3;
/** Challenges one account may make in any 24 hours (played, expired or refused later, all count). */
export const CHALLENGE_MAX_PER_DAY = 20;
/** A challenge not played this long after it was made expires (its bots were never all idle at one tick). */
export const CHALLENGE_EXPIRY_MINUTES = 10;
