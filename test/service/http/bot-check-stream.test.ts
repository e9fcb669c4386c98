// POST /bots/check streams the checks as they run; a client that hangs up in
// the middle must not hurt the server: the check finishes unheard, nothing is
// saved, and the next request is answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { DeployCheckOptions, DeployCheckResult } from '../../../src/probe/deploy-check';
import { startHarness, signHeaders, type Harness, type TestKey } from '../support/api-harness';

describe('POST /bots/check when the client leaves mid-check', () => {
  let h: Harness;
  let key: TestKey;
  let finish!: () => void;
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let finished!: () => void;
  const checkDone = new Promise<void>((resolve) => {
    finished = resolve;
  });

  beforeAll(async () => {
    h = await startHarness({
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      // A deploy check that reports /ping starting, then waits for the test: no connection is opened.
      deployCheck: async (url: string, opts: DeployCheckOptions): Promise<DeployCheckResult> => {
        if (opts.gate) await opts.gate(url);
        opts.onStep?.('ping');
        await held;
        opts.onStep?.('upgrade');
        finished();
        return { ok: true, url, pingMs: 1, upgradeMs: 1 };
      },
    });
    key = await h.addKey((await h.addUser('leaver@example.com')).id);
  });
  afterAll(async () => {
    finish();
    await h?.close();
  });

  it('ends quietly; the server keeps answering and saved nothing', async () => {
    const before = await h.snapshot();
    const body = JSON.stringify({ url: 'https://bot.example.com/' });
    const ac = new AbortController();
    const res = await request(`${h.url}/bots/check`, {
      method: 'POST',
      body,
      signal: ac.signal,
      headers: { ...signHeaders(key, 'POST', '/bots/check', body), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    // Read until /ping is reported running, then hang up.
    let text = '';
    for await (const chunk of res.body) {
      text += chunk.toString();
      if (text.includes('"step":"ping","status":"running"')) break;
    }
    ac.abort();
    await res.body.dump().catch(() => {});
    finish();
    await checkDone;
    const health = await request(`${h.url}/health`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
    expect(await h.snapshot()).toEqual(before);
    expect(h.logs.some((l) => l.event === 'bot.check')).toBe(true);
  });
});
