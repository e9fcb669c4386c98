// A real `serve` HTTP app for tests: the file store in a temp directory (or
// Postgres: test-store.ts), the
// hono app on @hono/node-server at 127.0.0.1 port 0, real Ed25519 keys and
// signatures (src/keys), and every log line captured. The resolver, the
// deploy check's connector, the mailer, the clock and the rate limits can be
// injected; nothing else is stubbed.
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import { serve } from '@hono/node-server';
import { request } from 'undici';
import { generateKeyPair, publicKeyRaw, signRequest } from '../../../src/keys/index';
import type { Resolver } from '../../../src/net/address-policy';
import { deployCheck } from '../../../src/probe/deploy-check';
import type { Scope } from '../../../src/protocol/api';
import { SCOPES } from '../../../src/protocol/api';
import { createApp } from '../../../src/service/http/app';
import { DEFAULT_RATE_LIMITS, type AppDeps } from '../../../src/service/http/deps';
import { logMailer, type Mailer } from '../../../src/service/ops/mail';
import { createMetrics } from '../../../src/service/ops/metrics';
import { timedStore } from '../../../src/service/ops/timed-store';
import { LiveHub } from '../../../src/service/live/hub';
import type { Store, UserRecord } from '../../../src/service/store/types';
import { openTestStore } from '../../support/test-store';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

export interface TestKey {
  id: string;
  userId: string;
  privateKey: KeyObject;
  scopes: Scope[];
}

export interface HarnessOptions {
  /** Production mode (https, public addresses, Secure cookies) unless dev. */
  dev?: boolean;
  resolve?: Resolver;
  deployCheck?: AppDeps['deployCheck'];
  mailer?: Mailer;
  rateLimits?: AppDeps['rateLimits'];
  /** serve --trust-proxy. */
  trustProxy?: boolean;
  /** The service clock (ms); the store keeps the real one. */
  now?: () => number;
  /** Public base URL (default: the listening address). */
  baseUrl?: string;
  /** Replay protection (default: the in-memory cache). */
  replayGuard?: AppDeps['replayGuard'];
}

export interface Harness {
  url: string;
  baseUrl: string;
  dir: string;
  /** The file store, or the Postgres store in the postgres project (test-store.ts). */
  store: Store;
  platformKey: KeyObject;
  platformPublicKey: string;
  /** Every log line the service wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Every log line as written (to search for what must never appear). */
  logText(): string;
  addUser(email: string, handle?: string): Promise<UserRecord>;
  addKey(userId: string, scopes?: readonly Scope[]): Promise<TestKey>;
  /** Signs {method, path, body} with the key and sends exactly that. */
  signed(key: TestKey, method: string, path: string, body?: unknown, extra?: Record<string, string>): Promise<Res>;
  /** Sends anything: the caller builds every header. */
  send(method: string, path: string, opts?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<Res>;
  /** Everything the API can change: users, their keys (lastUsedAt aside) and their bots. */
  snapshot(): Promise<unknown>;
  close(): Promise<void>;
}

/** The x-svc-* headers for a request, signed now (or at `now`). */
export function signHeaders(
  key: Pick<TestKey, 'id' | 'privateKey'>,
  method: string,
  path: string,
  body?: string | Buffer,
  now?: number,
): Record<string, string> {
  return signRequest(
    key.privateKey,
    key.id,
    { method, path, body: body === undefined ? undefined : typeof body === 'string' ? body : new Uint8Array(body) },
    now,
  );
}

export const jsonBody = (body: unknown): string | undefined =>
  body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);

export async function startHarness(opts: HarnessOptions = {}): Promise<Harness> {
  let lastStamp = 0;
  const dir = mkdtempSync(join(tmpdir(), 'arena-api-'));
  const store = await openTestStore(dir);
  const lines: string[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const log: AppDeps['log'] = (fields) => {
    const line = JSON.stringify(fields);
    lines.push(line);
    logs.push(JSON.parse(line));
  };
  const metrics = createMetrics();
  const platform = generateKeyPair();
  const platformPublicKey = Buffer.from(publicKeyRaw(platform.privateKey)).toString('base64');
  const production = !opts.dev;
  const deps: AppDeps = {
    store: timedStore(store, metrics),
    platformKey: platform.privateKey,
    platformPublicKey,
    production,
    baseUrl: '',
    urlPolicy: { production, resolve: opts.resolve },
    deployCheck: opts.deployCheck ?? deployCheck,
    mailer: opts.mailer ?? logMailer(log),
    log,
    metrics,
    hub: new LiveHub(),
    rateLimits: opts.rateLimits ?? { key: { ...DEFAULT_RATE_LIMITS.key }, address: { ...DEFAULT_RATE_LIMITS.address } },
    trustProxy: opts.trustProxy,
    replayGuard: opts.replayGuard,
    now: opts.now ?? Date.now,
  };
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server)) as Server;
    s.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  deps.baseUrl = opts.baseUrl ?? url;

  const send: Harness['send'] = async (method, path, o = {}) => {
    const res = await request(url + path, { method: method as 'GET', headers: o.headers, body: o.body });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json: parsed };
  };

  return {
    url,
    baseUrl: deps.baseUrl,
    dir,
    store,
    platformKey: platform.privateKey,
    platformPublicKey,
    logs,
    logText: () => lines.join('\n'),
    addUser: (email, handle) => store.createUser({ email, name: handle }),
    async addKey(userId, scopes = SCOPES) {
      const pair = generateKeyPair();
      const rec = await store.addKey({
        userId,
        name: 'test key',
        publicKey: Buffer.from(publicKeyRaw(pair.privateKey)).toString('base64'),
        scopes: [...scopes],
      });
      return { id: rec.id, userId, privateKey: pair.privateKey, scopes: [...scopes] };
    },
    signed(key, method, path, body, extra = {}) {
      const text = jsonBody(body);
      // Two identical requests signed in the same millisecond are one signature (Ed25519 is deterministic), a replay:
      // stamp each later than the last.
      lastStamp = Math.max(Date.now(), lastStamp + 1);
      const headers: Record<string, string> = { ...extra, ...signHeaders(key, method, path, text, lastStamp) };
      if (text !== undefined) headers['content-type'] ??= 'application/json';
      return send(method, path, { headers, body: text });
    },
    send,
    async snapshot() {
      const users = await store.listUsers();
      return Promise.all(
        users.map(async (u) => ({
          user: u,
          keys: (await store.listKeys(u.id)).map(({ lastUsedAt: _used, ...k }) => k),
          bots: await store.listBots(u.id),
          challenges: await store.listChallenges(u.id, 100),

          webhooks: await Promise.all(
            (await store.listWebhooks(u.id)).map(async (w) => ({
              ...w,
              deliveries: await store.listWebhookDeliveries(w.id),
            })),
          ),
        })),
      );
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
