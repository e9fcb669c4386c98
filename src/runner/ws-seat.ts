// One WebSocket seat: the socket to one bot for one match. Opens lazily with a
// freshly signed handshake (src/runner/connect.ts), reopens at the next
// decision after a close, and turns whatever the bot does into either an
// answer or a strike reason. Nothing a bot sends can throw out of here or
// leave a decision unsettled: every decision settles by its deadline at the latest.
//
// The rules (docs/decisions.md, "Strikes and connections"):
// - A close while no decision is pending is no strike; the next decision reconnects.
// - A clean close (the bot's Close frame) can cross our next frame on the
//   wire, so it too counts as a close between decisions: the pending decision
//   is resent once on a fresh socket, within its deadline. A second close, an
//   unclean drop (no Close frame), or a reconnect that fails is `dropped`.
// - A frame over 65,536 bytes is `oversize` for the pending decision; the
//   socket stays open. Over FRAME_CEILING_BYTES ws closes the socket.
// - Frames nobody asked for (answers to settled ids, anything while no
//   decision is pending) are ignored up to UNREQUESTED_BUDGET per match; past
//   it each one is `malformed` for the pending decision, or closes the socket
//   when none is pending. They are counted before any parsing.
import type { KeyObject } from 'node:crypto';
import WebSocket from 'ws';
import { MAX_FRAME_BYTES, type StrikeReason } from '../protocol';
import { classifyFrame } from './answer-frame';
import { sendText } from './client-frame';
import { SettledIds } from './settled-ids';
import { FRAME_CEILING_BYTES, openBotSocket, type AddressGate } from './connect';

/**
 * Why a decision got no usable answer: the strike to charge, what happened, and the time it took from the frame's send
 * (0 if never sent).
 */
export type SeatFailure = { ok: false; reason: StrikeReason; detail: string; spentMs: number; frame?: Buffer };
/**
 * `frame` is the bot's frame as received (a reference, no copy), kept for the strike report should the action be
 * illegal.
 */
export type SeatAnswer =
  | { ok: true; action: unknown; latencyMs: number; frame?: Buffer; debug?: unknown }
  | SeatFailure;
type Opened = { ok: true; socket: WebSocket } | SeatFailure;

export interface WsSeatOptions {
  /** The bot's URL as registered (http(s) or ws(s)). */
  url: string;
  matchId: string;
  platformKey: KeyObject;
  /** The address check, run before every connect and reconnect (see AddressGate). */
  gate?: AddressGate;
}

/** Unrequested frames a seat may send per match before they count as malformed. */
export const UNREQUESTED_BUDGET = 16;

/** A decision sent and not yet settled. */
interface Pending {
  id: number;
  /** Kept to resend it once after a clean close. */
  frame: string | Buffer;
  /** performance.now() when the frame was first sent. */
  sentAt: number;
  /** performance.now() at which it is late. */
  lateAt: number;
  deadlineMs: number;
  /** Already resent after a clean close (it is resent at most once). */
  resent: boolean;
  /** Waiting for the fresh socket to resend it. */
  reconnecting: boolean;
  resolve: (answer: SeatAnswer) => void;
}

/** How long a close waits for the bot's close frame before cutting the socket. */
const CLOSE_GRACE_MS = 1000;

/** ws's close code when the connection ended without a Close frame. */
const ABNORMAL_CLOSURE = 1006;

export class WsSeat {
  /** Connection attempts so far (1 + reconnects, failed attempts included). */
  connections = 0;
  /** Frames nobody asked for, so far this match. */
  unrequested = 0;
  private socket: WebSocket | null = null;
  /** Every socket this seat opened that has not closed yet (close() waits for them all). */
  private readonly live = new Set<WebSocket>();
  private pending: Pending | null = null;
  /** Ids sent to this seat and settled: a late answer to one is unrequested, not unknown. */
  private readonly settled = new SettledIds();
  private closed = false;
  /** The connect in flight, if any: one at a time, whoever asked for it. */
  private connecting: Promise<Opened> | null = null;
  /**
   * The deadline timer. Decisions come every few microseconds and deadlines are
   * seconds, so rather than a timer per decision there is one, re-armed lazily:
   * when it fires it settles the pending decision if that one is past its
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
    if (left >= 0.5) this.armDeadline(Math.ceil(left));
    else if (p.reconnecting)
      this.settle(fail('dropped', `the bot closed the socket and it could not be reopened within ${p.deadlineMs} ms`));
    else this.settle(fail('late', `no answer within ${p.deadlineMs} ms`));
  };

  /** For classifyFrame: made once per seat, not a closure per frame. */
  private readonly isSettled = (id: number): boolean => this.settled.has(id);

  constructor(private readonly opts: WsSeatOptions) {}

  /** Whether the seat's socket is open now (for tests and reports). */
  isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * Starts connecting now so the first decision does not wait for the upgrade
   * (all seats connect in parallel at match start). If this attempt fails, the
   * first decision tries once more, bounded by its deadline as usual.
   */
  preconnect(deadlineMs: number): void {
    if (!this.closed) void this.ensureOpen(deadlineMs);
  }

  /**
   * Sends one decision frame (already serialised) and waits for the answer.
   * The frame belongs to the seat until the decision settles (it may be resent).
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
    if (this.pending)
      throw new Error(`WsSeat: decision ${this.pending.id} is still pending; one decision per seat at a time`);
    // Fast path: the socket is open, send now.
    if (!this.closed && !this.connecting && this.socket?.readyState === WebSocket.OPEN)
      this.send(this.socket, id, frame, deadlineMs, done);
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

  private async connectThenAsk(
    id: number,
    frame: string | Buffer,
    deadlineMs: number,
    done: (answer: SeatAnswer) => void,
  ): Promise<void> {
    if (this.closed) return done(fail('dropped', 'seat is closed'));
    // Waiting for a connect already in flight (a preconnect) and one retry share one deadline's worth of time.
    let budget = deadlineMs;
    if (this.connecting) {
      const t0 = performance.now();
      await this.connecting;
      budget = Math.floor(deadlineMs - (performance.now() - t0));
    }
    const opened =
      this.socket?.readyState === WebSocket.OPEN || budget > 0
        ? await this.ensureOpen(Math.max(1, budget))
        : fail('dropped', `cannot connect: no upgrade within ${deadlineMs} ms`);
    if (!opened.ok) {
      this.settled.add(id);
      return done(opened);
    }
    this.send(opened.socket, id, frame, deadlineMs, done);
  }

  private send(
    socket: WebSocket,
    id: number,
    frame: string | Buffer,
    deadlineMs: number,
    done: (answer: SeatAnswer) => void,
  ): void {
    const sentAt = performance.now();
    this.pending = {
      id,
      frame,
      sentAt,
      lateAt: sentAt + deadlineMs,
      deadlineMs,
      resent: false,
      reconnecting: false,
      resolve: done,
    };
    // An armed timer due before this deadline re-arms for it when it fires; one due after it is moved up.
    if (this.deadlineTimer === null) this.armDeadline(deadlineMs);
    else if (this.timerDueAt > sentAt + deadlineMs) {
      clearTimeout(this.deadlineTimer);
      this.armDeadline(deadlineMs);
    }
    // No send callback: a failed write closes the socket, and 'close' settles the decision.
    sendText(socket, frame);
  }

  private armDeadline(ms: number): void {
    this.timerDueAt = performance.now() + ms;
    // Unref'd: a pending decision has a socket open or opening, which keeps the process alive.
    this.deadlineTimer = setTimeout(this.onDeadlineTimer, ms).unref();
  }

  /** Closes the socket with 1000 (any other socket of this seat is cut) and resolves once all are closed. */
  close(): Promise<void> {
    this.closed = true;
    this.settle(fail('dropped', 'match ended'));
    if (this.deadlineTimer !== null) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const current = this.socket;
    this.socket = null;
    return Promise.all([...this.live].map((s) => closeSocket(s, s === current ? 1000 : null))).then(() => undefined);
  }

  private settle(answer: SeatAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.settled.add(p.id);
    if (!answer.ok) answer.spentMs = performance.now() - p.sentAt;
    p.resolve(answer);
  }

  /** The open socket, or a new one (one connect at a time; callers share it). */
  private ensureOpen(budgetMs: number): Promise<Opened> {
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve({ ok: true, socket: this.socket });
    if (!this.connecting) {
      this.connecting = this.open(budgetMs).finally(() => {
        this.connecting = null;
      });
    }
    return this.connecting;
  }

  private async open(budgetMs: number): Promise<Opened> {
    if (this.socket) {
      // Half-closed (the bot's Close frame arrived, the TCP close has not): start over.
      this.socket.terminate();
      this.socket = null;
    }
    if (this.closed) return fail('dropped', 'seat is closed');
    const r = await openBotSocket({
      url: this.opts.url,
      matchId: this.opts.matchId,
      platformKey: this.opts.platformKey,
      // Frames up to the ceiling are read (and struck if over 64 KiB); over it ws closes the socket.
      maxPayload: FRAME_CEILING_BYTES,
      handshakeTimeoutMs: budgetMs,
      gate: this.opts.gate,
      onSocket: (socket) => this.attach(socket),
    });
    if (!r.ok) return fail('dropped', `cannot connect: ${r.failure.message}`);
    if (this.closed) {
      r.socket.terminate();
      return fail('dropped', 'seat is closed');
    }
    this.socket = r.socket;
    return { ok: true, socket: r.socket };
  }

  /** Listens to a new socket from its first moment (events of replaced sockets are ignored). */
  private attach(socket: WebSocket): void {
    this.connections++;
    this.live.add(socket);
    // close() ran while the gate was still deciding: this socket is not wanted (terminated once ws has set it up).
    if (this.closed) process.nextTick(() => socket.terminate());
    let lastError = '';
    // Set when the bot broke the socket by what it sent (so the strike is not `dropped`).
    let badFrame: SeatFailure | null = null;
    socket.on('error', (err: Error & { code?: string }) => {
      lastError = err.message;
      if (this.socket === socket && err.code?.startsWith('WS_ERR_')) {
        // ws closes the socket after these: a frame over the ceiling, invalid UTF-8, a bad opcode...
        badFrame =
          err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
            ? fail('oversize', `frame over ${FRAME_CEILING_BYTES} bytes (the hard ceiling; the socket was closed)`)
            : fail('malformed', `invalid WebSocket frame (${err.message})`);
        this.settle(badFrame);
      }
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      if (this.socket === socket) this.onFrame(socket, data, isBinary);
    });
    socket.once('close', (code: number) => {
      this.live.delete(socket);
      if (this.socket !== socket) return;
      this.socket = null;
      this.onClosed(code, badFrame, lastError);
    });
  }

  private onClosed(code: number, badFrame: SeatFailure | null, lastError: string): void {
    const p = this.pending;
    if (!p) return; // closed between decisions: no strike; the next decision reconnects
    if (badFrame) return this.settle(badFrame);
    if (code !== ABNORMAL_CLOSURE && !p.resent) return this.resend(p);
    this.settle(fail('dropped', `connection closed (${code}${lastError ? `: ${lastError}` : ''})`));
  }

  /** After a clean close: a fresh socket, and the same frame again, within the same deadline. */
  private resend(p: Pending): void {
    p.resent = true;
    p.reconnecting = true;
    this.ensureOpen(Math.max(1, Math.floor(p.lateAt - performance.now())))
      .then((opened) => {
        if (this.pending !== p) return; // settled meanwhile (deadline, or the match ended)
        p.reconnecting = false;
        if (!opened.ok) this.settle(opened);
        else sendText(opened.socket, p.frame);
      })
      .catch((err: unknown) => {
        if (this.pending === p) this.settle(fail('dropped', errorMessage(err)));
      });
  }

  private onFrame(socket: WebSocket, data: Buffer, isBinary: boolean): void {
    const p = this.pending;
    if (!p) return this.unrequestedFrame(socket, 'while no decision was pending');
    if (data.length > MAX_FRAME_BYTES)
      return this.settle(
        fail('oversize', `frame of ${data.length} bytes, over the ${MAX_FRAME_BYTES}-byte limit`, data),
      );
    if (!isBinary) {
      // An answer to a settled id is recognised from its first bytes, unparsed (a flood of them costs no JSON.parse).
      const id = leadingId(data);
      if (id !== null && id !== p.id && this.settled.has(id))
        return this.unrequestedFrame(socket, `answering settled decision ${id}`);
    }
    const verdict = classifyFrame(data, isBinary, p.id, this.isSettled);
    if (verdict.type === 'answer')
      this.settle({
        ok: true,
        action: verdict.action,
        latencyMs: performance.now() - p.sentAt,
        frame: data,
        debug: verdict.debug,
      });
    else if (verdict.type === 'malformed') this.settle(fail('malformed', verdict.detail, data));
    else this.unrequestedFrame(socket, `answering settled decision ${verdict.id}`);
  }

  /** Counts a frame nobody asked for; past the budget it is malformed, or closes the socket when nothing is pending. */
  private unrequestedFrame(socket: WebSocket, what: string): void {
    if (++this.unrequested <= UNREQUESTED_BUDGET) return;
    if (this.pending) {
      this.settle(
        fail(
          'malformed',
          `unrequested frame (${what}): ${this.unrequested} so far, over the budget of ${UNREQUESTED_BUDGET} per match`,
        ),
      );
      return;
    }
    // Nothing to strike: stop reading this socket; the next decision reconnects.
    this.socket = null;
    void closeSocket(socket, 1008);
  }
}

function fail(reason: StrikeReason, detail: string, frame?: Buffer): SeatFailure {
  return frame ? { ok: false, reason, detail, spentMs: 0, frame } : { ok: false, reason, detail, spentMs: 0 };
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The id of a frame that starts `{"id":<digits>` followed by `,` or `}` (JSON
 * whitespace allowed), as JSON.stringify({id, ...}) writes it; null otherwise.
 */
export function leadingId(b: Buffer): number | null {
  let i = skipWs(b, 0);
  if (b[i] !== 0x7b) return null; // {
  i = skipWs(b, i + 1);
  if (b[i] !== 0x22 || b[i + 1] !== 0x69 || b[i + 2] !== 0x64 || b[i + 3] !== 0x22) return null; // "id"
  i = skipWs(b, i + 4);
  if (b[i] !== 0x3a) return null; // :
  i = skipWs(b, i + 1);
  const start = i;
  let n = 0;
  while (i < b.length && b[i] >= 0x30 && b[i] <= 0x39 && i - start < 16) n = n * 10 + (b[i++] - 0x30);
  const digits = i - start;
  if (digits === 0 || digits > 15 || (digits > 1 && b[start] === 0x30)) return null;
  i = skipWs(b, i);
  return b[i] === 0x2c || b[i] === 0x7d ? n : null; // , or }
}

function skipWs(b: Buffer, i: number): number {
  while (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09) i++;
  return i;
}

/**
 * Closes a socket and resolves once it is closed: with `code` (cut after a
 * short grace if the bot does not answer the Close), or cut at once when `code` is null.
 */
function closeSocket(socket: WebSocket, code: number | null): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (code === null || socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else if (socket.readyState === WebSocket.OPEN)
      socket.close(code, code === 1000 ? 'match over' : 'unrequested frames');
  });
}
