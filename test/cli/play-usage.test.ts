// `arena play` usage errors: said before anything happens (no platform key is
// created), and a bot address without a scheme gets the URL that was meant.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'arena-play-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('arena play usage', () => {
  it('with no bots: exit 2, and no platform key created in the config directory', async () => {
    const config = join(dir, 'no-bots');
    const r = await runCli(['play'], { env: { HOME: dir, ARENA_CONFIG_DIR: config }, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('created the local platform key');
    expect(existsSync(config) ? readdirSync(config) : []).toEqual([]);
  });

  it('with a bad flag: exit 2 and no key either', async () => {
    const config = join(dir, 'bad-flag');
    const r = await runCli(['play', 'builtin:random', 'builtin:greedy', '--games', 'many'], {
      env: { HOME: dir, ARENA_CONFIG_DIR: config },
      cwd: dir,
    });
    expect(r.code).toBe(2);
    expect(existsSync(join(config, 'platform-key.pem'))).toBe(false);
  });

  it('arena demo with a bad flag: exit 2 and no key either', async () => {
    const config = join(dir, 'demo');
    const r = await runCli(['demo', '--games', 'many'], { env: { HOME: dir, ARENA_CONFIG_DIR: config }, cwd: dir });
    expect(r.code).toBe(2);
    expect(existsSync(join(config, 'platform-key.pem'))).toBe(false);
  });

  it('localhost:8080 suggests http://localhost:8080 instead of naming "scheme localhost"', async () => {
    const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'hint') };
    for (const [arg, meant] of [
      ['localhost:8080', 'http://localhost:8080'],
      ['127.0.0.1:8080/ws', 'http://127.0.0.1:8080/ws'],
      ['mine=localhost:9000', 'http://localhost:9000'],
    ]) {
      const r = await runCli(['play', arg, 'builtin:random'], { env, cwd: dir });
      expect(r.code, arg).toBe(2);
      expect(r.stderr, arg).toContain(`did you mean ${meant} ?`);
      expect(r.stderr, arg).not.toMatch(/scheme localhost/);
    }
    const builtin = await runCli(['play', 'greedy', 'builtin:random'], { env, cwd: dir });
    expect([builtin.code, builtin.stderr]).toEqual([2, expect.stringContaining('did you mean builtin:greedy ?')]);
    // A real scheme that is not one of the four is still named as such.
    const ftp = await runCli(['play', 'ftp://bots.example.com', 'builtin:random'], { env, cwd: dir });
    expect([ftp.code, ftp.stderr]).toEqual([2, expect.stringContaining('has scheme ftp; use http, https, ws or wss')]);
    expect(existsSync(join(dir, 'hint', 'platform-key.pem'))).toBe(false);
  });
});
