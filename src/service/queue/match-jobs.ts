// The match queue's SQL: a match handed to the job queue (graphile-worker's
// add_job, in the same transaction as the match's running record, so a match
// is queued exactly when it is recorded), claimed by one worker, kept by its
// lease, and the queries the scheduler and /metrics ask of it. Table:
// arena_match_jobs (store/pg/sql/0003-match-jobs.ts).
import type { MatchRecord } from '../../protocol/index';
import type { Db } from '../store/pg/db';
import { writeMatch } from '../store/pg/matches';

/** graphile-worker's task name for "play this match". */
export const PLAY_MATCH_TASK = 'play_match';

export interface PlayMatchPayload {
  matchId: string;
}

/** Writes the running record, its job row and the queue's job in one transaction. */
export async function enqueueMatch(db: Db, running: MatchRecord): Promise<void> {
  await db.tx(async (sql) => {
    await writeMatch(sql, running, null);
    await sql('INSERT INTO arena_match_jobs (match_id) VALUES ($1)', [running.id]);
    // One attempt: a job whose worker died is not retried by the queue (the lease sweep aborts its match),
    // and a redelivered one finds its match claimed or ended (claimMatch) and plays nothing.
    await sql(
      `SELECT graphile_worker.add_job($1, json_build_object('matchId', $2::text), max_attempts => 1, job_key => $2::text)`,
      [PLAY_MATCH_TASK, running.id],
    );
  });
}

/** Bots seated in running matches (queued or being played, on any process), and how many such matches. */
export async function busyBots(db: Db): Promise<{ botIds: Set<string>; running: number }> {
  const r = await db.query<{ bot_ids: string[] }>(`SELECT bot_ids FROM arena_matches WHERE status = 'running'`);
  const botIds = new Set<string>();
  for (const row of r.rows) for (const id of row.bot_ids) botIds.add(id);
  return { botIds, running: r.rowCount ?? r.rows.length };
}

export interface Overdue {
  matchId: string;
  reason: string;
}

/**
 * Running matches nobody will finish: claimed by a worker whose lease ran out
 * (it died, or lost the database for longer than the lease), queued longer
 * than the match timeout with no worker taking them, or with no job at all
 * (left by a `--role all` server that died: the matchmaker lock says none runs).
 */
export async function overdueMatches(db: Db, matchTimeoutMs: number): Promise<Overdue[]> {
  const r = await db.query<{ id: string; worker_id: string | null; has_job: boolean; lease_out: boolean }>(
    `SELECT m.id, j.worker_id, j.match_id IS NOT NULL AS has_job, j.lease_until < now() AS lease_out
     FROM arena_matches m LEFT JOIN arena_match_jobs j ON j.match_id = m.id
     WHERE m.status = 'running'
       AND (j.match_id IS NULL
            OR (j.worker_id IS NOT NULL AND j.lease_until < now())
            OR (j.worker_id IS NULL AND j.enqueued_at < now() - make_interval(secs => $1)))`,
    [matchTimeoutMs / 1000],
  );
  return r.rows.map((row) => ({
    matchId: row.id,
    reason: !row.has_job
      ? 'its server stopped while it ran'
      : row.worker_id
        ? 'its worker stopped renewing its lease'
        : 'no worker took it within the match timeout',
  }));
}

/**
 * Takes a queued match for this worker: only a running match no worker has
 * claimed, so a match is played at most once. Returns its running record
 * and how long it waited in the queue, or null.
 */
export async function claimMatch(
  db: Db,
  matchId: string,
  workerId: string,
  leaseMs: number,
): Promise<{ record: MatchRecord; waitedMs: number } | null> {
  const r = await db.query<{ record: string; waited: number }>(
    `UPDATE arena_match_jobs j SET worker_id = $2, started_at = now(), lease_until = now() + make_interval(secs => $3)
     FROM arena_matches m
     WHERE j.match_id = $1 AND m.id = j.match_id AND m.status = 'running' AND j.worker_id IS NULL
     RETURNING m.record, (extract(epoch FROM now() - j.enqueued_at) * 1000)::float8 AS waited`,
    [matchId, workerId, leaseMs / 1000],
  );
  const row = r.rows[0];
  return row ? { record: JSON.parse(row.record) as MatchRecord, waitedMs: Number(row.waited) } : null;
}

/**
 * Pushes the lease forward; false when the match is no longer this worker's
 * to play: ended, or its lease already ran out (the sweep may be aborting it:
 * a lapsed lease is never taken back, so the sweep and the worker cannot both
 * think the match theirs).
 */
export async function renewLease(db: Db, matchId: string, workerId: string, leaseMs: number): Promise<boolean> {
  const r = await db.query(
    `UPDATE arena_match_jobs j SET lease_until = now() + make_interval(secs => $3)
     FROM arena_matches m
     WHERE j.match_id = $1 AND j.worker_id = $2 AND j.lease_until >= now() AND m.id = j.match_id AND m.status = 'running'`,
    [matchId, workerId, leaseMs / 1000],
  );
  return (r.rowCount ?? 0) > 0;
}

export interface QueueStats {
  /** Matches queued that no worker has taken yet. */
  depth: number;
  /** Enqueue-to-start latency of the matches started in the last five minutes, in seconds (null when none). */
  waitP50: number | null;
  waitP99: number | null;
  /** Per worker that took a match in the last hour: matches running now, and matches taken in that hour. */
  workers: Array<{ workerId: string; running: number; total: number }>;
}

/** What /metrics reports of the queue: three queries on arena_match_jobs's indexes. */
export async function queueStats(db: Db): Promise<QueueStats> {
  const [depth, wait, workers] = await Promise.all([
    db.query<{ n: string }>(
      `SELECT count(*) AS n FROM arena_match_jobs j JOIN arena_matches m ON m.id = j.match_id WHERE j.worker_id IS NULL AND m.status = 'running'`,
    ),
    db.query<{ p50: number | null; p99: number | null }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY w) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY w) AS p99
       FROM (SELECT extract(epoch FROM started_at - enqueued_at)::float8 AS w FROM arena_match_jobs WHERE started_at > now() - interval '5 minutes') s`,
    ),
    db.query<{ worker_id: string; running: string; total: string }>(
      `SELECT j.worker_id, count(*) FILTER (WHERE m.status = 'running') AS running, count(*) AS total
       FROM arena_match_jobs j JOIN arena_matches m ON m.id = j.match_id WHERE j.started_at > now() - interval '1 hour' GROUP BY j.worker_id`,
    ),
  ]);
  return {
    depth: Number(depth.rows[0].n),
    waitP50: wait.rows[0]?.p50 ?? null,
    waitP99: wait.rows[0]?.p99 ?? null,
    workers: workers.rows.map((w) => ({ workerId: w.worker_id, running: Number(w.running), total: Number(w.total) })),
  };
}
