// Following a match live: GET /matches/{id}/live as Server-Sent Events,
// every message checked against the protocol's schema (src/protocol/live.ts)
// and handed on in order. When the connection drops before `end`, it
// reconnects with Last-Event-ID (the last event seen), so the server resumes
// without gaps; an event seen already is never handed on twice. Waits between
// attempts grow from retryMs to maxRetryMs. A 404 or a stream that is not an
// arena's ends it with a LiveStreamError.
import { setTimeout as sleep } from 'node:timers/promises';
import { PublicMatchEventSchema } from '../protocol/events';
import {
  LiveEndSchema,
  LiveSnapshotSchema,
  LiveViewMessageSchema,
  type FollowLiveOptions,
  type LiveEnd,
  type LiveMessage,
} from '../protocol/live';
import { unreachable } from './errors';
import { errorOf, publicUrl } from './public';
import { SseEventTooLarge, SseParser, type SseEvent } from './sse';
import { readAnswer } from './read-limited';

export type { FollowLiveOptions, LiveConnection } from '../protocol/live';

export class LiveStreamError extends Error {
  constructor(
    readonly code: 'not_found' | 'refused' | 'not_a_stream' | 'bad_message' | 'gave_up',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LiveStreamError';
  }
}

const SCHEMAS = {
  snapshot: LiveSnapshotSchema,
  event: PublicMatchEventSchema,
  view: LiveViewMessageSchema,
  end: LiveEndSchema,
} as const;

/** Parses one SSE event into a LiveMessage; unknown event types are skipped (null). */
export function parseLiveMessage(e: SseEvent): LiveMessage | null {
  const schema = SCHEMAS[e.type as keyof typeof SCHEMAS];
  if (!schema) return null;
  let json: unknown;
  try {
    json = JSON.parse(e.data);
  } catch {
    throw new LiveStreamError(
      'bad_message',
      `the live stream sent a "${e.type}" message that is not JSON; is the URL an arena server?`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LiveStreamError(
      'bad_message',
      `the live stream's "${e.type}" message does not match the protocol (${issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'invalid'}); is the server a different version?`,
    );
  }
  return { type: e.type, data: parsed.data } as LiveMessage;
}

/**
 * Follows the stream until `end`; resolves with it. Rejects with LiveStreamError, or an AbortError when signal aborts.
 */
export async function followLive(opts: FollowLiveOptions): Promise<LiveEnd> {
  const retryMs = opts.retryMs ?? 500;
  const maxRetryMs = opts.maxRetryMs ?? 10_000;
  const url = publicUrl(opts.baseUrl, `/matches/${encodeURIComponent(opts.matchId)}/live`);
  const doFetch = opts.fetch ?? fetch;
  /** The seq of the last event handed on; -1 before any. Survives reconnects. */
  let lastSeq = -1;
  let failures = 0;
  let serverRetryMs: number | null = null;

  for (let attempt = 1; ; attempt++) {
    opts.signal?.throwIfAborted();
    opts.onConnection?.({ state: 'connecting', attempt });
    const conn = new AbortController();
    const onAbort = () => conn.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let reason: string;
    let retryAfterMs: number | null = null;
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'cache-control': 'no-store' };
      if (lastSeq >= 0) headers['last-event-id'] = String(lastSeq);
      let res: Response;
      try {
        res = await doFetch(url, { headers, signal: conn.signal });
      } catch (err) {
        opts.signal?.throwIfAborted();
        throw new Retry(unreachable(url, err).message);
      }
      if (res.status !== 200) {
        const text = res.body
          ? (
              await readAnswer(res.body as unknown as AsyncIterable<Uint8Array>, url).catch(() => Buffer.alloc(0))
            ).toString('utf8')
          : '';
        const apiErr = errorOf(res.status, text);
        if (res.status === 404) throw new LiveStreamError('not_found', apiErr.serverMessage, 404);
        if (res.status === 429 || res.status >= 500) {
          const after = Number(res.headers.get('retry-after'));
          if (Number.isFinite(after) && after > 0) retryAfterMs = after * 1000;
          throw new Retry(`the server answered HTTP ${res.status}`);
        }
        throw new LiveStreamError('refused', `${apiErr.serverMessage} (HTTP ${res.status})`, res.status);
      }
      if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
        throw new LiveStreamError(
          'not_a_stream',
          `${url} did not answer with an event stream; is the URL an arena server?`,
        );
      }
      opts.onConnection?.({ state: 'open' });
      let ended: LiveEnd | null = null;
      const parser = new SseParser((e) => {
        if (ended) return;
        const msg = parseLiveMessage(e);
        if (!msg) return;
        failures = 0;
        if (msg.type === 'event') {
          if (msg.data.seq <= lastSeq) return; // seen already: never twice
          lastSeq = msg.data.seq;
        } else if (msg.type === 'snapshot') {
          lastSeq = Math.max(lastSeq, msg.data.seq);
        } else if (msg.type === 'end') {
          ended = msg.data;
        }
        opts.onMessage(msg);
      });
      try {
        if (!res.body) throw new Retry('the stream had no body');
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          parser.push(chunk);
          if (ended) break;
        }
      } catch (err) {
        if (err instanceof LiveStreamError) throw err;
        if (err instanceof SseEventTooLarge)
          throw new LiveStreamError('bad_message', `${url} sent ${err.message}; is the URL an arena server?`);
        opts.signal?.throwIfAborted();
        throw new Retry(
          `the stream broke (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message})`,
        );
      }
      parser.end();
      serverRetryMs = parser.retryMs ?? serverRetryMs;
      if (ended) return ended;
      reason = 'the server closed the stream before the match ended';
    } catch (err) {
      if (!(err instanceof Retry)) throw err;
      reason = err.message;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
      conn.abort();
    }
    failures++;
    if (opts.maxAttempts !== undefined && failures >= opts.maxAttempts) {
      throw new LiveStreamError(
        'gave_up',
        `gave up following match ${opts.matchId} after ${failures} failed attempts: ${reason}`,
      );
    }
    const delayMs = retryAfterMs ?? Math.min(maxRetryMs, (serverRetryMs ?? retryMs) * 2 ** Math.min(failures - 1, 16));
    opts.onConnection?.({ state: 'reconnecting', attempt: failures, delayMs, reason });
    await sleep(delayMs, undefined, { signal: opts.signal });
  }
}

/** A failure worth another attempt. */
class Retry extends Error {}
