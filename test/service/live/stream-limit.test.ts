// One client address may hold only so many live streams open at once: the
// rate limit bounds how fast streams open, not how many stay open while a
// match runs, and each holds a socket and a backlog on the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Behaviour } from '../../support/test-bot';
import { wellBehaved } from '../../support/policies';
import { startArena, type Arena } from '../../support/serve-arena';

/** Legal answers, slowly: the match keeps running while the test looks. */
function slow(): Behaviour {
  const play = wellBehaved();
  return (ctx) => new Promise<void>((r) => setTimeout(r, 200)).then(() => play(ctx));
}

let arena: Arena;
let running: string;
const open: AbortController[] = [];

/** Opens the live stream; for a 200, waits for its first bytes (the snapshot: the viewer is subscribed). */
async function watch(
  id: string,
): Promise<{ status: number; body?: string; retryAfter: string | null; abort: AbortController }> {
  const abort = new AbortController();
  open.push(abort);
  const res = await fetch(`${arena.url}/matches/${id}/live`, { signal: abort.signal });
  if (res.status !== 200)
    return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after'), abort };
  const reader = res.body!.getReader();
  await reader.read();
  return { status: 200, retryAfter: null, abort };
}

beforeAll(async () => {
  arena = await startArena([slow(), slow(), slow(), slow()], { liveStreamsPerAddress: 2 });
  [running] = await arena.tick();
}, 30_000);

afterAll(async () => {
  for (const a of open) a.abort();
  await arena?.close();
});

describe('live streams per address', () => {
  it('past the limit a new stream is 429 rate_limited with Retry-After; closing one frees its slot', async () => {
    const first = await watch(running);
    expect((await watch(running)).status).toBe(200);
    const refused = await watch(running);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body!)).toEqual({
      error: { code: 'rate_limited', message: 'too many live streams open from this address; close one, then retry' },
    });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // Other reads of the same match are not streams and are not counted.
    expect((await fetch(`${arena.url}/matches/${running}`)).status).toBe(200);

    first.abort.abort();
    // The server sees the close a moment later.
    let again = await watch(running);
    for (let tries = 0; again.status === 429 && tries < 40; tries++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await watch(running);
    }
    expect(again.status).toBe(200);
    expect((await watch(running)).status).toBe(429);
  });
});
