// A database lost while `arena serve` runs: what needs it answers 503 with
// Retry-After, /health says so and stays up, and the server reconnects by
// itself when the database is back (no restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePostgres } from '../support/use-postgres';
import { startServe, stopServe } from '../support/serve-process';

const cluster = usePostgres();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-pg-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('503 with Retry-After while the database is away; reconnects when it is back', async () => {
  const url = await cluster().createDatabase();
  const serve = await startServe(['--store', url, '--dev', '--port', '0', '--tick', '0'], {
    HOME: join(dir, 'home'),
    ARENA_CONFIG_DIR: join(dir, 'config'),
  });
  try {
    const first = await fetch(`${serve.url}/leaderboard`);
    expect(first.status, `${await first.clone().text()}\n${serve.stderr()}`).toBe(200);
    expect(await (await fetch(`${serve.url}/health`)).json()).toEqual({ status: 'ok', role: 'all', db: 'ok' });

    cluster().stop('immediate');
    const down = await fetch(`${serve.url}/leaderboard`);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await down.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    const health = await fetch(`${serve.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', role: 'all', db: 'unavailable' });
    // Public documents that need no database keep working.
    expect((await fetch(`${serve.url}/.well-known/svc.json`)).status).toBe(200);

    cluster().start();
    const back = await fetch(`${serve.url}/leaderboard`);
    expect(
      back.status,
      serve
        .stderr()
        .split('\n')
        .filter((l) => l.includes('error'))
        .join('\n'),
    ).toBe(200);
    expect(await (await fetch(`${serve.url}/health`)).json()).toEqual({ status: 'ok', role: 'all', db: 'ok' });
    expect(serve.child.exitCode).toBeNull();
  } finally {
    cluster().start();
    expect((await stopServe(serve)).code).toBe(0);
  }
}, 60_000);
