// The README's "Writing a bot in ten lines" is a real bot: its code block,
// run as written (only the package imports pointed at this checkout and the
// port made free), passes `arena bot check` and plays whole games without a
// strike.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/keys/index';
import { checkBot } from '../../src/probe/conformance';
import { runCli } from '../support/run-cli';

const root = resolve(__dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'arena-readme-bot-'));
let bot: ChildProcess;
let url: string;

/** The js block under the README's "Writing a bot in ten lines". */
function readmeBot(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Writing a bot in ten lines'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README has no js block under "Writing a bot in ten lines"');
  return block[1];
}

beforeAll(async () => {
  const code = readmeBot();
  expect(code.split('\n').filter((l) => l.trim()).length).toBeLessThanOrEqual(12);
  const runnable = code
    .replace("from 'ws'", `from '${pathToFileURL(join(root, 'node_modules/ws/wrapper.mjs')).href}'`)
    .replace("from 'bot-arena/engine'", `from '${pathToFileURL(join(root, 'engine/index.ts')).href}'`)
    .replace(
      'server.listen(8080);',
      "server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));",
    );
  expect(runnable).toContain('server.listen(0');
  const file = join(dir, 'bot.mjs');
  writeFileSync(file, runnable);
  bot = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root });
  url = await new Promise<string>((ok, fail) => {
    let out = '';
    bot.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]);
    });
    let err = '';
    bot.stderr!.on('data', (d) => (err += d));
    bot.on('exit', (c) => fail(new Error(`the README bot exited with ${c}: ${err}`)));
  });
}, 60_000);

afterAll(async () => {
  if (bot && bot.exitCode === null) {
    const exited = new Promise((r) => bot.on('exit', r));
    bot.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the README bot', () => {
  it('passes arena bot check', async () => {
    const report = await checkBot(url, { platformKey: generateKeyPair().privateKey });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('plays whole games without a strike', async () => {
    const r = await runCli(
      ['play', url, 'builtin:random', 'builtin:greedy', '--games', '3', '--seed', 'readme-bot', '--json'],
      {
        env: { HOME: dir, ARENA_CONFIG_DIR: join(dir, 'config') },
        cwd: dir,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      games: number;
      bots: Array<{ source: string; strikes: Record<string, number>; resigned: number }>;
    };
    expect(summary.games).toBe(3);
    const mine = summary.bots.find((b) => b.source === url)!;
    expect(mine.strikes).toEqual({ late: 0, malformed: 0, oversize: 0, dropped: 0, illegal: 0 });
    expect(mine.resigned).toBe(0);
  }, 60_000);
});
