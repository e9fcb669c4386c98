// The deploy check (spec section 4): `GET <url>/ping` must answer `pong`, and
// the URL must accept a WebSocket upgrade signed like a real match's with
// `x-svc-match: deploy-check`. Used by `arena play` before the first game and
// by the hosted service at registration, so it knows nothing of the CLI.
import type { KeyObject } from 'node:crypto';
import { request } from 'undici';
import WebSocket from 'ws';
import { signHandshake } from '../keys/index';
import { botAddresses } from './urls';

export const DEPLOY_CHECK_MATCH_ID = 'deploy-check';

export type DeployCheckCode =
  | 'invalid_url'
  | 'connection_refused'
  | 'host_not_found'
  | 'timeout'
  | 'http_status'
  | 'not_pong'
  | 'upgrade_refused'
  | 'network';

export interface DeployCheckFailure {
  step: 'ping' | 'upgrade';
  code: DeployCheckCode;
  /** Names the URL and what failed, ready to show a user. */
  message: string;
  /** HTTP status, for http_status and upgrade_refused. */
  status?: number;
}

export type DeployCheckResult =
  | { ok: true; url: string; pingMs: number; upgradeMs: number }
  | { ok: false; url: string; failure: DeployCheckFailure };

export interface DeployCheckOptions {
  platformKey: KeyObject;
  /** Per step; default 5000 ms. */
  timeoutMs?: number;
}

export async function deployCheck(url: string, opts: DeployCheckOptions): Promise<DeployCheckResult> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const addresses = botAddresses(url);
  if (!addresses) return { ok: false, url, failure: { step: 'ping', code: 'invalid_url', message: `${url} is not a valid URL` } };
  const { ping, ws } = addresses;
  const pinged = await checkPing(ping, timeoutMs);
  if (!pinged.ok) return { ok: false, url, failure: pinged.failure };
  const upgraded = await checkUpgrade(ws, opts.platformKey, DEPLOY_CHECK_MATCH_ID, timeoutMs);
  if (!upgraded.ok) return { ok: false, url, failure: upgraded.failure };
  return { ok: true, url, pingMs: pinged.ms, upgradeMs: upgraded.ms };
}

type StepResult = { ok: true; ms: number } | { ok: false; failure: DeployCheckFailure };

/** GET <url>/ping; the body must be `pong` (surrounding whitespace tolerated). */
export async function checkPing(url: string, timeoutMs: number): Promise<StepResult> {
  const start = performance.now();
  try {
    const res = await request(url, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    // A bot's ping answer is 4 bytes; read a little more to quote a wrong body, never a flood.
    const body = await readCapped(res.body, 256);
    const ms = performance.now() - start;
    if (res.statusCode !== 200) {
      return { ok: false, failure: { step: 'ping', code: 'http_status', status: res.statusCode, message: `GET ${url} answered HTTP ${res.statusCode}, expected 200 with body "pong"` } };
    }
    if (body.trim() !== 'pong') {
      return { ok: false, failure: { step: 'ping', code: 'not_pong', message: `GET ${url} answered ${quote(body)}, expected "pong"` } };
    }
    return { ok: true, ms };
  } catch (err) {
    return { ok: false, failure: networkFailure('ping', `GET ${url}`, err, timeoutMs) };
  }
}

/** Opens a signed WebSocket to the bot and closes it again as soon as it is accepted. */
export function checkUpgrade(url: string, platformKey: KeyObject, matchId: string, timeoutMs: number): Promise<StepResult> {
  const start = performance.now();
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: signHandshake(platformKey, matchId), handshakeTimeout: timeoutMs });
    let settled = false;
    const finish = (r: StepResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    socket.on('open', () => {
      finish({ ok: true, ms: performance.now() - start });
      socket.close(1000, 'deploy check done');
    });
    socket.on('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      const hint = status === 401 ? ' (the bot refused the handshake signature: is it verifying with this arena\'s platform key? see `arena play --print-platform-key`)' : '';
      finish({ ok: false, failure: { step: 'upgrade', code: 'upgrade_refused', status, message: `WebSocket upgrade to ${url} was refused with HTTP ${status}${hint}` } });
      res.resume();
      socket.terminate();
    });
    socket.on('error', (err) => finish({ ok: false, failure: networkFailure('upgrade', `WebSocket upgrade to ${url}`, err, timeoutMs) }));
  });
}

function networkFailure(step: 'ping' | 'upgrade', what: string, err: unknown, timeoutMs: number): DeployCheckFailure {
  const code = errorCode(err);
  if (code === 'ECONNREFUSED') return { step, code: 'connection_refused', message: `${what} failed: connection refused (is the bot running and listening on that port?)` };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { step, code: 'host_not_found', message: `${what} failed: host not found` };
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ABORT_ERR' || code === 'ETIMEDOUT' || /timed? ?out|aborted due to timeout|Opening handshake has timed out/i.test(message)) {
    return { step, code: 'timeout', message: `${what} timed out after ${timeoutMs} ms` };
  }
  return { step, code: 'network', message: `${what} failed: ${message}` };
}

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  // undici wraps socket errors in `cause`; the timeout signal throws a DOMException.
  for (let depth = 0; e && depth < 4; depth++) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    if ((e as { name?: unknown }).name === 'TimeoutError') return 'ABORT_ERR';
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

async function readCapped(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: () => void }, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= max) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, max).toString('utf8');
}

function quote(body: string): string {
  const oneLine = body.replace(/\s+/g, ' ').trim();
  if (!oneLine) return 'with an empty body';
  return JSON.stringify(oneLine.length > 60 ? `${oneLine.slice(0, 60)}...` : oneLine);
}

/** Checks several bots at once; returns the failures (empty when every bot passed). */
export async function deployCheckAll(urls: readonly string[], opts: DeployCheckOptions): Promise<DeployCheckResult[]> {
  return Promise.all(urls.map((u) => deployCheck(u, opts)));
}
