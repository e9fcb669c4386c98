// Request and response headers read and set on Node's own objects when the app
// runs on @hono/node-server (it always does; other runtimes fall back to hono's
// API). On the hot path this matters: c.req.header() makes a web Headers copy
// of every request header, and c.header() a Headers object for the response
// that is then copied again, together more than the rest of a signed request
// costs besides its Ed25519 check (npm run bench -- serve).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

const bindings = (c: Context): NodeBindings | undefined => c.env as NodeBindings | undefined;

/** A request header by name, as c.req.header(name) gives it (repeats joined with ", "): one reader, Node's raw list. */
export function requestHeader(c: Context, name: string): string | undefined {
  const raw = bindings(c)?.incoming?.rawHeaders;
  return Array.isArray(raw) ? rawHeader(raw, name) : c.req.header(name);
}

/**
 * A header on whatever response this request gets, set before the handler
 * runs. A header the handler itself sets for the same name wins.
 */
export function responseHeader(c: Context, name: string, value: string): void {
  const outgoing = bindings(c)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function') outgoing.setHeader(name, value);
  else c.header(name, value);
}

/**
 * Makes c.req.header(name) read Node's raw header list. @hono/node-server
 * builds a web Headers of every request header on the first read, and the
 * route validators (zod-openapi) read Content-Type on every request with a
 * query, path or body schema: that copy cost a signed GET /bots more than its
 * route's own work. The answer is Headers.get's: every value sent under the
 * name (any case), joined with ", ". header() with no name stays hono's.
 */
export function readHeadersFromNode(c: Context): void {
  const raw = bindings(c)?.incoming?.rawHeaders;
  if (!Array.isArray(raw)) return;
  const req = c.req as { header: (name?: string) => unknown };
  const all = req.header.bind(req);
  req.header = (name?: string) => (name ? rawHeader(raw, name) : all());
}

function rawHeader(raw: string[], name: string): string | undefined {
  const want = name.toLowerCase();
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i];
    if (key.length === want.length && key.toLowerCase() === want)
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}
