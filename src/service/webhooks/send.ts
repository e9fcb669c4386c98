// One delivery attempt: POST the body to the address the URL check chose
// (pinned lookup, so DNS cannot move the receiver in between), with a time
// limit for the whole exchange. Redirects are not followed: a 3xx is a failure.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type ResolvedAddress } from '../../net/address-policy';
import type { WebhookHeaders } from './signature';

/** The most of a receiver's answer read (then dropped): it is never stored. */
const MAX_ANSWER_BYTES = 64 * 1024;

export type AttemptResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: WebhookHeaders,
  body: string,
  timeoutMs: number,
): Promise<AttemptResult> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    const req = request(url, {
      method: 'POST',
      lookup: pinnedLookup(address),
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'user-agent': 'bot-arena-webhooks',
      },
      agent: false,
    });
    const timer = setTimeout(
      () => done({ ok: false, status: null, error: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, status: null, error: describe(err) }));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) finish();
      });
      const finish = () =>
        done(
          status >= 200 && status < 300
            ? { ok: true, status }
            : { ok: false, status, error: `the receiver answered HTTP ${status}` },
        );
      res.on('end', finish);
      res.on('error', finish);
    });
    req.end(body);
  });
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === 'ECONNREFUSED') return 'connection refused';
  if (err.code === 'ECONNRESET') return 'the connection was reset';
  if (err.code === 'ETIMEDOUT') return 'the connection timed out';
  return err.code ? `network error (${err.code})` : 'network error';
}
