// /metrics in Prometheus text format (prom-client), on a registry of its own
// so several services in one process (tests) never share counters.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MatchResult } from '../../runner/index';
import type { SchedulerMetrics } from '../scheduler/scheduler';

export interface ServiceMetrics extends SchedulerMetrics {
  registry: Registry;
  request(route: string, method: string, status: number): void;
  authFailure(reason: string): void;
  rateLimited(): void;
  /** A connection refused at a cap: 'server' (--max-connections) or 'address' (--max-connections-per-address). */
  connectionRefused(reason: string): void;
  storeWrite(op: string, seconds: number): void;
  setLiveViewers(n: number): void;
}

export function createMetrics(): ServiceMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'arena_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const authFailures = new Counter({
    name: 'arena_auth_failures_total',
    help: 'Failed authentications by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  const limited = new Counter({
    name: 'arena_rate_limited_total',
    help: 'Requests refused with 429',
    registers: [registry],
  });
  const refusedConnections = new Counter({
    name: 'arena_connections_refused_total',
    help: 'Connections answered 429 and closed at a cap, by cap',
    labelNames: ['cap'],
    registers: [registry],
  });
  const storeWrites = new Histogram({
    name: 'arena_store_write_seconds',
    help: 'Store write latency',
    labelNames: ['op'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  });
  const running = new Gauge({ name: 'arena_matches_running', help: 'Matches running now', registers: [registry] });
  const ended = new Counter({
    name: 'arena_matches_total',
    help: 'Matches ended, by status',
    labelNames: ['status'],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'arena_decisions_total',
    help: 'Decisions answered by bots, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'arena_decision_latency_seconds',
    help: 'Time from a decision sent to its answer',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const strikes = new Counter({
    name: 'arena_strikes_total',
    help: 'Strikes by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  const viewers = new Gauge({ name: 'arena_live_viewers', help: 'Open live spectator streams', registers: [registry] });
  return {
    registry,
    request: (route, method, status) => requests.inc({ route, method, status: String(status) }),
    authFailure: (reason) => authFailures.inc({ reason }),
    rateLimited: () => limited.inc(),
    connectionRefused: (cap) => refusedConnections.inc({ cap }),
    storeWrite: (op, seconds) => storeWrites.observe({ op }, seconds),
    setLiveViewers: (n) => viewers.set(n),
    matchStarted: () => running.inc(),
    matchEnded(status, result: MatchResult | null) {
      running.dec();
      ended.inc({ status });
      if (!result) return;
      for (const ev of result.match.replay) {
        if (ev.kind === 'action' && !(ev.data as { default?: boolean }).default)
          decisions.inc({ kind: (ev.data as { kind: string }).kind });
      }
      for (const seat of result.seats) {
        for (const ms of seat.latenciesMs) latency.observe(ms / 1000);
        for (const s of seat.strikeLog) strikes.inc({ reason: s.reason });
      }
    },
  };
}
