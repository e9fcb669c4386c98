// Frames rebuilt from seed + replay: what the panels and board read.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runMatch } from '../../src/runner/index';
import { describeEvent } from '../../src/tui/render/events';
import { lineText } from '../../src/tui/render/style';
import { buildTimeline, firstEventOfTurn } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, fixtureTimeline, readFixture } from './helpers';

describe('buildTimeline', () => {
  const t = fixtureTimeline(FIXTURE_4P);
  const record = readFixture(FIXTURE_4P);

  it('has one frame per replay event and names seats from the record', () => {
    expect(t.frames).toHaveLength(record.replay.length);
    expect(t.names).toEqual(record.players.slice().sort((a, b) => a.seat - b.seat).map((p) => p.botName));
  });

  it('starts empty and ends with the recorded true VP and placements', () => {
    const first = t.frames[0];
    expect(first.towns).toHaveLength(0);
    expect(first.roads).toHaveLength(0);
    const last = t.frames[t.frames.length - 1];
    expect(last.phase).toBe('over');
    expect(last.seats.map((s) => s.trueVp)).toEqual(record.vp);
    expect(t.outcome?.placements).toEqual(record.players.slice().sort((a, b) => a.seat - b.seat).map((p) => p.placement));
  });

  it('shows each build from the event that reports it on', () => {
    const i = record.replay.findIndex((e) => e.kind === 'build' && (e.data as { what: string }).what === 'settlement');
    const at = (record.replay[i].data as { at: number }).at;
    expect(t.frames[i].towns.some((x) => x.vertex === at && x.seat === record.replay[i].seat)).toBe(true);
    expect(t.frames[i - 1].towns.some((x) => x.vertex === at)).toBe(i - 1 > 0 && t.frames[i - 1] === t.frames[i]);
  });

  it('counts turns from the rolls and finds the start of each', () => {
    expect(t.lastTurn).toBe(record.replay.filter((e) => e.kind === 'roll').length);
    const i = firstEventOfTurn(t, 10);
    expect(t.events[i].kind).toBe('roll');
    expect(t.turnOf[i]).toBe(10);
    expect(t.turnOf[i - 1]).toBe(9);
    expect(firstEventOfTurn(t, 0)).toBe(0);
  });
});

describe('strikes and resignation', () => {
  const t = fixtureTimeline(FIXTURE_TALK);
  const record = readFixture(FIXTURE_TALK);
  const chatty = record.players.find((p) => p.botName === 'chatty')!.seat;

  it('counts strikes per seat as the timeouts happen and marks the resignation', () => {
    const timeouts = record.replay.map((e, i) => ({ e, i })).filter(({ e }) => e.kind === 'timeout');
    expect(timeouts.length).toBeGreaterThan(0);
    for (const { e, i } of timeouts) {
      expect(t.frames[i].strikes[e.seat!]).toBe((e.data as { strikes: number }).strikes);
    }
    const resign = record.replay.findIndex((e) => e.kind === 'resign');
    expect(t.frames[resign].resigned[chatty]).toBe(true);
    expect(t.frames[0].resigned[chatty]).toBe(false);
    expect(t.frames[0].strikes[chatty]).toBe(0);
  });
});

describe('an aborted match (Ctrl-C or the wall clock)', () => {
  it('replays up to the abort and ends on it', async () => {
    const stop = new AbortController();
    const { match } = await runMatch({
      matchId: 'm-aborted', seed: 'tui-aborted-1', platformKey: generateKeyPairSync('ed25519').privateKey,
      entrants: ['a', 'b', 'c'].map((n) => ({ botId: n, botName: n, source: { type: 'builtin' as const, bot: 'random' as const } })),
      signal: stop.signal,
      onEvent: (e) => { if (e.seq === 300) stop.abort(); },
    });
    expect(match.status).toBe('aborted');
    const t = buildTimeline(match);
    const last = t.events.length - 1;
    expect(t.frames).toHaveLength(t.events.length);
    expect(t.outcome).toBeNull();
    expect(t.events[last].kind).toBe('end');
    expect(lineText(describeEvent(t.events[last], { names: t.names }))).toContain('aborted');
    expect(t.frames[last].towns.length).toBeGreaterThan(0);
  });
});
