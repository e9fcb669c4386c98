// `arena serve` as a library: the HTTP API, the scheduler and the live hub on
// one store, listening on host:port. The CLI (src/cli/commands/serve.ts) is a
// thin layer over startServer; tests call it directly.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { loadOrCreatePlatformKeyAt, PLATFORM_KEY_FILE, type PlatformKey } from '../config/platform-key';
import { addressGate, type Resolver } from '../probe/address-policy';
import { deployCheck } from '../probe/deploy-check';
import { createApp } from './http/app';
import { DEFAULT_RATE_LIMITS, type AppDeps } from './http/deps';
import { createLog, type LogFormat } from './http/log-format';
import { logMailer, smtpMailer, type Mailer } from './http/mail';
import { createMetrics, type ServiceMetrics } from './http/metrics';
import { timedStore } from './http/timed-store';
import { LiveHub } from './live/hub';
import { Scheduler } from './scheduler/scheduler';
import type { Store } from './store/types';
import { join } from 'node:path';

export interface ServerOptions {
  store: Store;
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
  /** Abort the matches the store has as running at start (default true); false when another live server runs matchmaking on the same database. */
  recoverMatches?: boolean;
  /** Wall clock per match (default 10 minutes). */
  matchTimeoutMs?: number;
  /** Matches running at once, at most (default DEFAULT_MAX_MATCHES, scheduler.ts). */
  maxMatches?: number;
  deadlineMs?: number;
  timeBankMs?: number;
  rateLimits?: AppDeps['rateLimits'];
  /** Behind a reverse proxy: count clients by its X-Forwarded-For (see clientAddress). */
  trustProxy?: boolean;
  /** Open live streams per client address (default 32). */
  liveStreamsPerAddress?: number;
  /** Tests: a resolver for the URL policy (no real DNS), a mailer. */
  resolve?: Resolver;
  mailer?: Mailer;
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
  /** What /metrics reports; benchmarks read per-match results through it. */
  metrics: ServiceMetrics;
  /** Stop accepting, finish in-flight requests, abort running matches and record them. The store stays open. */
  close(): Promise<void>;
}

export const DEFAULT_TICK_SECONDS = 30;
export const DEFAULT_MATCH_TIMEOUT_MS = 10 * 60_000;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const production = !opts.dev;
  const host = opts.host ?? '127.0.0.1';
  const log = createLog(opts.logOut ?? { write: () => true }, opts.logFormat ?? 'json');
  const metrics = createMetrics();
  const store = timedStore(opts.store, metrics);
  const platformKey = opts.platformKey ?? loadOrCreatePlatformKeyAt(join(opts.dataDir, PLATFORM_KEY_FILE));
  const hub = new LiveHub();
  const urlPolicy = { production, resolve: opts.resolve };
  const gate = addressGate(urlPolicy);

  const scheduler = new Scheduler({
    store, hub, platformKey: platformKey.privateKey, gate,
    tickMs: (opts.tickSeconds ?? DEFAULT_TICK_SECONDS) * 1000,
    matchTimeoutMs: opts.matchTimeoutMs ?? DEFAULT_MATCH_TIMEOUT_MS,
    maxMatches: opts.maxMatches,
    deadlineMs: opts.deadlineMs, timeBankMs: opts.timeBankMs, log, metrics,
    newSeed: opts.newSeed, newMatchId: opts.newMatchId,
  });
  if (opts.recoverMatches !== false) await scheduler.recover();

  // The base URL is known only once the port is; the app reads it through deps.
  const deps: AppDeps = {
    store, platformKey: platformKey.privateKey, platformPublicKey: platformKey.publicKeyBase64, production,
    baseUrl: opts.baseUrl ?? '', urlPolicy, deployCheck, log, metrics, hub,
    mailer: opts.mailer ?? (opts.smtpUrl ? await smtpMailer(opts.smtpUrl, opts.mailFrom ?? 'Bot Arena <arena@localhost>') : logMailer(log)),
    rateLimits: opts.rateLimits ?? DEFAULT_RATE_LIMITS,
    trustProxy: opts.trustProxy === true,
    liveStreamsPerAddress: opts.liveStreamsPerAddress,
    now: Date.now,
  };
  // A wrong SMTP host or port shows at the first sign-in otherwise: try it now, without holding up the start.
  void deps.mailer.check?.().then((error) => {
    if (error !== null) log({ event: 'mail.check_failed', error, note: 'sign-in mail will fail until the SMTP server (--smtp) answers' });
  });
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: opts.port ?? 8080, hostname: host }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  deps.baseUrl = (opts.baseUrl ?? url).replace(/\/+$/, '');
  if ((opts.tickSeconds ?? DEFAULT_TICK_SECONDS) > 0) scheduler.start();

  let closing: Promise<void> | null = null;
  return {
    url, baseUrl: deps.baseUrl, platformKey, scheduler, metrics,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        server.closeIdleConnections();
        await scheduler.stop();
        await stopped;
      })()),
  };
}
