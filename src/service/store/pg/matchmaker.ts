// One matchmaker per database. Every server on a database serves the API, but
// only one may seat bots: two schedulers would seat one bot in two matches,
// and a starting scheduler aborts the matches the store has as running (on
// the file store they can only be a dead process's; here they may be another
// live server's). The matchmaker is whoever holds a session advisory lock;
// PostgreSQL releases it when that server's connection ends.
import type pg from 'pg';
import type { Db } from './db';

/** Any fixed number, distinct from the migration lock's. */
const MATCHMAKER_LOCK = 0x61726d6d;

export interface MatchmakerLease {
  /** True when this process is the database's matchmaker. */
  held: boolean;
  /**
   * Whether the lock's connection still answers: when it died, PostgreSQL released the lock and another process may
   * hold it.
   */
  alive(): Promise<boolean>;
  release(): Promise<void>;
}

export async function claimMatchmaking(db: Db): Promise<MatchmakerLease> {
  const client: pg.PoolClient = await db.pool.connect();
  try {
    const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [MATCHMAKER_LOCK]);
    if (!r.rows[0].ok) {
      client.release();
      return { held: false, alive: async () => false, release: async () => {} };
    }
  } catch (err) {
    client.release(true);
    throw err;
  }
  // The connection stays checked out for as long as the lease lives: the lock is the session's.
  let lost = false;
  client.on('error', () => {
    lost = true;
  });
  let released = false;
  return {
    held: true,
    async alive() {
      if (lost || released) return false;
      try {
        await client.query('SELECT 1');
        return true;
      } catch {
        lost = true;
        return false;
      }
    },
    async release() {
      if (released) return;
      released = true;
      await client.query('SELECT pg_advisory_unlock($1)', [MATCHMAKER_LOCK]).catch(() => {});
      client.release(true);
    },
  };
}
