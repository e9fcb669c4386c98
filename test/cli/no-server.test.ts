// One rule for "no server configured", for every command that talks to a
// server: exit 2 (a usage error: nothing was tried), one message saying how
// to name a server, and nothing sent anywhere (there is nowhere to send it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyPair, privateKeyToPem } from '../../src/keys/index';
import { runCli } from '../support/run-cli';

const dir = mkdtempSync(join(tmpdir(), 'arena-no-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const keyFile = join(dir, 'me.pem');
writeFileSync(keyFile, privateKeyToPem(generateKeyPair().privateKey), { mode: 0o600 });
// A key is configured, so only the server is missing: the exit code is about that alone.
const env = { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config'), ARENA_KEY_ID: 'k_1', ARENA_KEY_FILE: keyFile };

const COMMANDS: string[][] = [
  ['me'],
  ['me', 'handle', 'ada'],
  ['keys', 'add', keyFile],
  ['keys', 'list'],
  ['keys', 'revoke', 'k_2'],
  ['bots', 'register', 'b', 'https://bot.example.com/ws'],
  ['bots', 'list'],
  ['bots', 'show', 'b'],
  ['bots', 'update', 'b', '--name', 'c'],
  ['bots', 'pause', 'b'],
  ['bots', 'resume', 'b'],
  ['bots', 'remove', 'b'],
  ['api', 'GET', '/me'],
  ['matches', 'list'],
  ['matches', 'show', 'm_1'],
  ['leaderboard'],
  ['watch', 'm_1', '--plain'],
];

describe('no server configured', () => {
  for (const args of COMMANDS) {
    it(`arena ${args.join(' ')}: exit 2 and how to name a server`, async () => {
      const r = await runCli(args, { env, cwd: dir });
      expect([r.code, r.stderr]).toEqual([
        2,
        'arena: no server configured: pass --url URL, set ARENA_URL, or run `arena login --url URL ...`\n',
      ]);
      expect(r.stdout).toBe('');
    });
  }

  it('arena replay ID (no such file either): exit 2, and it says a file would do too', async () => {
    const r = await runCli(['replay', 'm_1', '--plain'], { env, cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no server to fetch match "m_1" from: pass --url, set ARENA_URL, or run `arena login`\. Or pass a match file/,
    );
  });

  it('a missing key, with a server named, is still exit 4 (authentication), not this rule', async () => {
    const r = await runCli(['bots', 'list', '--url', 'http://127.0.0.1:9'], {
      env: { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') },
      cwd: dir,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/no key id/);
  });
});
