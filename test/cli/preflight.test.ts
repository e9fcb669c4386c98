import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBotArgs } from '../../src/arena/bots';
import { preflight } from '../../src/cli/preflight';
import { generateKeyPair } from '../../src/keys/index';
import { startBot } from '../../examples/starter-bot/bot';
import { createServer } from 'node:net';

/** A loopback port nothing listens on: bound by us a moment ago, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

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
      const problems = await preflight(
        { bots: parseBotArgs([bot.url, 'builtin:random', 'builtin:random']), outDir: join(dir, 'out') },
        key,
      );
      expect(problems).toEqual([]);
      expect(existsSync(join(dir, 'out'))).toBe(true);
    } finally {
      await bot.close();
    }
  });

  it('lists every failing bot by name, and leaves --out alone when it fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-pre-'));
    dirs.push(dir);
    const port = await closedPort();
    const problems = await preflight(
      {
        bots: parseBotArgs([`a=http://127.0.0.1:${port}`, `b=ws://127.0.0.1:${port}/x`, 'builtin:random']),
        outDir: join(dir, 'out'),
      },
      key,
    );
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(
      new RegExp(`^a: deploy check failed: GET http://127\\.0\\.0\\.1:${port}/ping failed: connection refused`),
    );
    expect(problems[1]).toMatch(new RegExp(`^b: deploy check failed: GET http://127\\.0\\.0\\.1:${port}/x/ping`));
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
