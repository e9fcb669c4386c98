// Server-Sent Events framing. Each message is built once and written to every
// viewer as the same string.

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
