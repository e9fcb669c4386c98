import { render } from 'ink-testing-library';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair } from '../../src/keys/index';
import { runMatch } from '../../src/runner/index';
import { MatchRecordSchema } from '../../src/protocol/index';
import { ReplayApp } from '../../src/tui/app';
import { initialState, reduceInput, strikeIndexes } from '../../src/tui/controls';
import { composeScreen, footerLine, helpOverlay } from '../../src/tui/render/screen';
import { buildTimeline, type Timeline } from '../../src/tui/timeline';
import { illegalBot, lateBot } from '../support/policies';
import { startTestBot } from '../support/test-bot';
import { FIXTURE_4P, fixtureTimeline } from '../tui/helpers';

const text = (line: { text: string }[]) => line.map((s) => s.text).join('');
let t: Timeline;

beforeAll(async () => {
  // An illegal answer on its first decision, a late one on its second: two strikes of different reasons.
  const illegal = illegalBot(1);
  const late = lateBot(400, 2);
  const bot = await startTestBot({ behaviour: (ctx) => (ctx.index === 0 ? illegal(ctx) : late(ctx)) });
  try {
    const result = await runMatch({
      matchId: 'm-strikes',
      seed: 'viewer-strikes',
      deadlineMs: 150,
      platformKey: generateKeyPair().privateKey,
      entrants: [
        { botId: 'bad', botName: 'bad', source: { type: 'ws', url: bot.url } },
        { botId: 'r1', botName: 'r1', source: { type: 'builtin', bot: 'random' } },
        { botId: 'r2', botName: 'r2', source: { type: 'builtin', bot: 'random' } },
      ],
    });
    // Through the record schema, as `arena replay` reads a file.
    t = buildTimeline(MatchRecordSchema.parse(JSON.parse(JSON.stringify(result.match))));
  } finally {
    await bot.close();
  }
});

describe('n / N in the replay viewer', () => {
  it('n jumps to each strike in turn, the event line giving its reason and code; N goes back', () => {
    const strikes = strikeIndexes(t);
    expect(strikes).toHaveLength(2);
    let s = reduceInput(t, initialState(0), 'n', {});
    expect(s.index).toBe(strikes[0]);
    expect(s.note).toBe('strike 1 of 2 in this match (n: next, N: previous)');
    const screen = composeScreen(t, s.index, { width: 200, height: 40 }).map(text);
    expect(screen[1]).toMatch(/^▶ seat \d \(bad\) strike 1: illegal on a [a-z]+ decision \([a-z_]+: .+\)$/);

    s = reduceInput(t, s, 'n', {});
    expect(s.index).toBe(strikes[1]);
    expect(s.note).toBe('strike 2 of 2 in this match (n: next, N: previous)');
    // A late strike has no code: the reason says it all (connection details stay out of replays).
    expect(text(composeScreen(t, s.index, { width: 120, height: 40 })[1])).toMatch(
      /^▶ seat \d \(bad\) strike 2: late on a [a-z]+ decision$/,
    );

    const past = reduceInput(t, s, 'n', {});
    expect(past.index).toBe(strikes[1]);
    expect(past.note).toBe('no later strike (N: previous; 2 strikes in this match)');

    s = reduceInput(t, s, 'N', {});
    expect(s.index).toBe(strikes[0]);
    const before = reduceInput(t, s, 'N', {});
    expect(before.index).toBe(strikes[0]);
    expect(before.note).toMatch(/^no earlier strike/);
    // From the end, N finds the last strike; jumping pauses playback.
    const fromEnd = reduceInput(t, { ...initialState(t.events.length - 1), playing: true }, 'N', {});
    expect(fromEnd).toMatchObject({ index: strikes[1], playing: false });
  });

  it('a match without strikes says so and stays put', () => {
    const clean = fixtureTimeline(FIXTURE_4P);
    expect(strikeIndexes(clean)).toEqual([]);
    const s = reduceInput(clean, initialState(5), 'n', {});
    expect(s.index).toBe(5);
    expect(s.note).toBe('no strikes in this match');
  });

  it('the footer offers n when there are strikes and always keeps help and quit within the width; the help lists n N', () => {
    expect(text(footerLine({ strikes: false }))).not.toContain('strike');
    for (const width of [60, 80, 100]) {
      const f = text(footerLine({ strikes: true, width }));
      expect(f.length).toBeLessThanOrEqual(width);
      expect(f).toContain('n strike');
      expect(f).toContain('? help');
      expect(f).toContain('q quit');
    }
    expect(helpOverlay().map(text).join('\n')).toMatch(/n N\s+next \/ previous strike/);
  });

  it('in the Ink app, n shows the strike and its number', async () => {
    const r = render(<ReplayApp timeline={t} width={110} height={36} />);
    try {
      const wait = async (ok: (f: string) => boolean) => {
        const end = Date.now() + 20_000;
        while (!ok(r.lastFrame() ?? '')) {
          if (Date.now() > end) throw new Error(`frame never matched; last:\n${r.lastFrame()}`);
          await new Promise((res) => setTimeout(res, 5));
        }
        return r.lastFrame()!;
      };
      await wait((f) => f.includes('n strike'));
      r.stdin.write('n');
      const f = await wait((x) => x.includes('strike 1 of 2'));
      expect(f).toMatch(/strike 1: illegal on a/);
      expect(f).toContain(`event ${strikeIndexes(t)[0] + 1}/`);
    } finally {
      r.unmount();
    }
  });
});
