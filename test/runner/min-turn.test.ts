// arena serve --min-turn-ms: the runner paces a match for spectators. Each
// turn takes at least minTurnMs of wall time, and the wait is the arena's:
// no bot's time bank pays for it and the match's wall clock does not count it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/keys';
import { runMatch, type MatchEntrant, type MatchResult, type RunMatchOptions } from '../../src/runner';
import { wellBehaved } from '../support/policies';
import { startTestBot, type TestBot } from '../support/test-bot';

const { privateKey, publicKey } = generateKeyPair();
const MIN_TURN_MS = 25;
/** Far less than a paced match takes (about 100 turns x 25 ms), far more than the same match unpaced (tens of ms). */
const BUDGET_MS = 1200;
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ behaviour: wellBehaved(), verifyKey: publicKey });
});
afterAll(async () => {
  await bot?.close();
});

const entrants = (): MatchEntrant[] => [
  { botId: 'ws', botName: 'ws bot', source: { type: 'ws', url: bot.url } },
  { botId: 'g1', botName: 'g1', source: { type: 'builtin', bot: 'greedy' } },
  { botId: 'g2', botName: 'g2', source: { type: 'builtin', bot: 'greedy' } },
];

async function timed(extra: Partial<RunMatchOptions>): Promise<{ result: MatchResult; ms: number; rollsAt: number[] }> {
  const rollsAt: number[] = [];
  const t0 = performance.now();
  const result = await runMatch({
    matchId: 'paced-1',
    seed: 'paced-seed-1',
    entrants: entrants(),
    platformKey: privateKey,
    deadlineMs: 2000,
    onEvent: (e) => void (e.kind === 'roll' && rollsAt.push(performance.now())),
    ...extra,
  });
  return { result, ms: performance.now() - t0, rollsAt };
}

describe('runMatch with minTurnMs', () => {
  let plain: Awaited<ReturnType<typeof timed>>;
  let paced: Awaited<ReturnType<typeof timed>>;
  beforeAll(async () => {
    plain = await timed({});
    paced = await timed({ minTurnMs: MIN_TURN_MS, timeBankMs: BUDGET_MS, wallClockMs: BUDGET_MS });
  }, 60_000);

  it('completes, taking at least turns x minTurnMs', () => {
    expect(paced.result.match.status).toBe('completed');
    const turns = paced.rollsAt.length;
    expect(turns).toBeGreaterThan(10);
    expect(paced.ms).toBeGreaterThanOrEqual(turns * MIN_TURN_MS);
    // Every turn (from one roll to the next) lasted at least the minimum.
    for (let i = 1; i < turns; i++)
      expect(paced.rollsAt[i] - paced.rollsAt[i - 1]).toBeGreaterThanOrEqual(MIN_TURN_MS - 2); // less the moment each roll is handed on within its batch
  });

  it("the waits are the arena's: the bot's time bank and the match's wall clock do not pay for them", () => {
    // Both budgets are shorter than the paced match, which still completes with no strike.
    expect(paced.ms).toBeGreaterThan(2 * BUDGET_MS);
    expect(paced.result.match.status).toBe('completed');
    const ws = paced.result.seats.find((s) => s.botId === 'ws')!;
    expect(ws.strikeLog).toEqual([]);
    expect(ws.timeUsedMs).toBeLessThan(BUDGET_MS / 2);
    expect(plain.result.match.status).toBe('completed');
  });
});
