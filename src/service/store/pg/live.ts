// The live tables' statements (sql/0003-live.ts), each one round trip. A
// write NOTIFYs `arena_live` with "<match id> <view seq>" (or "<id> end"):
// PostgreSQL delivers it to every listening process once the write commits,
// so a process that reads on a notification finds the rows there.
import type { Db } from './db';

export const LIVE_CHANNEL = 'arena_live';

/** The match's row, before its first events: another process may now serve its stream. */
export async function openLiveMatch(db: Db, matchId: string, header: string): Promise<void> {
  await db.query(
    'INSERT INTO arena_live_matches (match_id, header) VALUES ($1, $2) ON CONFLICT (match_id) DO NOTHING',
    [matchId, header],
  );
}

/**
 * Events firstSeq.. (JSON text each), the newest public view when there is a
 * new one (the event it follows: viewSeq), and the wake-up naming viewSeq:
 * one statement, one transaction. Returns the row's last_seq before it (null:
 * no row). Below firstSeq - 1, rows the player wrote are gone (a crash of
 * PostgreSQL lost the newest: the live tables' commits do not wait for the
 * disk), and last_seq stays put until the player writes them again.
 */
export async function writeLiveEvents(
  db: Db,
  matchId: string,
  firstSeq: number,
  events: string[],
  view: string | null,
  viewSeq: number,
): Promise<number | null> {
  const lastSeq = firstSeq + events.length - 1;
  const r = await db.query<{ prev: number | null }>(
    `WITH prev AS (
       SELECT last_seq FROM arena_live_matches WHERE match_id = $1
     ), ev AS (
       INSERT INTO arena_live_events (match_id, seq, event)
       SELECT $1, $2::int + t.n::int - 1, t.e FROM unnest($3::text[]) WITH ORDINALITY AS t(e, n)
       WHERE EXISTS (SELECT 1 FROM prev)
       ON CONFLICT DO NOTHING
     ), m AS (
       UPDATE arena_live_matches SET last_seq = $4, view = coalesce($5, view), view_seq = $6, updated_at = now()
       WHERE match_id = $1 AND last_seq >= $2::int - 1
     )
     SELECT pg_notify('${LIVE_CHANNEL}', $7), (SELECT last_seq FROM prev) AS prev`,
    [matchId, firstSeq, events, lastSeq, view, viewSeq, `${matchId} ${viewSeq}`],
  );
  return r.rows[0].prev;
}

/**
 * The end message's data, and the sweep: rows of matches that ended over
 * `keepEndedS` seconds ago go (their events with them: ON DELETE CASCADE),
 * and so do those of matches no write has touched for `staleS` seconds (a
 * player that died without ending them).
 */
export async function endLiveMatch(
  db: Db,
  matchId: string,
  final: string,
  keepEndedS: number,
  staleS: number,
): Promise<void> {
  await db.query(
    `WITH m AS (
       UPDATE arena_live_matches SET final = $2, ended_at = now(), updated_at = now() WHERE match_id = $1
     ), gone AS (
       DELETE FROM arena_live_matches WHERE match_id <> $1 AND (ended_at < now() - make_interval(secs => $3) OR (ended_at IS NULL AND updated_at < now() - make_interval(secs => $4)))
     )
     SELECT pg_notify('${LIVE_CHANNEL}', $5)`,
    [matchId, final, keepEndedS, staleS, `${matchId} end`],
  );
}

/** The sweep alone (endLiveMatch's), for when no match ends for a while; returns the rows deleted. */
export async function sweepLiveMatches(db: Db, keepEndedS: number, staleS: number): Promise<number> {
  const r = await db.query(
    `DELETE FROM arena_live_matches WHERE ended_at < now() - make_interval(secs => $1) OR (ended_at IS NULL AND updated_at < now() - make_interval(secs => $2))`,
    [keepEndedS, staleS],
  );
  return r.rowCount ?? 0;
}

export interface LiveRow {
  header: string;
  lastSeq: number;
  view: string | null;
  /** The event the view follows. */
  viewSeq: number;
  final: string | null;
  /** Seconds since the player last wrote. */
  idleS: number;
  /**
   * Events after the asked seq, in order (JSON text each): up to viewSeq while the match runs, up to lastSeq once it
   * ended.
   */
  events: string[];
}

/** The match's row and its events after `afterSeq`, in one statement (one snapshot: events and view agree). */
export async function readLiveMatch(db: Db, matchId: string, afterSeq: number): Promise<LiveRow | null> {
  const r = await db.query<{
    header: string;
    last_seq: number;
    view: string | null;
    view_seq: number;
    final: string | null;
    idle_s: number;
    events: string[];
  }>(
    `SELECT m.header, m.last_seq, m.view, m.view_seq, m.final, extract(epoch FROM now() - m.updated_at)::float8 AS idle_s,
            ARRAY(SELECT e.event FROM arena_live_events e
                  WHERE e.match_id = m.match_id AND e.seq > $2 AND e.seq <= CASE WHEN m.final IS NULL THEN m.view_seq ELSE m.last_seq END
                  ORDER BY e.seq) AS events
     FROM arena_live_matches m WHERE m.match_id = $1`,
    [matchId, afterSeq],
  );
  const row = r.rows[0];
  return row
    ? {
        header: row.header,
        lastSeq: row.last_seq,
        view: row.view,
        viewSeq: row.view_seq,
        final: row.final,
        idleS: row.idle_s,
        events: row.events,
      }
    : null;
}
