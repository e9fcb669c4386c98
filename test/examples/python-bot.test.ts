// The Python starter as a bot author runs it: `python3 bot.py`, a real server,
// real matches against the built-in bots, and its handshake verification.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { boardData } from '../../engine/board-data';
import {
  generateKeyPair,
  handshakeAudience,
  publicKeyRaw,
  signBoundHandshake,
  signHandshake,
} from '../../src/keys/index';
import { runMatch, type MatchEntrant } from '../../src/runner/index';
import { findPython } from '../support/python';

const root = resolve(__dirname, '../..');
const botDir = resolve(root, 'examples/python-bot');

const python = findPython();
// CI installs what the test needs, so there a missing python is a failure, not a skip.
const suite = python || process.env.CI ? describe : describe.skip;

const platform = generateKeyPair().privateKey;
const platformPublic = Buffer.from(publicKeyRaw(platform)).toString('base64');

function startPythonBot(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  if (!python) throw new Error('python3 with the websockets package is required: apt-get install python3-websockets');
  const child = spawn(python, [resolve(botDir, 'bot.py'), '--port', '0', '--quiet', ...args], { cwd: botDir });
  return new Promise((ok, fail) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1], child });
    });
    child.stderr!.on('data', (d) => (err += d));
    child.on('exit', (code) => fail(new Error(`python bot exited with ${code}: ${err}`)));
  });
}

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((ok) => {
    const ws = new WebSocket(url.replace('http', 'ws'), { headers });
    ws.on('open', () => {
      ok('open');
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

suite('examples/python-bot', () => {
  let bot: { url: string; child: ChildProcess };
  beforeAll(async () => {
    bot = await startPythonBot(['--platform-key', platformPublic]);
  });
  afterAll(async () => {
    if (!bot) return;
    const exited = new Promise((r) => bot.child.once('exit', r));
    bot.child.kill('SIGINT');
    await exited;
  });

  it('ships the board geometry exactly as `arena board --json` prints it', () => {
    expect(JSON.parse(readFileSync(resolve(botDir, 'board.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(boardData())),
    );
  });

  it('answers /ping and accepts only handshakes the platform key signed for this bot, once', async () => {
    expect(await (await fetch(`${bot.url}/ping`)).text()).toBe('pong');
    const good = signBoundHandshake(platform, 'm-1', bot.url);
    expect(await upgradeStatus(bot.url, good)).toBe('open');
    expect(await upgradeStatus(bot.url, good)).toBe(401); // the same nonce again
    expect(await upgradeStatus(bot.url, {})).toBe(401);
    // The spec's signature alone names no bot: a verifying starter wants the bound form.
    expect(await upgradeStatus(bot.url, signHandshake(platform, 'm-1'))).toBe(401);
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', 'http://127.0.0.1:1'))).toBe(401);
    const tampered = signBoundHandshake(platform, 'm-1', bot.url);
    expect(
      await upgradeStatus(bot.url, {
        ...tampered,
        'x-svc-nonce': signBoundHandshake(platform, 'm-1', bot.url)['x-svc-nonce'],
      }),
    ).toBe(401);
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', bot.url, Date.now() - 31_000))).toBe(401);
    expect(await upgradeStatus(bot.url, signBoundHandshake(generateKeyPair().privateKey, 'm-1', bot.url))).toBe(401);
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', bot.url))).toBe('open');
  });

  it('writes a URL as the arena writes the audience (new URL(url).href, http(s) as ws(s))', () => {
    const urls = [
      'http://127.0.0.1:8080',
      'ws://127.0.0.1:8080/',
      'HTTPS://Bot.Example:443/a/play#x',
      'wss://bot.example:8443/p?q=1',
      'http://[0:0:0:0:0:0:0:1]:9000',
      'ws://localhost:80/x/',
    ];
    const code = `import importlib.util, json, sys\nspec = importlib.util.spec_from_file_location("bot", "bot.py")\nbot = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(bot)\nprint(json.dumps([bot.audience_of(u) for u in json.loads(sys.argv[1])]))`;
    const r = spawnSync(python!, ['-c', code, JSON.stringify(urls)], { cwd: botDir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(urls.map(handshakeAudience));
  });

  it('plays 20 games against built-in bots without a single strike', async () => {
    const entrants: MatchEntrant[] = [
      { botId: 'python', botName: 'python', source: { type: 'ws', url: bot.url } },
      { botId: 'greedy', botName: 'greedy', source: { type: 'builtin', bot: 'greedy' } },
      { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
      { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
    ];
    const kinds = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const r = await runMatch({ matchId: `m-py${i}`, seed: `python/${i}`, entrants, platformKey: platform });
      expect(r.match.status).toBe('completed');
      const seat = r.seats.find((s) => s.botId === 'python')!;
      expect(seat.strikeLog).toEqual([]);
      for (const ev of r.match.replay) {
        const data = ev.data as { kind?: string; default?: boolean } | undefined;
        if (ev.seat === seat.seat && ev.kind === 'action' && data?.kind && !data.default) kinds.add(data.kind);
      }
    }
    // Every decision kind came up and was answered by the bot itself.
    expect([...kinds].sort()).toEqual(['bandit', 'discard', 'setup', 'trade', 'turn']);
  }, 120_000);
});
