// Sign-in links and sessions on PostgreSQL.
import { StoreConflict, type SessionRecord, type SignInTokenRecord } from '../types';
import type { Db } from './db';
import { isUniqueViolation } from './connect';
import { SESSION_COLS, sessionOf, TOKEN_COLS, tokenOf } from './rows';

// The file store's rule: hashes are plain URL-safe text.
const SAFE_HASH = /^[A-Za-z0-9_+/=-]{8,256}$/;
export function checkHash(tokenHash: string): void {
  if (typeof tokenHash !== 'string' || !SAFE_HASH.test(tokenHash) || tokenHash === '__proto__') {
    throw new TypeError('token hash must be 8-256 characters of base64 or hex');
  }
}

/**
 * Stores the link. With maxOpen: when the address already has that many
 * links unused and unexpired at rec.createdAt, the oldest of them stop
 * working (are deleted) so that the new one is the maxOpen-th; the count, the
 * removal and the add are one transaction, and a per-address advisory lock
 * makes concurrent asks for one address take turns.
 */
export async function addSignInToken(
  db: Db,
  rec: SignInTokenRecord,
  maxOpen: number | undefined,
  now: string,
): Promise<{ added: true; replaced: number }> {
  checkHash(rec.tokenHash);
  try {
    return await db.tx(async (sql) => {
      await sql(`DELETE FROM arena_sign_in_tokens WHERE expires_at::timestamptz <= $1::timestamptz`, [now]);
      let replaced = 0;
      if (maxOpen !== undefined) {
        await sql(`SELECT pg_advisory_xact_lock(hashtext('arena-sign-in:' || $1))`, [rec.email]);
        const open = await sql(
          `SELECT token_hash FROM arena_sign_in_tokens WHERE email = $1 AND used_at IS NULL AND expires_at::timestamptz > $2::timestamptz
           ORDER BY created_at::timestamptz, seq`,
          [rec.email, rec.createdAt],
        );
        const over = open.rows.length - Math.max(0, maxOpen - 1);
        if (over > 0) {
          const gone = open.rows.slice(0, over).map((r) => r.token_hash as string);
          await sql('DELETE FROM arena_sign_in_tokens WHERE token_hash = ANY($1)', [gone]);
          replaced = gone.length;
        }
      }
      await sql(`INSERT INTO arena_sign_in_tokens (${TOKEN_COLS}) VALUES ($1, $2, $3, $4, $5)`, [
        rec.tokenHash,
        rec.email,
        rec.createdAt,
        rec.expiresAt,
        rec.usedAt ?? null,
      ]);
      return { added: true as const, replaced };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new StoreConflict('token', 'this sign-in token exists');
    throw err;
  }
}

/** The link while it is unused and unexpired at `now`; changes nothing. */
export async function getSignInToken(db: Db, tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
  if (typeof tokenHash !== 'string') return null;
  const r = await db.query(
    `SELECT ${TOKEN_COLS} FROM arena_sign_in_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at::timestamptz > $2::text::timestamptz`,
    [tokenHash, now],
  );
  return r.rows[0] ? tokenOf(r.rows[0]) : null;
}

/** One UPDATE: of concurrent uses of one link exactly one sees it unused. */
export async function consumeSignInToken(db: Db, tokenHash: string, now: string): Promise<SignInTokenRecord | null> {
  if (typeof tokenHash !== 'string') return null;
  const r = await db.query(
    `UPDATE arena_sign_in_tokens SET used_at = $2::text WHERE token_hash = $1 AND used_at IS NULL AND expires_at::timestamptz > $2::text::timestamptz RETURNING ${TOKEN_COLS}`,
    [tokenHash, now],
  );
  return r.rows[0] ? tokenOf(r.rows[0]) : null;
}

export async function addSession(db: Db, rec: SessionRecord, now: string): Promise<void> {
  checkHash(rec.tokenHash);
  try {
    await db.tx(async (sql) => {
      await sql(`DELETE FROM arena_sessions WHERE expires_at::timestamptz <= $1::timestamptz`, [now]);
      await sql(`INSERT INTO arena_sessions (${SESSION_COLS}) VALUES ($1, $2, $3, $4)`, [
        rec.tokenHash,
        rec.userId,
        rec.createdAt,
        rec.expiresAt,
      ]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new StoreConflict('session', 'this session exists');
    throw err;
  }
}

export async function getSession(db: Db, tokenHash: string, now?: string): Promise<SessionRecord | null> {
  if (typeof tokenHash !== 'string') return null;
  const r = await db.query(`SELECT ${SESSION_COLS} FROM arena_sessions WHERE token_hash = $1`, [tokenHash]);
  const s = r.rows[0] ? sessionOf(r.rows[0]) : null;
  if (!s || (now !== undefined && Date.parse(s.expiresAt) <= Date.parse(now))) return null;
  return s;
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.query('DELETE FROM arena_sessions WHERE token_hash = $1', [String(tokenHash)]);
}
