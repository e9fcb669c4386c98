// /metrics of the job queue, read from the database at each scrape (so any
// process on it, api or worker, reports the whole cluster): queue depth,
// enqueue-to-start latency (p50, p99 of the last five minutes) and matches
// per worker. A worker also counts its own taken matches' waits (histogram).
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Db } from '../store/pg/db';
import { queueStats, type QueueStats } from './match-jobs';

export function registerQueueMetrics(registry: Registry, db: Db): void {
  // One read serves the four gauges of a scrape.
  let memo: { at: number; stats: Promise<QueueStats | null> } | null = null;
  const stats = () => {
    if (!memo || Date.now() - memo.at > 1_000) memo = { at: Date.now(), stats: queueStats(db).catch(() => null) };
    return memo.stats;
  };
  new Gauge({
    name: 'arena_queue_depth',
    help: 'Matches queued that no worker has taken yet',
    registers: [registry],
    async collect() {
      const s = await stats();
      if (s) this.set(s.depth);
    },
  });
  new Gauge({
    name: 'arena_queue_wait_seconds',
    help: 'Enqueue-to-start latency of the matches started in the last 5 minutes, by quantile',
    labelNames: ['quantile'],
    registers: [registry],
    async collect() {
      const s = await stats();
      this.reset();
      if (s?.waitP50 != null) this.set({ quantile: '0.5' }, s.waitP50);
      if (s?.waitP99 != null) this.set({ quantile: '0.99' }, s.waitP99);
    },
  });
  new Gauge({
    name: 'arena_worker_matches_running',
    help: 'Matches each worker is playing now',
    labelNames: ['worker'],
    registers: [registry],
    async collect() {
      const s = await stats();
      this.reset();
      for (const w of s?.workers ?? []) this.set({ worker: w.workerId }, w.running);
    },
  });
  new Gauge({
    name: 'arena_worker_matches_last_hour',
    help: 'Matches each worker took in the last hour',
    labelNames: ['worker'],
    registers: [registry],
    async collect() {
      const s = await stats();
      this.reset();
      for (const w of s?.workers ?? []) this.set({ worker: w.workerId }, w.total);
    },
  });
}

/** This worker's matches taken, by how long each waited in the queue. */
export function jobStartLatency(registry: Registry): (waitedMs: number) => void {
  const h = new Histogram({
    name: 'arena_job_start_latency_seconds',
    help: 'Enqueue-to-start latency of the matches this worker took',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (ms) => h.observe(ms / 1000);
}
