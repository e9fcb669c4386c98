import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBotArgs } from '../../src/arena/bots';
import { preflight } from '../../src/cli/preflight';
import { generateKeyPair } from '../../src/keys/index';
import { startBot } from '../../examples/starter-bot/bot';

const key = generateKeyPair().privateKey;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('preflight', () => {
  it('passes live bots and creates the --out directory', async () => {
    const bot = await startBot({ port: 0 });
    const dir = mkdtempSync(join(tmpdir(), 'arena-pre-'));
    dirs.push(dir);
    try {
      const problems = await preflight({ bots: parseBotArgs([bot.url, 'builtin:random', 'builtin:random']), outDir: join(dir, 'out') }, key);
      expect(problems).toEqual([]);
      expect(existsSync(join(dir, 'out'))).toBe(true);
    } finally {
      await bot.close();
    }
  });

  it('lists every failing bot by name, and leaves --out alone when it fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-pre-'));
    dirs.push(dir);
    const problems = await preflight({ bots: parseBotArgs(['a=http://127.0.0.1:9', 'b=ws://127.0.0.1:9/x', 'builtin:random']), outDir: join(dir, 'out') }, key);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^a: deploy check failed: GET http:\/\/127\.0\.0\.1:9\/ping failed: connection refused/);
    expect(problems[1]).toMatch(/^b: deploy check failed: GET http:\/\/127\.0\.0\.1:9\/x\/ping/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('reports an --out path that cannot be a directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-pre-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'file'), '');
    const problems = await preflight({ bots: parseBotArgs(['builtin:random']), outDir: join(dir, 'file', 'out') }, key);
    expect(problems).toEqual([expect.stringMatching(/^cannot write to --out .*: ENOTDIR/)]);
  });
});
