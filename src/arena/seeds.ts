// Tournament and game seeds (docs/decisions.md, "seeds"). A seed decides every
// hidden fact of a game (board, dice, deck, steals), so a guessable seed lets
// a bot see the future. Without a user seed the tournament seed is 128 bits
// from the operating system's CSPRNG; each game's seed is an HMAC-SHA-256 of
// the game number keyed by the tournament seed, so publishing one game's seed
// (match records carry it) reveals nothing about its siblings. With a user
// seed the same derivation makes the tournament reproducible.
import { createHmac, randomBytes } from 'node:crypto';

/** Bits of a generated tournament seed. */
export const SEED_BITS = 128;
/** The longest seed a user may give. */
export const MAX_SEED_CHARS = 200;

/** Why a user's `--seed` cannot be used (empty or too long), or null. */
export function seedProblem(seed: string): string | null {
  return seed.length === 0 || seed.length > MAX_SEED_CHARS ? `--seed must be 1 to ${MAX_SEED_CHARS} characters` : null;
}

/** A fresh tournament seed: 128 random bits as 32 hex digits. */
export function newTournamentSeed(): string {
  return randomBytes(SEED_BITS / 8).toString('hex');
}

/**
 * The seed of game `game` (1-based) of a tournament seeded `seed`:
 * hex(HMAC-SHA-256(key = seed, message = decimal game number)), first 128 bits.
 */
export function gameSeed(seed: string, game: number): string {
  if (!Number.isSafeInteger(game) || game < 1) throw new RangeError(`game numbers start at 1, got ${game}`);
  return createHmac('sha256', seed)
    .update(String(game))
    .digest('hex')
    .slice(0, SEED_BITS / 4);
}
