// The live hub serializes an event only once somebody needs it: a match
// nobody watches costs no JSON at all (most of 200 matches have no viewer),
// and the first viewer to ask for an event pays for everyone after it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBuiltinBot,
  gameEvents,
  isOver,
  newGame,
  pendingDecisions,
  publicView,
  submit,
} from '../../../engine/index';
import type { MatchEvent } from '../../../src/protocol/index';
import { LiveHub, publicMatchEvent } from '../../../src/service/live/hub';
import { sseMessage } from '../../../src/service/live/sse';

afterEach(() => vi.restoreAllMocks());

const header = {
  id: 'm-lazy',
  game: 'pioneers' as const,
  status: 'running' as const,
  players: [0, 1, 2, 3].map((seat) => ({
    seat,
    botId: `b${seat}`,
    botName: `b${seat}`,
    placement: null,
    ratingDelta: null,
  })),
  startedAt: 't',
};

/** A whole game of built-in bots, published round by round; returns every replay event. */
function playInto(publish: (events: MatchEvent[], view: () => ReturnType<typeof publicView>) => void): MatchEvent[] {
  const g = newGame('hub-lazy', 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `hub-lazy/${s}`));
  const all: MatchEvent[] = [];
  const flush = () => {
    const fresh = gameEvents(g)
      .slice(all.length)
      .map((e, i) => ({ seq: all.length + i, at: 't', ...e })) as MatchEvent[];
    all.push(...fresh);
    publish(fresh, () => publicView(g));
  };
  flush();
  while (!isOver(g)) {
    for (const p of pendingDecisions(g)) submit(g, p.seat, bots[p.seat].decide(g, p.seat));
    flush();
  }
  return all;
}

describe('live hub: serialization on demand', () => {
  it('publishing a whole match nobody watches serializes nothing; a viewer resuming later gets every missed event once', () => {
    const ch = new LiveHub().open(header);
    const stringify = vi.spyOn(JSON, 'stringify');
    const all = playInto((events, view) => ch.publish(events, view));
    expect(stringify).not.toHaveBeenCalled();

    const chunks: string[] = [];
    ch.subscribe({ send: (c) => void chunks.push(c), close: () => {} }, 9);
    expect(stringify.mock.calls.length).toBe(all.length - 10 + 1); // each missed event once, and the view
    // One chunk: every missed event in order, then the current view.
    expect(chunks).toHaveLength(1);
    const expected = all
      .slice(10)
      .map((ev) => sseMessage('event', publicMatchEvent(ev), ev.seq))
      .join('');
    expect(chunks[0].startsWith(expected)).toBe(true);
    expect(chunks[0].slice(expected.length)).toMatch(/^event: view\ndata: \{"seq":\d+,"view":\{.*\}\}\n\n$/);

    // A second viewer from the same point: the events are already text; only its view is new.
    stringify.mockClear();
    ch.subscribe({ send: () => {}, close: () => {} }, 9);
    expect(stringify.mock.calls.length).toBe(1);
  });

  it('a watched round reaches each viewer as one write: its events, then the view', () => {
    const ch = new LiveHub().open(header);
    const writes: string[][] = [[], []];
    for (const w of writes) ch.subscribe({ send: (c) => void w.push(c), close: () => {} }, null);
    let rounds = 0;
    const all = playInto((events, view) => {
      ch.publish(events, view);
      if (events.length) rounds++;
    });
    for (const w of writes) {
      expect(w).toHaveLength(1 + rounds); // the snapshot, then one per round
      const text = w.slice(1).join('');
      expect(text.match(/^event: event$/gm)).toHaveLength(all.length);
      expect(text.match(/^event: view$/gm)).toHaveLength(rounds);
      for (const chunk of w.slice(1)) expect(chunk).toMatch(/event: view\ndata: [^\n]+\n\n$/);
    }
    expect(writes[0]).toEqual(writes[1]);
  });
});
