// Schema version 6: one row per match handed to the job queue (serve --role
// scheduler), beside graphile-worker's own tables (schema graphile_worker).
// The queue delivers the job; this row decides who plays it: a worker claims
// the match by setting worker_id where it is null (so a match is played at
// most once, whatever the queue redelivers), and keeps it by pushing
// lease_until forward. The scheduler aborts a running match whose lease ran
// out (its worker died or lost the database), or that no worker took within
// the match timeout.
export default `
CREATE TABLE arena_match_jobs (
  match_id text PRIMARY KEY REFERENCES arena_matches (id),
  enqueued_at timestamptz NOT NULL DEFAULT now(),
  worker_id text,
  started_at timestamptz,
  lease_until timestamptz
);
CREATE INDEX arena_match_jobs_waiting ON arena_match_jobs (enqueued_at) WHERE worker_id IS NULL;
CREATE INDEX arena_match_jobs_started ON arena_match_jobs (started_at) WHERE started_at IS NOT NULL;
`;
