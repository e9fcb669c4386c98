// Challenges on PostgreSQL: the limits' counts and the add are one
// transaction, and locking the owner's row makes concurrent requests of one
// account take turns (so two cannot both pass the last free place).
import { newId } from '../ids';
import {
  StoreConflict,
  StoreNotFound,
  type ChallengeLimits,
  type ChallengeOutcome,
  type ChallengeRecord,
} from '../types';
import type { Db } from './db';
import { CHALLENGE_COLS, challengeOf } from './rows';

const DAY_MS = 24 * 3600_000;

export async function addChallenge(
  db: Db,
  input: Pick<ChallengeRecord, 'ownerId' | 'botId' | 'opponents'>,
  ttlMs: number,
  limits: ChallengeLimits,
  now: Date,
): Promise<ChallengeRecord> {
  return db.tx(async (sql) => {
    const owner = await sql('SELECT id FROM arena_users WHERE id = $1 FOR UPDATE', [String(input.ownerId)]);
    if (!owner.rows[0]) throw new StoreNotFound('user', input.ownerId);
    const at = now.getTime();
    const counts = await sql(
      `SELECT count(*) FILTER (WHERE status = 'pending' AND expires_at::timestamptz > $2::timestamptz) AS pending,
              count(*) FILTER (WHERE created_at::timestamptz > $3::timestamptz) AS today
       FROM arena_challenges WHERE owner_id = $1`,
      [input.ownerId, now.toISOString(), new Date(at - DAY_MS).toISOString()],
    );
    const pending = Number(counts.rows[0].pending);
    const today = Number(counts.rows[0].today);
    if (pending >= limits.maxPending)
      throw new StoreConflict(
        'pending_challenges',
        `this account has ${pending} challenges waiting, the most it may have`,
      );
    if (today >= limits.maxPerDay)
      throw new StoreConflict(
        'daily_challenges',
        `this account made ${today} challenges in the last 24 hours, the most it may`,
      );
    const rec: ChallengeRecord = {
      id: newId('c'),
      botId: input.botId,
      opponents: [...input.opponents],
      status: 'pending',
      matchId: null,
      reason: null,
      createdAt: now.toISOString(),
      expiresAt: new Date(at + ttlMs).toISOString(),
      endedAt: null,
      ownerId: input.ownerId,
    };
    await sql(
      `INSERT INTO arena_challenges (${CHALLENGE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      challengeParams(rec),
    );
    return rec;
  });
}

/** The row's values in CHALLENGE_COLS order (the import writes the same). */
export function challengeParams(c: ChallengeRecord): unknown[] {
  return [
    c.id,
    c.ownerId,
    c.botId,
    JSON.stringify(c.opponents),
    c.status,
    c.matchId,
    c.reason,
    c.createdAt,
    c.expiresAt,
    c.endedAt,
  ];
}

export async function listChallenges(db: Db, ownerId: string, limit: number): Promise<ChallengeRecord[]> {
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new RangeError('limit must be 1..100');
  const r = await db.query(
    `SELECT ${CHALLENGE_COLS} FROM arena_challenges WHERE owner_id = $1 ORDER BY seq DESC LIMIT $2`,
    [String(ownerId), limit],
  );
  return r.rows.map(challengeOf);
}

export async function listPendingChallenges(db: Db): Promise<ChallengeRecord[]> {
  const r = await db.query(`SELECT ${CHALLENGE_COLS} FROM arena_challenges WHERE status = 'pending' ORDER BY seq`);
  return r.rows.map(challengeOf);
}

export async function settleChallenge(
  db: Db,
  id: string,
  outcome: ChallengeOutcome,
  now: string,
): Promise<ChallengeRecord | null> {
  // One statement: of two settles, the one that finds it pending wins.
  const r = await db.query(
    `UPDATE arena_challenges SET status = $2, match_id = $3, reason = $4, ended_at = $5
     WHERE id = $1 AND status = 'pending' RETURNING ${CHALLENGE_COLS}`,
    [
      String(id),
      outcome.status,
      outcome.status === 'played' ? outcome.matchId : null,
      outcome.status === 'played' ? null : outcome.reason,
      now,
    ],
  );
  if (r.rows[0]) return challengeOf(r.rows[0]);
  const known = await db.query('SELECT 1 FROM arena_challenges WHERE id = $1', [String(id)]);
  if (!known.rows[0]) throw new StoreNotFound('challenge', id);
  return null;
}
