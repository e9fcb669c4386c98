// A bot's versions and qualification as both stores keep them: the rules of
// the transitions (new version, requalify, a qualifier's end, resume), as
// pure functions over the stored record, so the file store and the Postgres
// store cannot disagree. Bots stored before these fields existed read as
// version 1 since their creation, with no qualification (they stay active).
import { displayRating, initialRating } from '../../arena/ratings';
import type { BotStatus, BotVersion, Qualification } from '../../protocol/api';
import type { BotRecord, BotVersionRecord, QualificationOutcome, RatingRecord } from './types';

/** The starting sigma (openskill's default, 25/3). */
export const START_SIGMA = initialRating().sigma;

/**
 * A new version's sigma: halfway back from where it was to the starting
 * sigma, mu unchanged. New code may play differently, so the old certainty no
 * longer holds; but a new version is most often a small change to the same
 * bot, so its earlier games still say something (Halite keeps the rating and
 * widens its uncertainty the same way). Halfway lets the rating move about
 * twice as fast again while the shown rating (mu - 3*sigma) drops by 1.5 times
 * the gap, never below a new bot's when mu is above 25.
 */
export function widenSigma(sigma: number): number {
  return sigma >= START_SIGMA ? sigma : sigma + (START_SIGMA - sigma) / 2;
}

export function currentVersion(b: BotRecord): number {
  return b.version ?? 1;
}

export function versionsOf(b: BotRecord): BotVersionRecord[] {
  return b.versions ?? [{ version: 1, startedAt: b.createdAt, endedAt: null, gamesAtStart: 0, end: null }];
}

/**
 * The fields a new version changes: the version list (the current one ended at
 * `at` with `rating` as its end), the number, and the widened rating (null when
 * the bot has no rating yet: a new bot's is wide already).
 */
export function nextVersion(
  b: BotRecord,
  rating: RatingRecord | null,
  at: string,
): { version: number; versions: BotVersionRecord[]; rating: RatingRecord | null } {
  const past = versionsOf(b).map((v) =>
    v.endedAt === null
      ? {
          ...v,
          endedAt: at,
          end: rating ? { mu: rating.mu, sigma: rating.sigma, gamesPlayed: rating.gamesPlayed } : null,
        }
      : v,
  );
  const version = currentVersion(b) + 1;
  return {
    version,
    versions: [...past, { version, startedAt: at, endedAt: null, gamesAtStart: rating?.gamesPlayed ?? 0, end: null }],
    rating: rating ? { ...rating, sigma: widenSigma(rating.sigma) } : null,
  };
}

/** A qualification waiting for its qualifier. */
/** A newly registered bot: version 1 from now, and a pending qualifier when `qualify`. */
export function newBotRecord(
  id: string,
  input: Pick<BotRecord, 'ownerId' | 'name' | 'game' | 'url'> & { qualify?: boolean },
  createdAt: string,
): BotRecord {
  const qualification = input.qualify ? pendingQualification(1, createdAt) : null;
  return {
    id,
    ownerId: input.ownerId,
    name: input.name,
    game: input.game,
    url: input.url,
    status: qualification ? 'qualifying' : 'active',
    createdAt,
    removedAt: null,
    version: 1,
    versions: [{ version: 1, startedAt: createdAt, endedAt: null, gamesAtStart: 0, end: null }],
    qualification,
  };
}

export function pendingQualification(version: number, at: string): Qualification {
  return { state: 'qualifying', version, matchId: null, strikes: [], resigned: false, reason: null, at };
}

/** Where a bot stands by its qualification alone (what resuming returns it to). */
export function qualifiedStatus(q: Qualification | null | undefined): Exclude<BotStatus, 'paused'> {
  if (!q || q.state === 'passed' || q.state === 'skipped') return 'active';
  return q.state;
}

/** The status after a change of qualification: a paused bot stays paused. */
export function statusAfter(b: BotRecord, q: Qualification | null): BotStatus {
  return b.status === 'paused' ? 'paused' : qualifiedStatus(q);
}

/** The qualification a finished qualifier leaves, or null when the result came too late for it. */
export function finishedQualification(
  b: BotRecord,
  version: number,
  outcome: QualificationOutcome,
  at: string,
): Qualification | null {
  if (
    b.removedAt ||
    currentVersion(b) !== version ||
    b.qualification?.state !== 'qualifying' ||
    b.qualification.version !== version
  )
    return null;
  return {
    state: outcome.state,
    version,
    matchId: outcome.matchId,
    strikes: outcome.strikes,
    resigned: outcome.resigned,
    reason: outcome.reason,
    at,
  };
}

/** The owner's view of each version: games and the rating at its end (now, for the current one). */
export function versionViews(b: BotRecord, rating: RatingRecord | null): BotVersion[] {
  return versionsOf(b).map((v) => {
    const end =
      v.endedAt === null
        ? rating
          ? { mu: rating.mu, sigma: rating.sigma, gamesPlayed: rating.gamesPlayed }
          : null
        : v.end;
    return {
      version: v.version,
      startedAt: v.startedAt,
      endedAt: v.endedAt,
      games: Math.max(0, (end?.gamesPlayed ?? v.gamesAtStart) - v.gamesAtStart),
      rating: end ? displayRating(end) : null,
      mu: end ? round4(end.mu) : null,
      sigma: end ? round4(end.sigma) : null,
    };
  });
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
