// The deploy check (spec section 4): `GET <url>/ping` must answer `pong`, and
// the URL must accept a WebSocket upgrade signed like a real match's with
// `x-svc-match: deploy-check`. Used by `arena play` before the first game and
// by the hosted service at registration, so it knows nothing of the CLI.
// With an address gate, the gate runs once and both steps connect to the
// address it checked (pinned lookup), so DNS cannot move the bot in between.
import type { KeyObject } from 'node:crypto';
import { Agent, request } from 'undici';
import {
  networkFailure as classifyNetworkError,
  openBotSocket,
  runGate,
  type AddressGate,
  type CheckedAddress,
  type ConnectFailure,
} from '../runner/connect';
import { pinnedLookup } from '../net/pinned-lookup';
import { botAddresses } from './urls';

export const DEPLOY_CHECK_MATCH_ID = 'deploy-check';

export type DeployCheckCode =
  | 'invalid_url'
  | 'url_rejected'
  | 'connection_refused'
  | 'host_not_found'
  | 'timeout'
  | 'http_status'
  | 'not_pong'
  | 'upgrade_refused'
  | 'network';

export interface DeployCheckFailure {
  /** `url`: the address gate refused the URL before any connection. */
  step: 'url' | 'ping' | 'upgrade';
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
  /** The address check (production policy); both steps then connect to the address it returned. */
  gate?: AddressGate;
  /** Told as each connecting step starts (to show progress). */
  onStep?: (step: 'ping' | 'upgrade') => void;
}

/** The deploy check reads no message: any frame the bot sends over this closes the socket. */
const DEPLOY_CHECK_MAX_PAYLOAD = 1024;

export async function deployCheck(url: string, opts: DeployCheckOptions): Promise<DeployCheckResult> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const addresses = botAddresses(url);
  if (!addresses)
    return { ok: false, url, failure: { step: 'ping', code: 'invalid_url', message: `${url} is not a valid URL` } };
  const { ping, ws } = addresses;
  let address: CheckedAddress | undefined;
  if (opts.gate) {
    const checked = await runGate(opts.gate, url, timeoutMs);
    if (!checked.ok) {
      const { code, message } = checked.failure;
      return {
        ok: false,
        url,
        failure: { step: 'url', code: code === 'timeout' ? 'timeout' : 'url_rejected', message: `${url}: ${message}` },
      };
    }
    address = checked.address;
  }
  opts.onStep?.('ping');
  const pinged = await checkPing(ping, timeoutMs, address);
  if (!pinged.ok) return { ok: false, url, failure: pinged.failure };
  opts.onStep?.('upgrade');
  const upgraded = await checkUpgrade(ws, opts.platformKey, DEPLOY_CHECK_MATCH_ID, timeoutMs, address);
  if (!upgraded.ok) return { ok: false, url, failure: upgraded.failure };
  return { ok: true, url, pingMs: pinged.ms, upgradeMs: upgraded.ms };
}

type StepResult = { ok: true; ms: number } | { ok: false; failure: DeployCheckFailure };

/** GET <url>/ping; the body must be `pong` (surrounding whitespace tolerated). With `address`, connects only there. */
export async function checkPing(url: string, timeoutMs: number, address?: CheckedAddress): Promise<StepResult> {
  const start = performance.now();
  const dispatcher = address ? new Agent({ connect: { lookup: pinnedLookup(address) } }) : undefined;
  try {
    const res = await request(url, {
      method: 'GET',
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
      dispatcher,
    });
    // A bot's ping answer is 4 bytes; read a little more to quote a wrong body, never a flood.
    const body = await readCapped(res.body, 256);
    const ms = performance.now() - start;
    if (res.statusCode !== 200) {
      return {
        ok: false,
        failure: {
          step: 'ping',
          code: 'http_status',
          status: res.statusCode,
          message: `GET ${url} answered HTTP ${res.statusCode}, expected 200 with body "pong"`,
        },
      };
    }
    if (body.trim() !== 'pong') {
      return {
        ok: false,
        failure: { step: 'ping', code: 'not_pong', message: `GET ${url} answered ${quote(body)}, expected "pong"` },
      };
    }
    return { ok: true, ms };
  } catch (err) {
    return { ok: false, failure: stepFailure('ping', `GET ${url}`, classifyNetworkError(err, timeoutMs), timeoutMs) };
  } finally {
    await dispatcher?.destroy();
  }
}

/**
 * Opens a signed WebSocket to the bot (the runner's client path) and cuts it
 * as soon as the upgrade is accepted: no compression offered, no message read,
 * no waiting for a Close handshake the bot may never answer.
 */
export async function checkUpgrade(
  url: string,
  platformKey: KeyObject,
  matchId: string,
  timeoutMs: number,
  address?: CheckedAddress,
): Promise<StepResult> {
  const r = await openBotSocket({
    url,
    matchId,
    platformKey,
    maxPayload: DEPLOY_CHECK_MAX_PAYLOAD,
    handshakeTimeoutMs: timeoutMs,
    address,
  });
  if (r.ok) {
    r.socket.terminate();
    return { ok: true, ms: r.ms };
  }
  const { failure } = r;
  if (failure.code === 'upgrade_refused') {
    const status = failure.status ?? 0;
    const hint =
      status === 401
        ? " (the bot refused the handshake: is it verifying with this arena's platform key (see `arena play --print-platform-key`), and is its public URL (--public-url) the URL checked here?)"
        : '';
    return {
      ok: false,
      failure: {
        step: 'upgrade',
        code: 'upgrade_refused',
        status,
        message: `WebSocket upgrade to ${url} was refused with HTTP ${status}${hint}`,
      },
    };
  }
  return { ok: false, failure: stepFailure('upgrade', `WebSocket upgrade to ${url}`, failure, timeoutMs) };
}

/** A connection failure, worded for a user: what was tried and what went wrong. */
function stepFailure(step: 'ping' | 'upgrade', what: string, f: ConnectFailure, timeoutMs: number): DeployCheckFailure {
  switch (f.code) {
    case 'connection_refused':
      return {
        step,
        code: f.code,
        message: `${what} failed: connection refused (is the bot running and listening on that port?)`,
      };
    case 'host_not_found':
      return { step, code: f.code, message: `${what} failed: host not found` };
    case 'timeout':
      return { step, code: f.code, message: `${what} timed out after ${timeoutMs} ms` };
    case 'invalid_url':
      return { step, code: f.code, message: `${what} failed: ${f.message}` };
    default:
      return { step, code: 'network', message: `${what} failed: ${f.message}` };
  }
}

async function readCapped(
  body: AsyncIterable<Buffer | Uint8Array> & { destroy?: () => void },
  max: number,
): Promise<string> {
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
