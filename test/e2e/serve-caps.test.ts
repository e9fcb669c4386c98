// `arena serve`'s connection caps as flags (issue 27, item 1): the start-up
// line says the caps in force, a real process enforces them, a bad value is
// a usage error (exit 2).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli';
import { startServe, stopServe, type ServeProcess } from '../support/serve-process';

const dir = mkdtempSync(join(tmpdir(), 'arena-serve-caps-'));
let serve: ServeProcess | null = null;
const sockets: Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  if (serve) await stopServe(serve);
  rmSync(dir, { recursive: true, force: true });
});

describe('arena serve --max-connections, --max-connections-per-address, --max-live-streams', () => {
  it('are said at start-up and enforced: the fourth connection from one address is answered 429', async () => {
    serve = await startServe(
      [
        '--dev',
        '--port',
        '0',
        '--tick',
        '0',
        '--data',
        join(dir, 'data'),
        '--max-connections',
        '30',
        '--max-connections-per-address',
        '3',
        '--max-live-streams',
        '5',
      ],
      { HOME: dir },
    );
    expect(serve.stderr()).toContain('connections: at most 30 for requests, 3 from one address, and 5 live streams');
    const { port } = new URL(serve.url);
    const answers = await Promise.all(
      Array.from(
        { length: 4 },
        (_, i) =>
          new Promise<string>((resolve) => {
            const s = connect(Number(port), '127.0.0.1');
            sockets.push(s);
            let got = '';
            s.on('data', (d) => (got += d));
            s.on('close', () => resolve(got));
            s.on('error', () => resolve(got));
            // The first three hold their connection open with a request not yet finished.
            s.on('connect', () => s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
            setTimeout(() => resolve(got), 1000 + i);
          }),
      ),
    );
    expect(answers.filter((a) => a.startsWith('HTTP/1.1 429 '))).toHaveLength(1);
    expect(answers.find((a) => a.startsWith('HTTP/1.1 429 '))).toMatch(/--max-connections-per-address/);
  });

  it('refuses --qualify-opponents that are not 2 or 3 built-ins, and a --qualify other than on or off: exit 2', async () => {
    for (const [value, said] of [
      ['builtin:heuristic,builtin:random', 'unknown built-in bot "heuristic"'],
      ['builtin:random', 'give 2 or 3 built-in bots'],
    ]) {
      const r = await runCli(['serve', '--dev', '--data', join(dir, 'never'), '--qualify-opponents', value]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--qualify-opponents: ${said}`);
    }
    const r = await runCli(['serve', '--dev', '--data', join(dir, 'never'), '--qualify', 'maybe']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--qualify.*maybe/);
  });

  it('refuses a cap that is not a whole number from 1: exit 2, naming the flag', async () => {
    for (const [flag, value] of [
      ['--max-connections', '0'],
      ['--max-connections-per-address', '2.5'],
      ['--max-live-streams', 'many'],
    ]) {
      const r = await runCli(['serve', '--dev', '--data', join(dir, 'never'), flag, value]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${flag} must be a whole number from 1 to 1000000, got "${value}"`);
    }
  });
});
