// `arena serve --role scheduler|worker`: the two cluster roles that serve no
// API, each with a small /health and /metrics listener (queue/ops-server.ts).
// serve.ts opens the database store and hands it here; `all` and `api` stay
// startServer's.
import type { PlatformKey } from '../config/platform-key';
import { addressGate } from '../net/address-policy';
import { createLog, type LogFormat } from '../service/ops/log-format';
import { createMetrics } from '../service/ops/metrics';
import { liveHubFor } from '../service/server';
import { WebhookDispatcher } from '../service/webhooks/dispatcher';
import { MatchWorker } from '../service/queue/match-worker';
import { startOpsServer } from '../service/queue/ops-server';
import { jobStartLatency, registerQueueMetrics } from '../service/queue/queue-metrics';
import { SchedulerRole } from '../service/queue/scheduler-role';
import type { BuiltinBotName } from '../../engine/bots/names';
import type { SameOwnerRule } from '../service/scheduler/tables';
import type { PgStore } from '../service/store/pg-store';

export interface ClusterRoleOptions {
  role: 'scheduler' | 'worker';
  store: PgStore;
  platformKey: PlatformKey;
  host: string;
  port: number;
  dev: boolean;
  logFormat: LogFormat;
  logOut: { write(s: string): unknown };
  tickMs: number;
  matchTimeoutMs: number;
  maxMatches?: number;
  sameOwner: SameOwnerRule;
  minTurnMs?: number;
  /** Qualifiers (played by the scheduler): on unless 'off', against these built-ins (default qualify.ts's). */
  qualify?: 'on' | 'off';
  qualifyOpponents?: readonly BuiltinBotName[];
  concurrency: number;
  leaseMs: number;
  say: (line: string) => void;
}

export interface RunningRole {
  url: string;
  close(): Promise<void>;
}

export async function startClusterRole(o: ClusterRoleOptions): Promise<RunningRole> {
  const log = createLog(o.logOut, o.logFormat);
  const metrics = createMetrics();
  registerQueueMetrics(metrics.registry, o.store.db);
  // Viewers of a worker's matches watch through any api process: the hub shares them through the database.
  const hub = await liveHubFor(o.store, log, o.matchTimeoutMs);
  // Owners' events: every role stores their deliveries; the scheduler (one at a time) sends them.
  const webhooks = new WebhookDispatcher({
    store: o.store,
    platformKey: o.platformKey.privateKey,
    urlPolicy: { production: !o.dev },
    log,
  });
  const common = {
    store: o.store,
    hub,
    platformKey: o.platformKey.privateKey,
    matchTimeoutMs: o.matchTimeoutMs,
    minTurnMs: o.minTurnMs,
    // Every connection to a bot (a worker's matches, the scheduler's qualifiers) obeys the URL rules.
    gate: addressGate({ production: !o.dev }),
    log,
    metrics,
    onOwnerEvent: webhooks.sink,
  };
  let stopRole: () => Promise<void>;
  if (o.role === 'scheduler') {
    const role = new SchedulerRole({
      ...common,
      db: o.store.db,
      tickMs: o.tickMs,
      maxMatches: o.maxMatches,
      sameOwner: o.sameOwner,
      qualify: { enabled: o.qualify !== 'off', opponents: o.qualifyOpponents },
      onLeading: (on) => {
        o.say(
          on
            ? 'this scheduler holds the matchmaker lock: it forms the tables'
            : 'lost the matchmaker lock; waiting for it',
        );
        // Only the leading scheduler sends webhooks (a standby's would send them twice).
        if (on)
          webhooks.start().catch((err: unknown) =>
            log({
              event: 'webhook.error',
              error: `cannot start sending: ${err instanceof Error ? err.message : String(err)}`,
            }),
          );
      },
    });
    await role.start();
    if (!role.leading)
      o.say('another scheduler holds the matchmaker lock: this one waits and takes over within a tick of its end');
    stopRole = () => role.stop();
  } else {
    const worker = new MatchWorker({
      ...common,
      db: o.store.db,
      concurrency: o.concurrency,
      leaseMs: o.leaseMs,
      onTaken: jobStartLatency(metrics.registry),
    });
    await worker.start();
    o.say(
      `worker ${worker.workerId}: plays up to ${o.concurrency} matches at once from the job queue (lease ${o.leaseMs / 1000} s)`,
    );
    stopRole = () => worker.stop();
  }
  let ops;
  try {
    ops = await startOpsServer({
      host: o.host,
      port: o.port,
      role: o.role,
      store: o.store,
      registry: metrics.registry,
    });
  } catch (err) {
    await stopRole();
    await webhooks.stop();
    await hub.stop();
    throw err;
  }
  return {
    url: ops.url,
    async close() {
      await stopRole();
      await webhooks.stop();
      await hub.stop();
      await ops.close();
    },
  };
}
