// `arena serve` as a library: the HTTP API, the scheduler and the live hub on
// one store, listening on host:port. The CLI (src/cli/commands/serve.ts) is a
// thin layer over startServer; tests call it directly.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { loadOrCreatePlatformKeyAt, PLATFORM_KEY_FILE, type PlatformKey } from '../config/platform-key';
import { addressGate, type Resolver } from '../net/address-policy';
import { deployCheck } from '../probe/deploy-check';
import { createApp } from './http/app';
import { ConnectionGate, defaultConnectionLimits, openFileLimit, type ConnectionLimits } from './http/connection-limit';
import { DEFAULT_RATE_LIMITS, type AppDeps } from './http/deps';
import { createLog, type LogFormat, type ServiceLog } from './ops/log-format';
import { logMailer, smtpMailer, type Mailer } from './ops/mail';
import { createMetrics, type ServiceMetrics } from './ops/metrics';
import type { ReplayGuard } from './http/replay-cache';
import { timedStore } from './ops/timed-store';
import { LiveHub } from './live/hub';
import { DEFAULT_MAX_MATCHES, Scheduler } from './scheduler/scheduler';
import type { SameOwnerRule } from './scheduler/tables';
import type { BuiltinBotName } from '../../engine/bots/names';
import type { Store } from './store/types';
import { WebhookDispatcher } from './webhooks/dispatcher';
import { join } from 'node:path';
import type { ServeRole } from '../protocol/api';
import type { Db } from './store/pg/db';
import { registerQueueMetrics } from './queue/queue-metrics';

export interface ServerOptions {
  store: Store;
  /**
   * What this process does (serve --role; default all): api serves HTTP and runs no matches (the CLI also sets
   * tickSeconds 0).
   */
  role?: ServeRole;
  /** On a database cluster: /metrics also reports the job queue (queue-metrics.ts) from the database. */
  queueMetricsDb?: Db;
  /** The data directory: the platform key lives at <dataDir>/platform-key.pem unless platformKey is given. */
  dataDir: string;
  platformKey?: PlatformKey;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Public address for links; default http://HOST:PORT. */
  baseUrl?: string;
  /** Development: http/ws and loopback bot URLs allowed, cookies without Secure. */
  dev?: boolean;
  smtpUrl?: string;
  mailFrom?: string;
  logFormat?: LogFormat;
  /** Where log lines go; none are written without it (the CLI passes its stderr). */
  logOut?: { write(s: string): unknown };
  /** Matchmaking tick in seconds (default 30); 0 turns the scheduler off. */
  tickSeconds?: number;
  /**
   * Abort the matches the store has as running at start (default true); false when another live server runs matchmaking
   * on the same database.
   */
  recoverMatches?: boolean;
  /** Wall clock per match (default 10 minutes). */
  matchTimeoutMs?: number;
  /** Matches running at once, at most (default DEFAULT_MAX_MATCHES, scheduler.ts). */
  maxMatches?: number;
  /** Two bots of one owner at a table (default avoid, tables.ts). */
  sameOwner?: SameOwnerRule;
  deadlineMs?: number;
  timeBankMs?: number;
  /** Each turn of a match takes at least this long, for spectators (default 0: as fast as the bots answer). */
  minTurnMs?: number;
  rateLimits?: AppDeps['rateLimits'];
  /** Behind a reverse proxy: count clients by its X-Forwarded-For (see clientAddress). */
  trustProxy?: boolean;
  /**
   * Replay protection shared beyond this process (a Postgres store's): with it, signed requests
   * stamped before the start are accepted. Without it, the replay cache lives in this process's
   * memory and forgets everything at a restart, so those requests are refused (AppDeps.signedSince).
   */
  replayGuard?: ReplayGuard;
  /** Open live streams per client address (default 32). */
  liveStreamsPerAddress?: number;
  /**
   * Connection caps (serve --max-connections, --max-connections-per-address, --max-live-streams); defaults from the
   * open-file limit (defaultConnectionLimits).
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * How long a client may take to send a request's headers, and the whole request; an idle keep-alive connection's life
   * (defaults: HTTP_TIMEOUTS).
   */
  timeouts?: Partial<HttpTimeouts>;
  /** Tests: a resolver for the URL policy (no real DNS), a mailer. */
  resolve?: Resolver;
  mailer?: Mailer;
  /** Tests: a short webhook retry schedule (offsets from the event, ms) and how often due retries are looked for. */
  webhookRetryScheduleMs?: readonly number[];
  webhookPollMs?: number;
  /**
   * Qualification (default on): a new bot, or a new version of one, plays one unrated match against
   * built-in bots before rated matchmaking seats it. off: bots are active at once, as before.
   */
  qualify?: 'on' | 'off';
  /** The built-ins a qualifier seats (2 or 3; default DEFAULT_QUALIFY_OPPONENTS, qualify.ts). */
  qualifyOpponents?: readonly BuiltinBotName[];
  /**
   * Tests: with a Postgres store, write each match's live events at most this often (ms; default pg-hub.ts
   * DEFAULT_WRITE_INTERVAL_MS).
   */
  liveWriteIntervalMs?: number;
  /** Tests: fixed seeds and match ids, for a game that must hold given events (production: 128 random bits each). */
  newSeed?: () => string;
  newMatchId?: () => string;
}

export interface RunningServer {
  /** http://HOST:PORT actually listening. */
  url: string;
  baseUrl: string;
  platformKey: PlatformKey;
  scheduler: Scheduler;
  /** Delivers owner events to webhooks; its sink takes events from qualification too. */
  webhooks: WebhookDispatcher;
  /** What /metrics reports; benchmarks read per-match results through it. */
  metrics: ServiceMetrics;
  /** The connection caps in force (defaults resolved). */
  connectionLimits: ConnectionLimits;
  /** Stop accepting, finish in-flight requests, abort running matches and record them. The store stays open. */
  close(): Promise<void>;
}

export interface HttpTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  /** How often Node checks the two above (its default, 30 s, would let a slow client stay 30 s past them). */
  checkEveryMs: number;
}

/**
 * Short enough that a slow client cannot hold a connection long, ample for any real one (bodies are 64 KiB at most).
 */
export const HTTP_TIMEOUTS: HttpTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  checkEveryMs: 1_000,
};

export const DEFAULT_TICK_SECONDS = 30;
export const DEFAULT_MATCH_TIMEOUT_MS = 10 * 60_000;

/**
 * The live hub: with a Postgres store, one shared through the database (every
 * process on it serves the stream of every match, wherever it is played);
 * otherwise the in-memory hub. The Postgres modules load only for a Postgres store.
 */
export async function liveHubFor(
  store: Store,
  log: ServiceLog,
  matchTimeoutMs: number,
  writeIntervalMs?: number,
): Promise<LiveHub> {
  if (!('db' in store)) return new LiveHub();
  const { PgStore } = await import('./store/pg-store');
  if (!(store instanceof PgStore)) return new LiveHub();
  const { PgLiveHub } = await import('./live/pg-hub');
  return PgLiveHub.start(store.db, {
    log,
    writeIntervalMs,
    // A running match's rows outlive any match (its timeout) before they count as a dead player's.
    staleMs: Math.max(3_600_000, 2 * matchTimeoutMs),
    finalOf: async (id) => {
      const m = await store.getMatch(id);
      return m && m.status !== 'running'
        ? { status: m.status, players: m.players, endedAt: m.endedAt ?? new Date().toISOString() }
        : null;
    },
  });
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const startedAt = Date.now();
  const production = !opts.dev;
  const host = opts.host ?? '127.0.0.1';
  const log = createLog(opts.logOut ?? { write: () => true }, opts.logFormat ?? 'json');
  const metrics = createMetrics();
  if (opts.queueMetricsDb) registerQueueMetrics(metrics.registry, opts.queueMetricsDb);
  const store = timedStore(opts.store, metrics);
  const platformKey = opts.platformKey ?? loadOrCreatePlatformKeyAt(join(opts.dataDir, PLATFORM_KEY_FILE));
  const hub = await liveHubFor(
    opts.store,
    log,
    opts.matchTimeoutMs ?? DEFAULT_MATCH_TIMEOUT_MS,
    opts.liveWriteIntervalMs,
  );
  const urlPolicy = { production, resolve: opts.resolve };
  const gate = addressGate(urlPolicy);
  const webhooks = new WebhookDispatcher({
    store,
    platformKey: platformKey.privateKey,
    urlPolicy,
    log,
    retryScheduleMs: opts.webhookRetryScheduleMs,
    pollMs: opts.webhookPollMs,
  });
  const qualify = opts.qualify !== 'off';

  const scheduler = new Scheduler({
    store,
    hub,
    platformKey: platformKey.privateKey,
    gate,
    tickMs: (opts.tickSeconds ?? DEFAULT_TICK_SECONDS) * 1000,
    matchTimeoutMs: opts.matchTimeoutMs ?? DEFAULT_MATCH_TIMEOUT_MS,
    maxMatches: opts.maxMatches,
    sameOwner: opts.sameOwner,
    deadlineMs: opts.deadlineMs,
    timeBankMs: opts.timeBankMs,
    minTurnMs: opts.minTurnMs,
    log,
    metrics,
    newSeed: opts.newSeed,
    newMatchId: opts.newMatchId,
    onOwnerEvent: webhooks.sink,
    qualify: { enabled: qualify, opponents: opts.qualifyOpponents },
  });
  // A start that fails from here on lets go of the hub's connection (a shared hub holds one).
  const failed = async (err: unknown): Promise<never> => {
    await hub.stop(0);
    throw err;
  };
  if (opts.recoverMatches !== false) await scheduler.recover().catch(failed);

  // The base URL is known only once the port is; the app reads it through deps.
  const deps: AppDeps = {
    store,
    platformKey: platformKey.privateKey,
    platformPublicKey: platformKey.publicKeyBase64,
    production,
    role: opts.role ?? 'all',
    baseUrl: opts.baseUrl ?? '',
    urlPolicy,
    deployCheck,
    log,
    metrics,
    hub,
    qualify,
    mailer:
      opts.mailer ??
      (opts.smtpUrl ? await smtpMailer(opts.smtpUrl, opts.mailFrom ?? 'Bot Arena <arena@localhost>') : logMailer(log)),
    rateLimits: opts.rateLimits ?? DEFAULT_RATE_LIMITS,
    trustProxy: opts.trustProxy === true,
    liveStreamsPerAddress: opts.liveStreamsPerAddress,
    replayGuard: opts.replayGuard,
    signedSince: opts.replayGuard ? undefined : startedAt,
    now: Date.now,
  };
  // A wrong SMTP host or port shows at the first sign-in otherwise: try it now, without holding up the start.
  void deps.mailer.check?.().then((error) => {
    if (error !== null)
      log({ event: 'mail.check_failed', error, note: 'sign-in mail will fail until the SMTP server (--smtp) answers' });
  });
  const connectionLimits = {
    ...defaultConnectionLimits(openFileLimit(), opts.maxMatches ?? DEFAULT_MAX_MATCHES, opts.trustProxy === true),
    ...opts.connectionLimits,
  };
  // Refusals are logged at most once a minute (a flood would fill the log otherwise), with how many.
  const refused = { server: 0, address: 0 };
  let refusedLogAt = 0;
  const connections = new ConnectionGate(connectionLimits, (reason) => {
    refused[reason]++;
    metrics.connectionRefused(reason);
    const now = Date.now();
    if (now - refusedLogAt < 60_000) return;
    refusedLogAt = now;
    log({
      event: 'connections.refused',
      ...refused,
      ...connectionLimits,
      note: 'connections past a cap are answered 429 and closed (serve --max-connections, --max-connections-per-address)',
    });
    refused.server = refused.address = 0;
  });
  deps.connections = connections;
  const timeouts = { ...HTTP_TIMEOUTS, ...opts.timeouts };
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: opts.port ?? 8080,
        hostname: host,
        serverOptions: {
          headersTimeout: timeouts.headersMs,
          requestTimeout: timeouts.requestMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: timeouts.checkEveryMs,
        },
      },
      () => resolve(s as Server),
    ) as Server;
    connections.attach(s);
    s.once('error', reject);
  }).catch(failed);
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  deps.baseUrl = (opts.baseUrl ?? url).replace(/\/+$/, '');
  // Deliveries (and their retries after a restart) belong to the server that owns matchmaking on this
  // store (the one that recovers its matches), so one server sends each.
  if (opts.recoverMatches !== false) await webhooks.start();
  if ((opts.tickSeconds ?? DEFAULT_TICK_SECONDS) > 0) scheduler.start();

  let closing: Promise<void> | null = null;
  return {
    url,
    baseUrl: deps.baseUrl,
    platformKey,
    scheduler,
    webhooks,
    metrics,
    connectionLimits,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        await scheduler.stop();
        await webhooks.stop();
        // The ends of the matches just stopped reach the database before the store closes.
        await hub.stop();
        // Once closing, Node no longer times requests out: a client still sending one after the request timeout is cut
        // off.
        const cut = setTimeout(() => server.closeAllConnections(), timeouts.requestMs);
        await stopped;
        clearTimeout(cut);
      })()),
  };
}
