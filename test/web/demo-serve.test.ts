// `arena demo --serve` as a user runs it: the real CLI in a child process.
// It prints the dashboard address and a sign-in link; following the link in
// a browser signs in as @demo, whose four example bots passed their checks
// and are being seated in matches; Ctrl-C stops the service and the bot
// processes and removes the temporary data directory.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { openBrowser, screenshot, unnamedControls } from './support/browser';
import { ensureWebBuilt } from './support/service';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let child: ChildProcess | null = null;

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

/** Resolves once `pattern` appears in what the stream has said so far. */
function waitFor(
  text: () => string,
  stream: NodeJS.ReadableStream,
  pattern: RegExp,
  timeoutMs = 90_000,
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(text());
      if (!m) return false;
      stream.off('data', check);
      clearTimeout(t);
      resolve(m);
      return true;
    };
    const t = setTimeout(() => {
      stream.off('data', check);
      reject(new Error(`timed out waiting for ${pattern}; so far:\n${text()}`));
    }, timeoutMs);
    if (!check()) stream.on('data', check);
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('arena demo --serve', () => {
  it('serves the dashboard with the example bots playing, signs in by the printed link, and cleans up on Ctrl-C', async () => {
    await ensureWebBuilt();
    let stdout = '';
    let stderr = '';
    child = spawn(process.execPath, [`${ROOT}bin/arena`, 'demo', '--serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => child!.once('exit', (code) => r(code)));

    const [, link] = await waitFor(
      () => stdout,
      child.stdout!,
      /^Sign in as @demo \(valid 15 minutes, once\): (\S+)$/m,
    );
    const [, dashboard] = /^Dashboard: (\S+)$/m.exec(stdout)!;
    expect(link.startsWith(dashboard)).toBe(true);
    const dataDir = /data in (\S+) \(temporary\)/.exec(stderr)![1];
    expect(existsSync(dataDir)).toBe(true);
    const botPorts = [...stderr.matchAll(/\(http:\/\/127\.0\.0\.1:(\d+)\)/g)].map((m) => Number(m[1]));
    expect(botPorts).toHaveLength(4);

    const b = await openBrowser({ width: 1200, height: 1000 });
    try {
      await b.page.goto(link);
      await b.page.getByRole('button', { name: /^Sign in as / }).click();
      await b.page.getByTestId('me').filter({ hasText: '@demo' }).waitFor();
      await b.page.goto(`${dashboard}account/bots`);
      await b.page.locator('article[data-bot]').nth(3).waitFor();
      expect(await b.page.locator('article[data-bot] .status').allTextContents()).toEqual([
        'active',
        'active',
        'active',
        'active',
      ]);
      await screenshot(b.page, 'demo-serve-bots');
      // The scheduler seats the four bots within a few seconds: a match shows up on the home page.
      await b.page.goto(dashboard);
      await b.page.locator('li[data-match]').first().waitFor({ timeout: 60_000 });
      await b.page.locator('li[data-match] a').first().click();
      await b.page.locator('svg.board').waitFor();
      expect(await unnamedControls(b.page)).toEqual([]);
      await screenshot(b.page, 'demo-serve-match');
      expect(b.errors).toEqual([]);
    } finally {
      await b.close();
    }

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/stopped; the temporary directory is removed/);
    expect(existsSync(dataDir)).toBe(false);
    for (const port of botPorts) expect(await refused(port), `bot on port ${port} stopped`).toBe(true);
  }, 180_000);
});
