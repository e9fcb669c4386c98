// `arena play --time-bank`: the thinking time each bot has per match reaches
// the runner, so a stalling bot runs dry and then takes `late` strikes.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPlay, PLAY_DEFAULTS } from '../../src/arena/play-options';
import { runCli } from '../support/run-cli';
import { stallingBot } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';

const home = mkdtempSync(join(tmpdir(), 'arena-time-bank-'));
const bots: TestBot[] = [];
afterAll(async () => {
  await Promise.all(bots.map((b) => b.close()));
  rmSync(home, { recursive: true, force: true });
});

const three = ['builtin:random', 'builtin:random', 'builtin:random'];

describe('arena play --time-bank', () => {
  it('defaults to 120 s per bot per match and takes whole seconds', () => {
    expect(PLAY_DEFAULTS.timeBankSeconds).toBe(120);
    expect(planPlay({ bots: three }).timeBankMs).toBe(120_000);
    expect(planPlay({ bots: three, timeBank: '30' }).timeBankMs).toBe(30_000);
  });

  it('refuses a bank that is not 1 to 3600 whole seconds, as a usage error', async () => {
    for (const bad of ['0', '-5', '1.5', 'ten', '3601']) {
      const r = await runCli(['play', ...three, '--time-bank', bad], {
        env: { ARENA_CONFIG_DIR: join(home, 'config') },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--time-bank must be a whole number from 1 to 3600');
    }
  });

  it('a bot that stalls on every decision spends its bank, then is late until it resigns', async () => {
    const staller = await startTestBot({ behaviour: stallingBot(0.5) });
    bots.push(staller);
    const r = await runCli(
      [
        'play',
        `staller=${staller.url}`,
        'builtin:random',
        'builtin:random',
        '--games',
        '1',
        '--seed',
        'bank',
        '--deadline-ms',
        '400',
        '--time-bank',
        '1',
        '--json',
      ],
      { env: { ARENA_CONFIG_DIR: join(home, 'config') } },
    );
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      games: number;
      bots: Array<{ name: string; strikes: Record<string, number>; resigned: number }>;
    };
    expect(doc.games).toBe(1);
    const s = doc.bots.find((b) => b.name === 'staller')!;
    expect(s.strikes.late).toBe(3);
    expect(s.resigned).toBe(1);
    // Frames allow the full deadline while the bank lasts, then only what is left of it.
    const deadlines = staller.frames.map((f) => f.deadlineMs);
    expect(deadlines[0]).toBe(400);
    expect(deadlines.every((d) => d >= 1 && d <= 400)).toBe(true);
    expect(deadlines.some((d) => d < 400)).toBe(true);
  });
});
