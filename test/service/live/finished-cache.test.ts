// /live of a finished match under load (issue 27, item 9): its answer is
// built once (a replay of the whole game) and then served from a bounded
// cache, so 12 clients following it at the rate they are allowed leave
// /health fast. Real service, real bots, a real finished game.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FinishedLiveCache } from '../../../src/service/live/finished-cache';
import { wellBehaved } from '../../support/policies';
import { startArena, type Arena } from '../../support/serve-arena';

let arena: Arena;
let matchId: string;

beforeAll(async () => {
  // --trust-proxy: each client comes with its own X-Forwarded-For, so each has its own allowance.
  arena = await startArena([wellBehaved(), wellBehaved(), wellBehaved(), wellBehaved()], { trustProxy: true });
  [matchId] = await arena.tick();
  await arena.idle();
});
afterAll(() => arena?.close());

const get = async (path: string, client: string, headers: Record<string, string> = {}) => {
  const res = await request(arena.url + path, { headers: { 'x-forwarded-for': client, ...headers } });
  return { status: res.statusCode, text: await res.body.text() };
};

const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.99) - 1];

/** Milliseconds of `count` /health requests, one every `gapMs`, each from an address of its own. */
async function healthTimes(count: number, gapMs: number, tag: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await get('/health', `10.${tag}.${i >> 8}.${i & 255}`);
    times.push(performance.now() - t0);
    expect(res.status).toBe(200);
    await new Promise((r) => setTimeout(r, gapMs));
  }
  return times;
}

describe('/live of a finished match', () => {
  it('answers the same from the cache as when it was built, for new viewers and resumes', async () => {
    const first = await get(`/matches/${matchId}/live`, '203.0.113.1');
    expect(first.status).toBe(200);
    expect(first.text).toMatch(/^event: snapshot\n/);
    expect(first.text).toMatch(/event: end\n.*"status":"completed"/);
    expect((await get(`/matches/${matchId}/live`, '203.0.113.1')).text).toBe(first.text);
    const lastSeq = JSON.parse(/^event: snapshot\ndata: (.*)\n/.exec(first.text)![1]).seq as number;
    // Resumes: from the last event (the final view and end), from before it (the events after, then those), past it (a
    // snapshot).
    const tail = await get(`/matches/${matchId}/live`, '203.0.113.2', { 'last-event-id': String(lastSeq) });
    expect(tail.text).toMatch(/^event: view\n.*\n\nevent: end\n/);
    const resumed = await get(`/matches/${matchId}/live`, '203.0.113.2', { 'last-event-id': String(lastSeq - 3) });
    expect(resumed.text.match(/^id: \d+$/gm)).toEqual([`id: ${lastSeq - 2}`, `id: ${lastSeq - 1}`, `id: ${lastSeq}`]);
    expect(resumed.text.endsWith(tail.text)).toBe(true);
    expect((await get(`/matches/${matchId}/live`, '203.0.113.2', { 'last-event-id': String(lastSeq + 5) })).text).toBe(
      first.text,
    );
  });

  it('costs about what /health costs once built (medians of interleaved requests)', async () => {
    const url = `/matches/${matchId}/live`;
    await get(url, '203.0.113.3');
    const live: number[] = [];
    const health: number[] = [];
    for (let i = 0; i < 40; i++) {
      for (const [path, into] of [
        [url, live],
        ['/health', health],
      ] as const) {
        const t0 = performance.now();
        expect((await get(path, `10.99.${i}.${path.length % 250}`)).status).toBe(200);
        into.push(performance.now() - t0);
      }
    }
    const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[ms.length >> 1];
    const said = `median /live ${median(live).toFixed(2)} ms, /health ${median(health).toFixed(2)} ms`;
    if (process.env.SHOW) console.error(said);
    // Rebuilt per request (the match file read, the whole game replayed) it was 3-4 ms here against /health's 0.6;
    // cached, 0.6-0.8.
    expect(median(live), said).toBeLessThan(Math.max(2, 3 * median(health)));
  });

  it('12 clients following it at their allowed rate (10/s each) keep /health p99 under 10 ms (or within 3x of its p99 unloaded, on a busy machine)', async () => {
    const url = `/matches/${matchId}/live`;
    let load = false;
    let done = false;
    let served = 0;
    const bodies = new Set<string>();
    const clients = Array.from({ length: 12 }, async (_, c) => {
      while (!done) {
        if (!load) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const t0 = performance.now();
        const res = await get(url, `198.51.100.${c + 1}`);
        expect(res.status, res.text).toBe(200);
        bodies.add(res.text);
        served++;
        // 10 a second: the address's sustained allowance.
        await new Promise((r) => setTimeout(r, Math.max(0, 100 - (performance.now() - t0))));
      }
    });
    // Unloaded and loaded phases alternate, so the shared machine's own bursts of noise fall on both:
    // on a quiet machine the bar is 10 ms, on a busy one 3x what /health takes there without the load. This
    // bar is loose (the shared 2-core machine's p99 alone often passes 10 ms): the test above is the
    // one that fails surely when /live is rebuilt per request.
    const unloaded: number[] = [];
    const loaded: number[] = [];
    for (let phase = 0; phase < 6; phase++) {
      load = phase % 2 === 1;
      if (load) await new Promise((r) => setTimeout(r, 100)); // the clients are under way
      (load ? loaded : unloaded).push(...(await healthTimes(50, 5, phase + 1)));
      load = false;
    }
    done = true;
    await Promise.all(clients);
    expect(bodies.size).toBe(1);
    // Three phases of ~0.3 s at 120 requests a second: the load was there.
    expect(served).toBeGreaterThan(60);
    const bar = Math.max(10, 3 * p99(unloaded));
    const said = `p99 /health under load ${p99(loaded).toFixed(1)} ms, unloaded ${p99(unloaded).toFixed(1)} ms, ${served} /live served`;
    if (process.env.SHOW) console.error(said);
    expect(p99(loaded), said).toBeLessThan(bar);
  });
});

describe('FinishedLiveCache', () => {
  const entry = (n: number) => ({ snapshot: 's'.repeat(n), tail: 't', lastSeq: 1 });

  it('keeps at most its entries, dropping the least recently used', () => {
    const cache = new FinishedLiveCache(2, 1000);
    cache.set('a', entry(10));
    cache.set('b', entry(10));
    cache.get('a');
    cache.set('c', entry(10));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(cache.size).toBe(2);
  });

  it('keeps at most its characters; one entry larger than all of it is not kept', () => {
    const cache = new FinishedLiveCache(100, 100);
    for (const id of ['a', 'b', 'c']) cache.set(id, entry(39));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    expect(cache.totalChars).toBe(80);
    cache.set('huge', entry(200));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.size).toBe(2);
    // Setting an id again replaces it, counted once.
    cache.set('b', entry(9));
    expect(cache.totalChars).toBe(50);
  });
});
