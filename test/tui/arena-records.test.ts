// The contract with `arena play --out DIR`: what the arena writes, the viewer opens.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTournament } from '../../src/arena/tournament';
import { loadRecord } from '../../src/arena/load';
import { renderPlain } from '../../src/tui/plain';
import { buildTimeline } from '../../src/tui/timeline';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-tui-records-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('records written by the arena', () => {
  it('open from their directory (the newest game), verify and render', async () => {
    const summary = await runTournament({
      bots: ['a', 'b', 'c'].map((id) => ({
        id,
        name: `bot-${id}`,
        source: { type: 'builtin' as const, bot: 'random' as const },
      })),
      games: 3,
      seats: 3,
      seed: 'tui-arena-records',
      platformKey: generateKeyPairSync('ed25519').privateKey,
      outDir: dir,
    });
    const { record, origin } = await loadRecord(dir);
    expect(origin.endsWith('-0003.json')).toBe(true);
    expect(summary.matches.map((m) => m.id)).toContain(record.id);
    const t = buildTimeline(record);
    expect(t.frames).toHaveLength(record.replay.length);
    const text = renderPlain(t, t.events.length - 1);
    expect(text).toContain(`match ${record.id}`);
    for (const p of record.players) expect(text).toContain(p.botName);
  });
});
