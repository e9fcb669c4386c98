// The example bots as bot authors will run them: real servers on 127.0.0.1,
// real signed handshakes, real matches through the runner.
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  generateKeyPair,
  handshakeAudience,
  publicKeyRaw,
  signBoundHandshake,
  signHandshake,
} from '../../src/keys/index';
import { deployCheck } from '../../src/probe/deploy-check';
import { runMatch, type MatchEntrant } from '../../src/runner/index';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startBot as startHeuristic } from '../../examples/heuristic-bot/bot';
import { handshakeAudience as starterAudience, type RunningBot } from '../../examples/starter-bot/server';

const platform = generateKeyPair().privateKey;
const platformPublic = Buffer.from(publicKeyRaw(platform)).toString('base64');
const running: RunningBot[] = [];
afterEach(async () => {
  for (const b of running.splice(0)) await b.close();
});

async function up(start: typeof startStarter, opts: Parameters<typeof startStarter>[0] = {}) {
  const bot = await start({ port: 0, ...opts });
  running.push(bot);
  return bot;
}

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace('http', 'ws'), { headers });
    ws.on('open', () => {
      resolve('open');
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

describe('example bot server', () => {
  it('answers /ping with pong and anything else with 404', async () => {
    const bot = await up(startStarter);
    expect(await (await fetch(`${bot.url}/ping`)).text()).toBe('pong');
    expect((await fetch(`${bot.url}/other`)).status).toBe(404);
  });

  it('with a platform key, accepts only handshakes that key signed for this bot, once', async () => {
    const bot = await up(startStarter, { platformPublicKey: platformPublic });
    expect(bot.publicUrl).toBe(`${bot.url.replace('http:', 'ws:')}/`);
    const good = signBoundHandshake(platform, 'm-1', bot.url);
    expect(await upgradeStatus(bot.url, good)).toBe('open');
    expect(await upgradeStatus(bot.url, good)).toBe(401); // the same nonce again
    expect(await upgradeStatus(bot.url, {})).toBe(401);
    // The spec's signature alone names no bot: a verifying starter wants the bound form.
    expect(await upgradeStatus(bot.url, signHandshake(platform, 'm-1'))).toBe(401);
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', 'http://127.0.0.1:1'))).toBe(401);
    const stranger = generateKeyPair().privateKey;
    expect(await upgradeStatus(bot.url, signBoundHandshake(stranger, 'm-1', bot.url))).toBe(401);
    // The deploy check explains a refusal of that kind.
    const r = await deployCheck(bot.url, { platformKey: stranger });
    expect(!r.ok && r.failure.message).toContain('--print-platform-key');
  });

  it('refuses a platform key that is not 32 bytes', async () => {
    await expect(startStarter({ port: 0, platformPublicKey: 'c2hvcnQ=' })).rejects.toThrow(/32 raw bytes/);
  });

  it('writes a URL as the arena writes the audience', () => {
    for (const url of [
      'http://127.0.0.1:8080',
      'ws://127.0.0.1:8080/',
      'HTTPS://Bot.Example:443/a/play#x',
      'wss://bot.example:8443/p?q=1',
      'http://[0:0:0:0:0:0:0:1]:9000',
    ]) {
      expect(starterAudience(url)).toBe(handshakeAudience(url));
    }
  });

  it('takes its public URL from its options (behind a proxy), never from the Host header', async () => {
    const bot = await up(startStarter, {
      platformPublicKey: platformPublic,
      publicUrl: 'https://bot.example.org/play',
    });
    expect(bot.publicUrl).toBe('wss://bot.example.org/play');
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', 'wss://bot.example.org/play'))).toBe(
      'open',
    );
    // Sent to the address it listens on, with a Host header naming it: still not its public URL.
    expect(await upgradeStatus(bot.url, signBoundHandshake(platform, 'm-1', bot.url))).toBe(401);
    await expect(startStarter({ port: 0, publicUrl: 'not a url' })).rejects.toThrow(/publicUrl must be a URL/);
  });
});

describe('example bots in real matches', () => {
  it('both play complete games without a single strike', async () => {
    const starter = await up(startStarter, { platformPublicKey: platformPublic });
    const heuristic = await up(startHeuristic, { platformPublicKey: platformPublic });
    const entrants: MatchEntrant[] = [
      { botId: 'starter', botName: 'starter', source: { type: 'ws', url: starter.url } },
      { botId: 'heuristic', botName: 'heuristic', source: { type: 'ws', url: heuristic.url } },
      { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
      { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
    ];
    for (const seed of ['ex-1', 'ex-2']) {
      const result = await runMatch({ matchId: `m-${seed}`, seed, entrants, platformKey: platform });
      expect(result.match.status).toBe('completed');
      for (const s of result.seats.filter((x) => x.botId === 'starter' || x.botId === 'heuristic')) {
        expect(s.strikeLog).toEqual([]);
        expect(s.decisions).toBeGreaterThan(5);
        expect(s.latenciesMs.length).toBe(s.decisions);
      }
    }
  });

  it('the heuristic bot beats the built-in random bot most of the time', async () => {
    const heuristic = await up(startHeuristic);
    const entrants: MatchEntrant[] = [
      { botId: 'heuristic', botName: 'heuristic', source: { type: 'ws', url: heuristic.url } },
      { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
      { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
    ];
    let wins = 0;
    const games = 6;
    for (let i = 0; i < games; i++) {
      const r = await runMatch({ matchId: `m-h${i}`, seed: `strength/${i}`, entrants, platformKey: platform });
      const seat = r.seats.find((s) => s.botId === 'heuristic')!.seat;
      if (r.outcome?.placements[seat] === 1) wins++;
    }
    expect(wins).toBeGreaterThanOrEqual(5);
  });
});

describe('the README commands', () => {
  for (const example of ['starter-bot', 'heuristic-bot']) {
    it(`node --import tsx examples/${example}/bot.ts starts a bot that answers /ping`, async () => {
      const { spawn } = await import('node:child_process');
      const { resolve } = await import('node:path');
      const root = resolve(__dirname, '../..');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', `examples/${example}/bot.ts`, '--port', '0', '--quiet'],
        { cwd: root },
      );
      try {
        const url = await new Promise<string>((ok, fail) => {
          let err = '';
          child.stderr.on('data', (d) => {
            err += d;
            const m = /listening on (http:\/\/\S+)/.exec(err);
            if (m) ok(m[1]);
          });
          child.on('exit', (code) => fail(new Error(`bot exited with ${code}: ${err}`)));
        });
        expect(await (await fetch(`${url}/ping`)).text()).toBe('pong');
      } finally {
        const exited = new Promise((r) => child.on('exit', r));
        child.kill('SIGINT');
        await exited;
      }
    });
  }
});
