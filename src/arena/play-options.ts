// Turns `arena play` input into a validated plan, or a clear ArenaInputError.
// Nothing here touches the network or the disk.
import { ArenaInputError, BUILTIN_NAMES, fillWithRandom, parseBotArgs, type ArenaBot } from './bots';
import { PLAY_DEFAULTS } from './play-defaults';
import { newTournamentSeed, seedProblem } from './seeds';

export interface PlayInput {
  bots: readonly string[];
  games?: string | number;
  seed?: string;
  seats?: string | number;
  concurrency?: string | number;
  deadlineMs?: string | number;
  /** Seconds of thinking time per bot per match (--time-bank). */
  timeBank?: string | number;
  outDir?: string;
  /** --duplicate: each seed played once per seat rotation. */
  duplicate?: boolean;
  /** --until-decided: stop once the first two bots' difference is decided (--games is the cap). */
  untilDecided?: boolean;
}

export interface PlayPlan {
  bots: ArenaBot[];
  /** Built-in random bots added because fewer bots than seats were given. */
  filled: ArenaBot[];
  games: number;
  seats: 3 | 4;
  seed: string;
  /** True when the seed was generated (the user should be told it). */
  seedGenerated: boolean;
  concurrency: number;
  deadlineMs: number;
  /** Thinking time per WebSocket bot per match, in ms (the runner's time bank). */
  timeBankMs: number;
  outDir?: string;
  duplicate: boolean;
  untilDecided: boolean;
  /** --duplicate rounded --games up to whole rotations: the number asked for (else null). */
  gamesAsked: number | null;
}

export { PLAY_DEFAULTS };
export const MAX_GAMES = 100_000;

export function planPlay(input: PlayInput, randomSeed: () => string = newTournamentSeed): PlayPlan {
  if (input.bots.length === 0)
    throw new ArenaInputError(
      `no bots given: name at least one bot URL or ${BUILTIN_NAMES.map((b) => `builtin:${b}`).join(' / ')}`,
    );
  const named = parseBotArgs(input.bots);
  const games = int('--games', input.games, PLAY_DEFAULTS.games, 1, MAX_GAMES);
  const seatsRaw = input.seats === undefined ? (named.length >= 4 ? 4 : 3) : int('--seats', input.seats, 4, 3, 4);
  const seats = seatsRaw as 3 | 4;
  const concurrency = int('--concurrency', input.concurrency, PLAY_DEFAULTS.concurrency, 1, 64);
  const deadlineMs = int('--deadline-ms', input.deadlineMs, PLAY_DEFAULTS.deadlineMs, 1, 60_000);
  const timeBankMs = int('--time-bank', input.timeBank, PLAY_DEFAULTS.timeBankSeconds, 1, 3600) * 1000;
  let seed = input.seed;
  const badSeed = seed === undefined ? null : seedProblem(seed);
  if (badSeed) throw new ArenaInputError(badSeed);
  const seedGenerated = seed === undefined;
  seed ??= randomSeed();
  if (input.outDir !== undefined && input.outDir.trim() === '') throw new ArenaInputError('--out needs a directory');
  const untilDecided = input.untilDecided === true;
  if (untilDecided && named.length < 2)
    throw new ArenaInputError('--until-decided compares the first two bots given: name at least two');
  const duplicate = input.duplicate === true;
  // Duplicate play comes in whole rotations: one game per seat for each seed.
  const rounded = duplicate ? Math.ceil(games / seats) * seats : games;
  if (rounded > MAX_GAMES)
    throw new ArenaInputError(`--games with --duplicate rounds up to ${rounded}, over ${MAX_GAMES}`);
  const filled = fillWithRandom(named, seats);
  return {
    bots: [...named, ...filled],
    filled,
    games: rounded,
    seats,
    seed,
    seedGenerated,
    concurrency,
    deadlineMs,
    timeBankMs,
    outDir: input.outDir,
    duplicate,
    untilDecided,
    gamesAsked: rounded === games ? null : games,
  };
}

function int(flag: string, value: string | number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ArenaInputError(`${flag} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}
