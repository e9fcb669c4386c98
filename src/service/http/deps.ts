// Everything the HTTP app needs, injected: tests swap the resolver, the clock,
// the mailer and the limits, never the store or the signatures.
import type { KeyObject } from 'node:crypto';
import type { Socket } from 'node:net';
import type { AddressPolicy } from '../../net/address-policy';
import type { deployCheck } from '../../probe/deploy-check';
import type { ServeRole } from '../../protocol/api';
import type { LiveHub } from '../live/hub';
import type { Store } from '../store/types';
import type { Mailer } from '../ops/mail';
import type { ServiceLog } from '../ops/log-format';
import type { ServiceMetrics } from '../ops/metrics';
import type { RateLimit } from './rate-limit';
import type { ReplayGuard } from './replay-cache';

export interface AppDeps {
  store: Store;
  platformKey: KeyObject;
  /** base64 of the raw 32-byte platform public key. */
  platformPublicKey: string;
  /** Production: https bot URLs at public addresses only; Secure cookies. */
  production: boolean;
  /** Where users reach the service (sign-in links, the same-origin check), e.g. https://arena.example.com. */
  baseUrl: string;
  /** The bot URL policy at registration (its resolver is injectable). */
  urlPolicy: AddressPolicy;
  /** The deploy check; tests may inject a connector-bound one. */
  deployCheck: typeof deployCheck;
  mailer: Mailer;
  log: ServiceLog;
  metrics: ServiceMetrics;
  hub: LiveHub;
  /** What this process does (serve --role), for /health (default all). */
  role?: ServeRole;
  /**
   * key: per key; address: per client address on routes without credentials; authFailures: failed signed
   * requests per address; signInMails: sign-in links one client address may ask for; signInMailsPerAddress:
   * sign-in links mailed to one e-mail address, whoever asks; deployChecks: the
   * checks (outgoing connections to a bot's URL) one account may have the server run; keyCreations: keys
   * one account may add; webhookCreations: webhooks one account may add (defaults below).
   */
  rateLimits: {
    key: RateLimit;
    address: RateLimit;
    authFailures?: RateLimit;
    signInMails?: RateLimit;
    signInMailsPerAddress?: RateLimit;
    deployChecks?: RateLimit;
    keyCreations?: RateLimit;
    webhookCreations?: RateLimit;
    requalifications?: RateLimit;
  };
  /** Behind a reverse proxy: count clients by X-Forwarded-For (client-limit.ts says when it is believed). */
  trustProxy?: boolean;
  /** Streams of running matches one client address may hold open (default MAX_LIVE_STREAMS_PER_ADDRESS). */
  liveStreamsPerAddress?: number;
  /**
   * The connection caps (connection-limit.ts): a request that becomes a live stream moves to the live streams' budget;
   * false when it is full.
   */
  connections?: { toLive(socket: Socket): boolean };
  /** Replay protection for signed requests (default: a ReplayCache in this process's memory). */
  replayGuard?: ReplayGuard;
  /**
   * Signed requests stamped before this (ms) are refused: the server's start, when the replay guard
   * forgets everything at a restart (the in-memory one), so nothing signed before it can be replayed after it.
   */
  signedSince?: number;
  now: () => number;
  /**
   * Qualification on (serve default): a registered bot, and each new version, waits as `qualifying` for
   * its qualifier. Off or absent: bots are active at once.
   */
  qualify?: boolean;
}

export const DEFAULT_RATE_LIMITS = {
  key: { perSecond: 50, burst: 200 },
  address: { perSecond: 10, burst: 60 },
  // A client with a wrong clock or key fails a few times; thousands of bad signatures are an attack.
  authFailures: { perSecond: 2, burst: 100 },
  // Each one is a mail to someone and a write of the store: a few in a row (a typo, a retry), then one a minute.
  signInMails: { perSecond: 1 / 60, burst: 10 },
  // Whoever asks, one inbox gets a few links in a row, then one a minute: a stranger can delay a sign-in by a minute,
  // never stop it.
  signInMailsPerAddress: { perSecond: 1 / 60, burst: 3 },
  // Each one connects to a URL the account chose: enough to fix a bot by trial, too few to aim the server at someone.
  deployChecks: { perSecond: 1 / 5, burst: 20 },
  // A revoked key stays on record: a few in a row (new machines, rotation), then one a minute, so adding and revoking
  // cannot fill the store.
  keyCreations: { perSecond: 1 / 60, burst: 20 },
  // Each one resolves a URL the account chose; removing and adding again cannot make the server resolve names at will.
  webhookCreations: { perSecond: 1 / 60, burst: 20 },
  // Each requalification plays a match on this server's CPU: a few in a row (fixes tried), then one every 10 minutes
  // per account.
  requalifications: { perSecond: 1 / 600, burst: 3 },
} as const;

/** A limit as the API's descriptions word it: "20 in a row, then one every 5 seconds" (or "one a minute"). */
export function allowanceText(limit: RateLimit): string {
  const seconds = 1 / limit.perSecond;
  return `${limit.burst} in a row, then one ${seconds === 60 ? 'a minute' : `every ${seconds} seconds`}`;
}
