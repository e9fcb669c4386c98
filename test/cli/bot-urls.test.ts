// Bot URLs with user:password@ are refused wherever a bot URL enters the CLI,
// before anything is stored, printed or connected to.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/run-cli';

const home = mkdtempSync(join(tmpdir(), 'arena-urls-'));
const env = { ARENA_CONFIG_DIR: join(home, 'config'), PATH: '/usr/local/bin' };
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('credentials in bot URLs', () => {
  it('arena play refuses them as a usage error (exit 2), never echoing the password, and writes nothing', async () => {
    const out = join(home, 'out');
    for (const url of ['http://ada:hunter2@127.0.0.1:9', 'mine=wss://hunter2@127.0.0.1:9/bot']) {
      const r = await runCli(['play', url, 'builtin:random', 'builtin:random', '--out', out, '--json'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/carries a user name or password/);
      expect(r.stderr + r.stdout).not.toContain('hunter2');
      expect(r.stdout).toBe('');
    }
    expect(existsSync(out)).toBe(false);
  });

  it('arena bot check refuses them the same way', async () => {
    const r = await runCli(['bot', 'check', 'http://ada:hunter2@127.0.0.1:9', '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/carries a user name or password/);
    expect(r.stderr + r.stdout).not.toContain('hunter2');
  });

  it('a URL that does not parse is reported without its credentials too', async () => {
    const r = await runCli(['bot', 'check', 'http://ada:hunter2@bad host'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('hunter2');
  });
});
