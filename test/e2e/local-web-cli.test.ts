// `arena play --web` and `arena replay --web` as a user runs them (node
// bin/arena): the address printed, the games served from memory while and
// after they play, no data directory, Ctrl-C stops with exit 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const home = mkdtempSync(join(tmpdir(), 'arena-local-web-'));
const env = { ...process.env, ARENA_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

/** Starts `arena ARGS`; resolves once stderr says it is still serving, with the page URL and the output so far. */
function startArena(
  args: string[],
): Promise<{ child: ChildProcess; url: string; base: string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'arena'), ...args], {
    cwd: home,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((ok, fail) => {
    let err = '';
    child.stdout!.resume();
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /local games at (http:\/\/127\.0\.0\.1:(\d+))(\S*)/.exec(err);
      if (m && /still serving/.test(err)) ok({ child, url: m[1] + m[3], base: m[1], exit });
    });
    child.once('exit', (code) => fail(new Error(`arena exited ${code}: ${err}`)));
  });
}

describe('--web', () => {
  it('arena play --web serves the games it played, with their decisions, until Ctrl-C', async () => {
    const out = join(home, 'runs');
    const { child, base, exit } = await startArena([
      'play',
      'builtin:random',
      'builtin:greedy',
      'builtin:random',
      '--games',
      '2',
      '--seed',
      'web-cli',
      '--web',
      '--out',
      out,
    ]);
    const list = (await (await fetch(`${base}/matches`)).json()) as { matches: Array<{ id: string; status: string }> };
    expect(list.matches.map((m) => m.status)).toEqual(['completed', 'completed']);
    const files = readdirSync(out)
      .filter((f) => f.startsWith('m-'))
      .sort();
    expect(list.matches.map((m) => `${m.id}.json`).sort()).toEqual(files);
    const m = (await (await fetch(`${base}/matches/${list.matches[0].id}`)).json()) as {
      decisions: unknown[];
      replay: unknown[];
    };
    expect(m.decisions.length).toBeGreaterThan(50);
    expect((await fetch(`${base}/matches/nope`)).status).toBe(404);
    // A browser at the API's own path gets the page, as from `arena serve`.
    const page = await fetch(`${base}/matches/${list.matches[0].id}`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  }, 60_000);

  it('arena replay FILE --web serves that record at the printed match page', async () => {
    const out = join(home, 'runs');
    const file = join(
      out,
      readdirSync(out)
        .filter((f) => f.startsWith('m-'))
        .sort()[0],
    );
    const record = JSON.parse(readFileSync(file, 'utf8')) as { id: string };
    const { child, url, base, exit } = await startArena(['replay', file, '--web']);
    expect(url).toBe(`${base}/match/${record.id}`);
    const served = (await (await fetch(`${base}/matches/${record.id}`)).json()) as { id: string; seed: string };
    expect(served).toMatchObject({ id: record.id, seed: expect.any(String) });
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  }, 60_000);

  it('refuses a bad --port before doing anything', async () => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'arena'),
        'play',
        'builtin:random',
        'builtin:random',
        'builtin:random',
        '--web',
        '--port',
        '70000',
      ],
      { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/--port: expected a port number/);
  }, 30_000);
});
