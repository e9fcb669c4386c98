// Server-Sent Events framing. Each message is built once and written to every
// viewer as the same string.
import type { ServerResponse } from 'node:http';
import { writeOrDrop } from './backlog';
import type { LiveChannel } from './hub';

/** One SSE message. `id` sets the client's Last-Event-ID; data is JSON on one line. */
export function sseMessage(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE = ': keep-alive\n\n';

/** Parses a Last-Event-ID header: a non-negative integer, else null. */
export function parseLastEventId(value: string | null | undefined): number | null {
  if (value == null || !/^\d{1,9}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** The response headers of a live stream. */
export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
} as const;

const KEEPALIVE_MS = 15_000;

/**
 * Streams a running match's channel to one viewer, written straight to the
 * socket's response (hono's stream() goes through web streams, which cost more
 * than the rest of a viewer's share of a decision round: npm run bench --
 * serve-matches), with keep-alives, until the match ends or the viewer leaves;
 * then `onClose` runs, once. A viewer that does not read is dropped rather than
 * buffered without bound (backlog.ts). Connection: close, as the connection
 * was counted as a live stream, not as a request connection.
 */
export function streamChannel(
  outgoing: ServerResponse,
  channel: LiveChannel,
  lastEventId: number | null,
  onClose: () => void = () => {},
): void {
  outgoing.writeHead(200, { ...SSE_HEADERS, Connection: 'close' });
  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepalive);
    unsubscribe();
    onClose();
    if (!outgoing.writableEnded) outgoing.end();
  };
  const send = (chunk: string) => void (closed || writeOrDrop(outgoing, chunk));
  const unsubscribe = channel.subscribe({ send, close: finish }, lastEventId);
  const keepalive = setInterval(() => send(SSE_KEEPALIVE), KEEPALIVE_MS);
  outgoing.once('close', finish);
  // A client gone before the handler ran has had its 'close' already: let go of its slot now.
  if (!outgoing.socket || outgoing.socket.destroyed) finish();
}
