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
  /** performance.now() at which it is late. */
  lateAt: number;
  deadlineMs: number;
  resolve: (answer: SeatAnswer) => void;
}

/** ws sends a Buffer as binary unless told otherwise; request frames are text. */
const TEXT_FRAME = { binary: false } as const;

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
  /**
   * The deadline timer. Decisions come every few microseconds and deadlines are
   * seconds, so rather than a timer per decision there is one, re-armed lazily:
   * when it fires it strikes the pending decision if that one is past its
   * deadline, and otherwise sleeps until the pending one's deadline (or stops).
   */
  private deadlineTimer: NodeJS.Timeout | null = null;
  /** performance.now() at which deadlineTimer fires. */
  private timerDueAt = 0;
  private readonly onDeadlineTimer = (): void => {
    this.deadlineTimer = null;
    const p = this.pending;
    if (!p) return;
    const left = p.lateAt - performance.now();
    // Timers may fire a hair early by performance.now(); under 0.5 ms counts as due.
    if (left < 0.5) this.settle(fail('late', `no answer within ${p.deadlineMs} ms`));
    else this.armDeadline(Math.ceil(left));
  };

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
   * A Buffer frame is copied before this returns, so the caller may reuse it.
   * Connecting (when needed) is bounded by one deadline of its own; the answer
   * deadline starts when the frame is sent, as the bot reads it from the frame.
   */
  ask(id: number, frame: string | Buffer, deadlineMs: number): Promise<SeatAnswer> {
    return new Promise((resolve) => this.askThen(id, frame, deadlineMs, resolve));
  }

  /**
   * ask() with a callback instead of a promise, for the match loop: `done` is
   * called exactly once, straight from the socket's message handler when the
   * answer arrives (no promise hops per decision), or with the strike reason.
   */
  askThen(id: number, frame: string | Buffer, deadlineMs: number, done: (answer: SeatAnswer) => void): void {
    if (this.pending) throw new Error(`WsSeat: decision ${this.pending.id} is still pending; one decision per seat at a time`);
    // Fast path: the socket is open, send now.
    if (!this.closed && !this.opening && this.socket?.readyState === WebSocket.OPEN) this.send(this.socket, id, frame, deadlineMs, done);
    // Otherwise the frame waits for the connection (frames handed over belong to the seat).
    else {
      this.connectThenAsk(id, frame, deadlineMs, done).catch((err: unknown) => {
        // Not expected (connect failures are answers), but a decision must never be left unsettled.
        if (this.pending?.id === id) this.settle(fail('dropped', errorMessage(err)));
        else if (!this.settled.has(id)) {
          this.settled.add(id);
          done(fail('dropped', errorMessage(err)));
        }
      });
    }
  }

  private async connectThenAsk(id: number, frame: string | Buffer, deadlineMs: number, done: (answer: SeatAnswer) => void): Promise<void> {
    if (this.closed) return done(fail('dropped', 'seat is closed'));
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
      return done(opened);
    }
    this.send(opened.socket, id, frame, deadlineMs, done);
  }

  private send(socket: WebSocket, id: number, frame: string | Buffer, deadlineMs: number, done: (answer: SeatAnswer) => void): void {
    const sentAt = performance.now();
    this.pending = { id, sentAt, lateAt: sentAt + deadlineMs, deadlineMs, resolve: done };
    // An armed timer due before this deadline re-arms for it when it fires; one due after it is moved up.
    if (this.deadlineTimer === null) this.armDeadline(deadlineMs);
    else if (this.timerDueAt > sentAt + deadlineMs) {
      clearTimeout(this.deadlineTimer);
      this.armDeadline(deadlineMs);
    }
    // No send callback: a failed write closes the socket, and 'close' settles the decision as dropped.
    socket.send(frame, TEXT_FRAME);
  }

  private armDeadline(ms: number): void {
    this.timerDueAt = performance.now() + ms;
    // Unref'd: a pending decision always has an open socket, which keeps the process alive.
    this.deadlineTimer = setTimeout(this.onDeadlineTimer, ms).unref();
  }

  /** Closes the socket with 1000 and resolves once it is closed (cut after a short grace). */
  close(): Promise<void> {
    this.closed = true;
    this.settle(fail('dropped', 'match ended'));
    if (this.deadlineTimer !== null) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const socket = this.socket;
    this.socket = null;
    return closeSocket(socket);
  }

  private settle(answer: SeatAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
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
