// One WebSocket seat: the socket to one bot for one match. Opens lazily with a
// freshly signed handshake, reopens at the next decision after a drop, and
// turns whatever the bot does into either an answer or a strike reason.
// Nothing a bot sends can throw out of here or leave a decision unsettled:
// every decision settles by its deadline at the latest.
import type { KeyObject } from 'node:crypto';
import WebSocket from 'ws';
import { signHandshake } from '../keys/handshake';
import { MAX_FRAME_BYTES, type StrikeReason } from '../protocol';
import { classifyFrame } from './answer-frame';
import { toWebSocketUrl } from './ws-url';

/** Why a decision got no usable answer: the strike to charge and what happened. */
export type SeatFailure = { ok: false; reason: StrikeReason; detail: string };
export type SeatAnswer = { ok: true; action: unknown; latencyMs: number } | SeatFailure;
type Opened = { ok: true; socket: WebSocket } | SeatFailure;

export interface WsSeatOptions {
  /** The bot's URL as registered (http(s) or ws(s)). */
  url: string;
  matchId: string;
  platformKey: KeyObject;
  checkUrl?: (url: string) => Promise<void> | void;
}

/** A decision sent and not yet settled. */
interface Pending {
  id: number;
  sentAt: number;
  timer: NodeJS.Timeout;
  resolve: (answer: SeatAnswer) => void;
}

/** How long close() waits for the bot's close frame before cutting the socket. */
const CLOSE_GRACE_MS = 1000;

export class WsSeat {
  /** Connection attempts so far (1 + reconnects, failed attempts included). */
  connections = 0;
  private socket: WebSocket | null = null;
  private pending: Pending | null = null;
  /** Ids sent to this seat and settled: a late answer to one is ignored, not struck. */
  private readonly settled = new Set<number>();
  private closed = false;
  /** A connect started before the first decision (see preconnect). */
  private opening: Promise<unknown> | null = null;

  constructor(private readonly opts: WsSeatOptions) {}

  /**
   * Starts connecting now so the first decision does not wait for the upgrade
   * (all seats connect in parallel at match start). If this attempt fails, the
   * first decision tries once more, bounded by its deadline as usual.
   */
  preconnect(deadlineMs: number): void {
    if (!this.opening && !this.socket && !this.closed) this.opening = this.ensureOpen(deadlineMs);
  }

  /**
   * Sends one decision frame (already serialised) and waits for the answer.
   * Connecting (when needed) is bounded by one deadline of its own; the answer
   * deadline starts when the frame is sent, as the bot reads it from the frame.
   */
  ask(id: number, frame: string, deadlineMs: number): Promise<SeatAnswer> {
    if (this.pending) throw new Error(`WsSeat: decision ${this.pending.id} is still pending; one decision per seat at a time`);
    // Fast path: the socket is open, send now (no extra awaits per decision).
    if (!this.closed && !this.opening && this.socket?.readyState === WebSocket.OPEN) return this.send(this.socket, id, frame, deadlineMs);
    return this.connectThenAsk(id, frame, deadlineMs);
  }

  private async connectThenAsk(id: number, frame: string, deadlineMs: number): Promise<SeatAnswer> {
    if (this.closed) return fail('dropped', 'seat is closed');
    // Waiting for a preconnect and any retry share one deadline's worth of time.
    let connectBudget = deadlineMs;
    if (this.opening) {
      const t0 = performance.now();
      await this.opening;
      this.opening = null;
      connectBudget = Math.max(0, Math.floor(deadlineMs - (performance.now() - t0)));
    }
    const opened = this.socket?.readyState === WebSocket.OPEN || connectBudget > 0
      ? await this.ensureOpen(Math.max(1, connectBudget))
      : fail('dropped', `cannot connect: no upgrade within ${deadlineMs} ms`);
    if (!opened.ok) {
      this.settled.add(id);
      return opened;
    }
    return this.send(opened.socket, id, frame, deadlineMs);
  }

  private send(socket: WebSocket, id: number, frame: string, deadlineMs: number): Promise<SeatAnswer> {
    return new Promise<SeatAnswer>((resolve) => {
      const timer = setTimeout(() => this.settle(fail('late', `no answer within ${deadlineMs} ms`)), deadlineMs);
      this.pending = { id, sentAt: performance.now(), timer, resolve };
      // No send callback: a failed write closes the socket, and 'close' settles the decision as dropped.
      socket.send(frame);
    });
  }

  /** Closes the socket with 1000 and resolves once it is closed (cut after a short grace). */
  close(): Promise<void> {
    this.closed = true;
    this.settle(fail('dropped', 'match ended'));
    const socket = this.socket;
    this.socket = null;
    return closeSocket(socket);
  }

  private settle(answer: SeatAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    this.settled.add(p.id);
    p.resolve(answer);
  }

  private async ensureOpen(deadlineMs: number): Promise<Opened> {
    if (this.socket?.readyState === WebSocket.OPEN) return { ok: true, socket: this.socket };
    if (this.socket) {
      // Half-closed from a drop or an oversize frame: start over.
      this.socket.terminate();
      this.socket = null;
    }
    let wsUrl: string;
    try {
      wsUrl = toWebSocketUrl(this.opts.url);
      if (this.opts.checkUrl) await withTimeout(Promise.resolve(this.opts.checkUrl(this.opts.url)), deadlineMs, 'URL check timed out');
    } catch (err) {
      return fail('dropped', `cannot connect: ${errorMessage(err)}`);
    }
    if (this.closed) return fail('dropped', 'seat is closed');
    return this.connect(wsUrl, deadlineMs);
  }

  private connect(wsUrl: string, deadlineMs: number): Promise<Opened> {
    return new Promise((resolve) => {
      let socket: WebSocket;
      try {
        socket = new WebSocket(wsUrl, {
          headers: signHandshake(this.opts.platformKey, this.opts.matchId),
          // ws closes the socket (1009) on a bigger frame before buffering it all.
          maxPayload: MAX_FRAME_BYTES,
          handshakeTimeout: deadlineMs,
          // No compression: small frames, and no decompression work a bot can make us do.
          perMessageDeflate: false,
          followRedirects: false,
        });
      } catch (err) {
        resolve(fail('dropped', `cannot connect: ${errorMessage(err)}`));
        return;
      }
      this.connections++;
      let upgrading = true;
      let lastError = '';
      // Set when the bot broke the socket by what it sent (so the strike is not `dropped`).
      let badFrame: SeatFailure | null = null;
      const timer = setTimeout(() => finishOpen(fail('dropped', `cannot connect: no upgrade within ${deadlineMs} ms`)), deadlineMs);
      const finishOpen = (r: Opened) => {
        if (!upgrading) return;
        upgrading = false;
        clearTimeout(timer);
        if (r.ok && this.closed) r = fail('dropped', 'seat is closed');
        if (!r.ok) socket.terminate();
        else this.socket = socket;
        resolve(r);
      };
      // An 'error' listener must always be attached: ws emits errors a bot can provoke.
      socket.on('error', (err: Error & { code?: string }) => {
        lastError = err.message;
        if (!upgrading && err.code?.startsWith('WS_ERR_')) {
          // ws closes the socket after these: an oversize frame, invalid UTF-8, a bad opcode...
          badFrame = err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
            ? fail('oversize', `frame over ${MAX_FRAME_BYTES} bytes`)
            : fail('malformed', `invalid WebSocket frame (${err.message})`);
          if (this.socket === socket) this.settle(badFrame);
        }
        finishOpen(fail('dropped', `cannot connect: ${err.message}`));
      });
      socket.once('open', () => finishOpen({ ok: true, socket }));
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (this.socket !== socket) return;
        this.onFrame(data, isBinary);
      });
      socket.once('close', (code: number) => {
        finishOpen(fail('dropped', `cannot connect: closed during upgrade (${code})`));
        if (this.socket !== socket) return;
        this.socket = null;
        if (badFrame) this.settle(badFrame);
        else this.settle(fail('dropped', `connection closed (${code}${lastError ? `: ${lastError}` : ''})`));
      });
    });
  }

  private onFrame(data: Buffer, isBinary: boolean): void {
    const p = this.pending;
    if (!p) return; // nothing owed: stray frames are ignored (not even parsed), never struck
    const verdict = classifyFrame(data, isBinary, p.id, (id) => this.settled.has(id));
    if (verdict.type === 'answer') this.settle({ ok: true, action: verdict.action, latencyMs: performance.now() - p.sentAt });
    else if (verdict.type === 'malformed') this.settle(fail('malformed', verdict.detail));
  }
}

function fail(reason: StrikeReason, detail: string): SeatFailure {
  return { ok: false, reason, detail };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function closeSocket(socket: WebSocket | null): Promise<void> {
  if (!socket || socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000, 'match over');
  });
}
