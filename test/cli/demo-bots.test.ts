// The demo's bots are the examples as they are on disk, each in its own
// process (never imported into the arena), verifying the arena's handshake.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DemoBotError, startDemoBots } from '../../src/cli/demo-bots';
import { generateKeyPair, publicKeyRaw } from '../../src/keys/index';
import { deployCheck } from '../../src/probe/deploy-check';

describe('demo bots', () => {
  it('start the example bots as processes that answer, verify the platform key, and stop on close', async () => {
    const key = generateKeyPair().privateKey;
    const bots = await startDemoBots({ platformPublicKey: Buffer.from(publicKeyRaw(key)).toString('base64') });
    try {
      expect(bots.bots.map((b) => b.name)).toEqual(['starter', 'heuristic']);
      expect(bots.args).toEqual([
        `starter=${bots.bots[0].url}`,
        `heuristic=${bots.bots[1].url}`,
        'builtin:greedy',
        'builtin:random',
      ]);
      for (const b of bots.bots) {
        expect(b.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(await deployCheck(b.url, { platformKey: key })).toMatchObject({ ok: true });
        const stranger = await deployCheck(b.url, { platformKey: generateKeyPair().privateKey });
        expect(stranger).toMatchObject({ ok: false, failure: { step: 'upgrade' } });
      }
    } finally {
      await bots.close();
    }
    for (const b of bots.bots) await expect(fetch(`${b.url}/ping`)).rejects.toThrow();
  });

  it('say which example is missing instead of starting half a line-up', async () => {
    const root = mkdtempSync(join(tmpdir(), 'arena-demo-root-'));
    try {
      writeFileSync(join(root, 'package.json'), '{"name":"bot-arena"}');
      await expect(startDemoBots({ root })).rejects.toThrow(DemoBotError);
      await expect(startDemoBots({ root })).rejects.toThrow(/examples\/starter-bot\/bot\.ts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
