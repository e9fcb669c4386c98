// The one WebSocket client path to a bot, used by the runner's seats, the
// deploy check and `bot check`: an optional address gate, a DNS answer pinned
// to the address the gate checked (so a rebinding resolver gets nowhere
// between check and connect), the signed handshake, and ws options a bot
// cannot turn against us (no compression, a payload ceiling, no redirects).
import type { KeyObject } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import WebSocket, { type ClientOptions } from 'ws';
import { signBoundHandshake } from '../keys/handshake';
import { pinnedLookup, type PinnedAddress } from '../net/pinned-lookup';
import { adoptRawSocket } from './client-frame';
import { toWebSocketUrl } from './ws-url';

/** An address the gate checked; every connection to the bot then goes to exactly this address. */
export type CheckedAddress = PinnedAddress;

/**
 * The address check run before every connect and reconnect: throws to refuse
 * the URL (production policy: https, public addresses only), or returns the
 * address it checked (connections are pinned to it), or nothing (no pinning:
 * the system resolver is used, as in local play).
 */
export type AddressGate = (url: string) => Promise<CheckedAddress | void>;

/**
 * Hard ceiling for one frame from a bot: 1 MiB. Answers over 65,536 bytes are
 * `oversize` strikes on a socket that stays open; a frame over this ceiling
 * makes ws close the socket (1009) before buffering it, which bounds the memory
 * one seat can take.
 */
export const FRAME_CEILING_BYTES = 1_048_576;

/** How long a socket in its closing handshake waits for the bot to end the TCP connection before cutting it. */
const CLOSE_TIMEOUT_MS = 1000;

export interface OpenBotSocketOptions {
  /** The bot's URL as registered (http(s) or ws(s)); the gate sees it as given. */
  url: string;
  /** Signed into the handshake (`x-svc-match`). */
  matchId: string;
  platformKey: KeyObject;
  /** Replace the signed handshake headers (bot check's forged and misaddressed handshakes). */
  headers?: Record<string, string>;
  /** Largest frame ws accepts before closing the socket (1009). */
  maxPayload: number;
  /** Bounds the gate and the upgrade together. */
  handshakeTimeoutMs: number;
  gate?: AddressGate;
  /** The gate already ran for this connection (the deploy check pins ping and upgrade to one answer). */
  address?: CheckedAddress;
  /**
   * Called as soon as the socket exists, before it can emit anything: attach
   * message/close listeners here so nothing the bot sends right after the
   * upgrade is missed. Not called when the gate refuses the URL.
   */
  onSocket?: (socket: WebSocket) => void;
}

export type ConnectFailureCode =
  | 'invalid_url'
  | 'url_rejected'
  | 'connection_refused'
  | 'host_not_found'
  | 'timeout'
  | 'upgrade_refused'
  | 'network';

export interface ConnectFailure {
  code: ConnectFailureCode;
  /** Short, names no URL (callers add the context), e.g. "upgrade refused with HTTP 401". */
  message: string;
  /** HTTP status of a refused upgrade. */
  status?: number;
}

export type OpenBotSocketResult = { ok: true; socket: WebSocket; ms: number } | { ok: false; failure: ConnectFailure };

/**
 * Opens a signed WebSocket to a bot. Never throws and never leaves a socket
 * behind on failure. The returned socket keeps an 'error' listener (ws emits
 * errors a bot can provoke), so callers only add what they need.
 */
export async function openBotSocket(opts: OpenBotSocketOptions): Promise<OpenBotSocketResult> {
  const start = performance.now();
  let wsUrl: string;
  try {
    wsUrl = toWebSocketUrl(opts.url);
  } catch (err) {
    return failed('invalid_url', errorMessage(err));
  }
  let address = opts.address;
  if (!address && opts.gate) {
    const checked = await runGate(opts.gate, opts.url, opts.handshakeTimeoutMs);
    if (!checked.ok) return checked;
    address = checked.address;
  }
  const left = Math.max(1, Math.floor(opts.handshakeTimeoutMs - (performance.now() - start)));
  return upgrade(wsUrl, opts, address, left, start);
}

function upgrade(
  wsUrl: string,
  opts: OpenBotSocketOptions,
  address: CheckedAddress | undefined,
  timeoutMs: number,
  start: number,
): Promise<OpenBotSocketResult> {
  return new Promise((resolve) => {
    let socket: WebSocket;
    try {
      const options: ClientOptions & { lookup?: LookupFunction; closeTimeout?: number } = {
        // The spec's headers plus the audience-bound extension, signed afresh (new nonce) for every connect and
        // reconnect.
        headers: opts.headers ?? signBoundHandshake(opts.platformKey, opts.matchId, wsUrl),
        maxPayload: opts.maxPayload,
        handshakeTimeout: timeoutMs,
        // No compression: small frames, and no inflating work a bot can make us do.
        perMessageDeflate: false,
        // A redirect would leave the checked address.
        followRedirects: false,
        // After a Close frame, wait this long (not ws's 30 s) for the bot to end the connection.
        closeTimeout: CLOSE_TIMEOUT_MS,
        // ws hands this to net/tls.connect (src/net/pinned-lookup.ts); TLS still verifies the URL's host name.
        lookup: address ? pinnedLookup(address) : undefined,
      };
      socket = new WebSocket(wsUrl, options);
    } catch (err) {
      resolve(failed('invalid_url', errorMessage(err)));
      return;
    }
    // The runner writes its request frames to the socket under ws itself (client-frame.ts).
    socket.once('upgrade', (res) => adoptRawSocket(socket, res.socket));
    opts.onSocket?.(socket);
    let done = false;
    const finish = (r: OpenBotSocketResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!r.ok) socket.terminate();
      resolve(r);
    };
    // ws's handshakeTimeout is an idle timeout; this bounds the whole upgrade.
    const timer = setTimeout(() => finish(failed('timeout', `no upgrade within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (err) => finish({ ok: false, failure: networkFailure(err, timeoutMs) }));
    socket.once('open', () => finish({ ok: true, socket, ms: performance.now() - start }));
    socket.once('unexpected-response', (_req, res) => {
      const status = res.statusCode ?? 0;
      res.resume();
      finish({
        ok: false,
        failure: { code: 'upgrade_refused', status, message: `upgrade refused with HTTP ${status}` },
      });
    });
    socket.once('close', (code) => finish(failed('network', `closed during the upgrade (${code})`)));
  });
}

/** Runs the address gate, bounded by `timeoutMs`: the address to pin (if any), or why the URL is refused. */
export async function runGate(
  gate: AddressGate,
  url: string,
  timeoutMs: number,
): Promise<{ ok: true; address?: CheckedAddress } | { ok: false; failure: ConnectFailure }> {
  try {
    const address = await withTimeout(
      Promise.resolve().then(() => gate(url)),
      timeoutMs,
    );
    return address ? { ok: true, address } : { ok: true };
  } catch (err) {
    if (err instanceof GateTimeout) return failed('timeout', `address check took over ${timeoutMs} ms`);
    return failed('url_rejected', `URL refused: ${errorMessage(err)}`);
  }
}

/** What a network error means for a user, from the codes of node, undici and ws. */
export function networkFailure(err: unknown, timeoutMs: number): ConnectFailure {
  const code = errorCode(err);
  if (code === 'ECONNREFUSED') return { code: 'connection_refused', message: 'connection refused' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'host_not_found', message: 'host not found' };
  const message = errorMessage(err);
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'ABORT_ERR' ||
    code === 'ETIMEDOUT' ||
    /timed? ?out|aborted due to timeout/i.test(message)
  ) {
    return { code: 'timeout', message: `timed out after ${timeoutMs} ms` };
  }
  return { code: 'network', message };
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

function failed(code: ConnectFailureCode, message: string): { ok: false; failure: ConnectFailure } {
  return { ok: false, failure: { code, message } };
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

class GateTimeout extends Error {}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GateTimeout()), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
