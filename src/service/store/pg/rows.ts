// Rows of the arena tables as the Store's records. Each call builds a new
// object, so callers always get copies.
import type {
  BotRecord,
  ChallengeRecord,
  KeyRecord,
  RatingRecord,
  SessionRecord,
  SignInTokenRecord,
  UserRecord,
} from '../types';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Row = Record<string, any>;

export const USER_COLS = 'id, name, email, created_at';
export const userOf = (r: Row): UserRecord => ({ id: r.id, name: r.name, email: r.email, createdAt: r.created_at });

export const KEY_COLS = 'id, name, public_key, scopes, created_at, last_used_at, revoked_at, user_id';
export const keyOf = (r: Row): KeyRecord => ({
  id: r.id,
  name: r.name,
  publicKey: r.public_key,
  scopes: JSON.parse(r.scopes),
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  userId: r.user_id,
});

export const BOT_COLS =
  'id, owner_id, name, game, url, status, created_at, removed_at, challengeable, version, versions, qualification';
export const botOf = (r: Row): BotRecord => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  game: r.game,
  url: r.url,
  status: r.status,
  createdAt: r.created_at,
  removedAt: r.removed_at,
  version: r.version,
  ...(r.versions !== null ? { versions: JSON.parse(r.versions) } : {}),
  qualification: r.qualification !== null ? JSON.parse(r.qualification) : null,
  // Only the exception is in the record, as in the file store (where an update adds it last).
  ...(r.challengeable === false ? { challengeable: false as const } : {}),
});

export const CHALLENGE_COLS =
  'id, owner_id, bot_id, opponents, status, match_id, reason, created_at, expires_at, ended_at';
export const challengeOf = (r: Row): ChallengeRecord => ({
  id: r.id,
  botId: r.bot_id,
  opponents: JSON.parse(r.opponents),
  status: r.status,
  matchId: r.match_id,
  reason: r.reason,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  endedAt: r.ended_at,
  ownerId: r.owner_id,
});
/** A bot's row values in BOT_COLS order. */
export const botRow = (b: BotRecord): unknown[] => [
  b.id,
  b.ownerId,
  b.name,
  b.game,
  b.url,
  b.status,
  b.createdAt,
  b.removedAt,
  b.challengeable !== false,
  b.version ?? 1,
  b.versions ? JSON.stringify(b.versions) : null,
  b.qualification ? JSON.stringify(b.qualification) : null,
];

export const RATING_COLS = 'bot_id, game, mu, sigma, games_played';
export const ratingOf = (r: Row): RatingRecord => ({
  botId: r.bot_id,
  game: r.game,
  mu: r.mu,
  sigma: r.sigma,
  gamesPlayed: r.games_played,
});

export const SESSION_COLS = 'token_hash, user_id, created_at, expires_at';
export const sessionOf = (r: Row): SessionRecord => ({
  tokenHash: r.token_hash,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

export const TOKEN_COLS = 'token_hash, email, created_at, expires_at, used_at';
export const tokenOf = (r: Row): SignInTokenRecord => ({
  tokenHash: r.token_hash,
  email: r.email,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at,
});
