// The signed-request replay check on PostgreSQL: the signatures seen inside
// the request window are rows of arena_replay, so a restart and every other
// API process on the database refuse a replayed signature too. It has the
// shape of the auth's ReplayGuard (src/service/http/replay-cache.ts):
// check(key, timestamp, now) -> 'first' | 'replay' | 'full'. `arena serve`
// uses it whenever its store is a database.
//
// One statement decides: INSERT ... ON CONFLICT, which PostgreSQL makes
// atomic per key, so of two processes checking one signature at once exactly
// one sees 'first'. A row whose time is up may be taken over by the same key
// (no longer a replay: the signature itself no longer verifies). Expired rows
// are deleted every sweepMs by whichever process sweeps first.
import type { ReplayCheck, ReplayGuard } from '../http/replay-cache';
import type { Db } from './pg/db';

export interface PgReplayGuardOptions {
  /** How often expired rows are deleted (default 60 s). */
  sweepMs?: number;
}

export class PgReplayGuard implements ReplayGuard {
  private readonly timer: NodeJS.Timeout;

  /** windowMs: how far a signature's timestamp may be from the server's clock (the auth's window). */
  constructor(
    private readonly db: Db,
    private readonly windowMs: number,
    opts: PgReplayGuardOptions = {},
  ) {
    this.timer = setInterval(() => void this.sweep(Date.now()).catch(() => {}), opts.sweepMs ?? 60_000);
    this.timer.unref();
  }

  /**
   * 'first' the first time the signature is seen while it can verify,
   * 'replay' after. Never 'full': the table is bounded by the signatures
   * that verify inside one window, which the rate limits bound. Throws
   * DatabaseUnavailable when the database cannot be reached (a 503).
   */
  async check(key: string, timestamp: number, now: number): Promise<ReplayCheck> {
    // Kept until no server clock inside the window could accept the timestamp again.
    const expiresAt = Math.max(timestamp, now) + this.windowMs;
    const r = await this.db.query(
      `INSERT INTO arena_replay (key, expires_at) VALUES ($1, $2)
       ON CONFLICT (key) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE arena_replay.expires_at <= $3
       RETURNING 1`,
      [Buffer.from(key, 'utf8'), expiresAt, now],
    );
    return r.rowCount === 1 ? 'first' : 'replay';
  }

  /** Deletes the rows whose time is up; returns how many. */
  async sweep(now: number): Promise<number> {
    const r = await this.db.query('DELETE FROM arena_replay WHERE expires_at <= $1', [now]);
    return r.rowCount ?? 0;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
