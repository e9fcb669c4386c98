import { afterEach, describe, expect, it } from 'vitest';
import { generateKeyPair, publicKeyRaw } from '../../src/keys/index';
import { checkBot, formatReport, type ConformanceReport } from '../../src/probe/conformance';
import { startBot as startStarter } from '../../examples/starter-bot/bot';
import { startScriptedBot, answer, type Script } from './scripted-bot';
import { answer as testAnswer, startTestBot } from '../support/test-bot';

const { privateKey, publicKey } = generateKeyPair();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function scripted(script: Script) {
  const bot = await startScriptedBot(script);
  closers.push(bot.close);
  return bot.url;
}

const byName = (r: ConformanceReport, name: string) => r.checks.find((c) => c.name === name)!;

describe('arena bot check', () => {
  it('passes the starter bot, and sees that it verifies handshakes when given the key', async () => {
    const bot = await startStarter({
      port: 0,
      platformPublicKey: Buffer.from(publicKeyRaw(privateKey)).toString('base64'),
    });
    closers.push(bot.close);
    const r = await checkBot(bot.url, { platformKey: privateKey });
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual([
      'ping',
      'upgrade',
      'handshake',
      'audience',
      'replay',
      'decision: setup',
      'decision: turn',
      'decision: discard',
      'decision: bandit',
      'decision: trade',
    ]);
    expect(r.checks.every((c) => c.status === 'pass')).toBe(true);
    expect(byName(r, 'audience').detail).toMatch(/another bot/);
    expect(byName(r, 'replay').detail).toMatch(/x-svc-nonce/);
    expect(formatReport(r)).toMatch(/^✓ ping/);
    const text = formatReport(r);
    expect(text).toContain(
      `PASS: ${bot.url} answered ping, accepted a signed upgrade and gave a legal answer in time to one setup, turn, discard, bandit, trade decision.`,
    );
    // One position per kind is not a whole game: it says so and names the next step, never "ready".
    expect(text).not.toMatch(/ready for the arena/);
    expect(text).toContain(`arena play ${bot.url} builtin:greedy builtin:random --verbose`);
  });

  it("tells a bot that checks only the spec's signature that a handshake for another bot, or a replay, gets in", async () => {
    const bot = await startTestBot({ behaviour: (ctx) => testAnswer(ctx, null), verifyKey: publicKey });
    closers.push(bot.close);
    const r = await checkBot(bot.url, { platformKey: privateKey, deadlineMs: 200 });
    expect(byName(r, 'handshake').status).toBe('pass');
    expect(byName(r, 'audience')).toMatchObject({
      status: 'info',
      detail: expect.stringMatching(/x-svc-audience.*Checking the handshake/),
    });
    expect(byName(r, 'replay')).toMatchObject({ status: 'info', detail: expect.stringMatching(/x-svc-nonce/) });
  });

  it('says a 401 on the signed upgrade may be a public URL that is not the one checked', async () => {
    const bot = await startStarter({
      port: 0,
      platformPublicKey: Buffer.from(publicKeyRaw(privateKey)).toString('base64'),
      publicUrl: 'wss://bot.example.org/',
    });
    closers.push(bot.close);
    const r = await checkBot(bot.url, { platformKey: privateKey });
    expect(byName(r, 'upgrade')).toMatchObject({ status: 'fail', detail: expect.stringMatching(/401.*--public-url/) });
  });

  it("fails a bot that plays illegal moves, naming the move and the engine's reason", async () => {
    const url = await scripted((req) => {
      const v = req.view;
      switch (req.kind) {
        case 'setup':
          return answer(req, { settlement: v.towns[0].vertex, road: 0 }); // occupied vertex
        case 'turn':
          return answer(req, { type: 'build_city', vertex: 53 }); // not our settlement
        case 'discard':
          return answer(req, { cards: {} }); // wrong count
        case 'bandit':
          return answer(req, { hex: v.board.bandit }); // must move
        default:
          return answer(req, { accept: false });
      }
    });
    const r = await checkBot(url, { platformKey: privateKey });
    expect(r.ok).toBe(false);
    for (const kind of ['setup', 'turn', 'discard', 'bandit']) {
      const c = byName(r, `decision: ${kind}`);
      expect(c.status).toBe('fail');
      expect(c.detail).toMatch(/^illegal/);
      expect(c.detail).toContain('(illegal strike)');
    }
    expect(byName(r, 'decision: trade').status).toBe('pass');
    expect(byName(r, 'handshake').status).toBe('info'); // accepts forged handshakes: optional, not a failure
    // --print-platform-key is an option of `arena play`, not of `bot check`: the hint names the whole command.
    expect(byName(r, 'handshake').detail).toContain('`arena play --print-platform-key`');
    expect(formatReport(r)).toContain('FAIL: 4 checks failed');
  });

  it('names each protocol fault: garbage, wrong id, wrong shape, oversize, late', async () => {
    const url = await scripted((req) => {
      switch (req.kind) {
        case 'setup':
          return { text: 'not json at all' };
        case 'turn':
          return { text: JSON.stringify({ id: req.id + 7, action: { type: 'end_turn' } }) };
        case 'discard':
          return answer(req, { cards: { gold: 2 } });
        case 'bandit':
          return { text: JSON.stringify({ id: req.id, action: { hex: 1 }, pad: 'x'.repeat(70_000) }) };
        default:
          return { ...answer(req, { accept: false }), delayMs: 400 };
      }
    });
    const r = await checkBot(url, { platformKey: privateKey, deadlineMs: 150 });
    expect(byName(r, 'decision: setup').detail).toMatch(/not JSON.*\(malformed strike\)/);
    expect(byName(r, 'decision: turn').detail).toMatch(
      /unknown decision id \d+ \(expected \d+\).*\(malformed strike\)/,
    );
    // A well-formed frame whose action has the wrong shape: the engine refuses it, an illegal strike as in a match.
    expect(byName(r, 'decision: discard').detail).toMatch(
      /^illegal discard action .*bad_shape: .*gold.*\(illegal strike\)/,
    );
    expect(byName(r, 'decision: bandit').detail).toMatch(/over the 65536-byte limit \(oversize strike\)/);
    expect(byName(r, 'decision: trade').detail).toMatch(/deadline|late/);
    expect(r.checks.filter((c) => c.name.startsWith('decision')).every((c) => c.status === 'fail')).toBe(true);
  });

  it('classifies as a match does: binary frames malformed, extra fields stripped, null and wrong shapes illegal', async () => {
    const url = await scripted((req) => {
      switch (req.kind) {
        case 'setup':
          return { ...answer(req, { settlement: 0, road: 0 }), binary: true }; // readable JSON, but binary
        case 'turn':
          return answer(req, { type: 'end_turn', debug: { eval: 0.3 } }); // extra field: stripped, legal
        case 'discard':
          return answer(req, { cards: { brick: 1 }, note: 'x' }); // shape ok (extra stripped), wrong count
        case 'bandit':
          return answer(req, { hex: (req.view.board.bandit + 1) % 19, victim: null }); // null is not "absent"
        default:
          return answer(req, { accept: false, talk: 'no thanks', why: 'debug' });
      }
    });
    const r = await checkBot(url, { platformKey: privateKey });
    expect(byName(r, 'decision: setup')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/binary frame.*\(malformed strike\)/),
    });
    expect(byName(r, 'decision: turn').status).toBe('pass');
    expect(byName(r, 'decision: discard')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/wrong_discard_count.*\(illegal strike\)/),
    });
    expect(byName(r, 'decision: bandit')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/bad_shape: .*victim.*\(illegal strike\)/),
    });
    expect(byName(r, 'decision: trade').status).toBe('pass');
  });

  it('fails fast with a clear message when nothing listens', async () => {
    const url = await scripted(() => null);
    await closers.pop()!();
    const r = await checkBot(url, { platformKey: privateKey });
    expect(r.ok).toBe(false);
    expect(byName(r, 'ping').detail).toContain('connection refused');
    expect(byName(r, 'upgrade').status).toBe('fail');
    expect(r.checks.some((c) => c.name.startsWith('decision'))).toBe(false);
  });
});
