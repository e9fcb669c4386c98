// Frames rebuilt from seed + replay: what the panels and board read.
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runMatch } from '../../src/runner/index';
import { describeEvent } from '../../src/tui/render/events';
import { lineText } from '../../src/tui/render/style';
import { RESOURCE_ORDER } from '../../src/tui/render/palette';
import { buildTimeline, firstEventOfTurn, type Frame } from '../../src/tui/timeline';
import { FIXTURE_4P, FIXTURE_TALK, fixtureTimeline, readFixture } from './helpers';

describe('buildTimeline', () => {
  const t = fixtureTimeline(FIXTURE_4P);
  const record = readFixture(FIXTURE_4P);

  it('has one frame per replay event and names seats from the record', () => {
    expect(t.frames).toHaveLength(record.replay.length);
    expect(t.names).toEqual(
      record.players
        .slice()
        .sort((a, b) => a.seat - b.seat)
        .map((p) => p.botName),
    );
  });

  it('starts empty and ends with the recorded true VP and placements', () => {
    const first = t.frames[0];
    expect(first.towns).toHaveLength(0);
    expect(first.roads).toHaveLength(0);
    const last = t.frames[t.frames.length - 1];
    expect(last.phase).toBe('over');
    expect(last.seats.map((s) => s.trueVp)).toEqual(record.vp);
    expect(t.outcome?.placements).toEqual(
      record.players
        .slice()
        .sort((a, b) => a.seat - b.seat)
        .map((p) => p.placement),
    );
  });

  it('shows each build from the event that reports it on, and not before', () => {
    const builds = record.replay
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => e.kind === 'build' && (e.data as { what: string }).what !== 'road');
    expect(builds.length).toBeGreaterThan(8);
    for (const { e, i } of builds) {
      const { what, at } = e.data as { what: string; at: number };
      const city = what === 'city';
      expect(t.frames[i].towns.some((x) => x.vertex === at && x.seat === e.seat && x.city === city)).toBe(true);
      expect(t.frames[i - 1].towns.some((x) => x.vertex === at && x.city === city)).toBe(false);
    }
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

/** Hands per seat as plain counts of the five resources. */
function hands(f: Frame): number[][] {
  return f.seats.map((s) => RESOURCE_ORDER.map((r) => s.hand[r] ?? 0));
}
function plus(h: number[][], per: Array<Partial<Record<string, number>>>, sign = 1): number[][] {
  return h.map((row, s) => row.map((n, k) => n + sign * (per[s]?.[RESOURCE_ORDER[k]] ?? 0)));
}

// The state shown at event N is the state after events 1..N, no more: one
// answer can produce several events (an end of turn, then the next roll),
// and each of them gets the state it leaves behind.
describe('each frame is the state after its own event', () => {
  for (const [name, path] of [
    ['4 seats', FIXTURE_4P],
    ['3 seats with talk and strikes', FIXTURE_TALK],
  ] as const) {
    const t = fixtureTimeline(path);
    const ev = t.events;

    it(`${name}: an end of turn leaves seat, dice and hands as they were; the roll after it changes them`, () => {
      let checked = 0;
      for (let i = 1; i + 1 < ev.length; i++) {
        const e = ev[i];
        if (
          e.kind !== 'action' ||
          (e.data as { action: { type?: string } }).action.type !== 'end_turn' ||
          ev[i + 1].kind !== 'roll'
        )
          continue;
        const before = t.frames[i - 1],
          at = t.frames[i],
          next = t.frames[i + 1];
        expect(at.current, `event ${i + 1}`).toBe(e.seat);
        expect(at.dice).toEqual(before.dice);
        expect(hands(at)).toEqual(hands(before));
        expect(at.turn).toBe(before.turn);
        const roll = ev[i + 1].data as { dice: number[]; produced: Array<Partial<Record<string, number>>> };
        expect(next.current).toBe(ev[i + 1].seat);
        expect(next.dice).toEqual(roll.dice);
        expect(hands(next)).toEqual(plus(hands(at), roll.produced));
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    });

    it(`${name}: every roll, payout and discard moves the hands by exactly its own cards`, () => {
      let checked = 0;
      for (let i = 1; i < ev.length; i++) {
        const e = ev[i];
        const prev = hands(t.frames[i - 1]);
        const d = e.data as Record<string, unknown>;
        if (e.kind === 'roll') expect(hands(t.frames[i]), `event ${i + 1}`).toEqual(plus(prev, d.produced as []));
        else if (e.kind === 'payout' || e.kind === 'discard') {
          const per: Array<Partial<Record<string, number>>> = [];
          per[e.seat!] = (e.kind === 'payout' ? d.gained : d.cards) as Partial<Record<string, number>>;
          expect(hands(t.frames[i]), `event ${i + 1}`).toEqual(plus(prev, per, e.kind === 'payout' ? 1 : -1));
        } else continue;
        checked++;
      }
      expect(checked).toBeGreaterThan(20);
    });

    it(`${name}: the header's turn and seat follow the log: a roll starts each turn`, () => {
      for (let i = 1; i < ev.length; i++) {
        if (t.frames[i].phase !== 'main' || t.frames[i - 1].phase !== 'main') continue;
        if (ev[i].kind === 'roll') expect(t.frames[i].turn, `event ${i + 1}`).toBe(t.frames[i - 1].turn + 1);
        else expect(t.frames[i].turn, `event ${i + 1}`).toBe(t.frames[i - 1].turn);
      }
    });
  }
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
      matchId: 'm-aborted',
      seed: 'tui-aborted-1',
      platformKey: generateKeyPairSync('ed25519').privateKey,
      entrants: ['a', 'b', 'c'].map((n) => ({
        botId: n,
        botName: n,
        source: { type: 'builtin' as const, bot: 'random' as const },
      })),
      signal: stop.signal,
      onEvent: (e) => {
        if (e.seq === 300) stop.abort();
      },
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
