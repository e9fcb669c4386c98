// The live hub serializes an event only once somebody needs it: a match
// nobody watches costs no JSON at all (most of 200 matches have no viewer),
// and the first viewer to ask for an event pays for everyone after it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBuiltinBot, gameEvents, isOver, newGame, pendingDecisions, publicView, submit } from '../../engine/index';
import type { MatchEvent } from '../../src/protocol/index';
import { LiveHub, publicMatchEvent } from '../../src/service/live/hub';
import { sseMessage } from '../../src/service/live/sse';

afterEach(() => vi.restoreAllMocks());

const header = { id: 'm-lazy', game: 'pioneers' as const, status: 'running' as const, players: [0, 1, 2, 3].map((seat) => ({ seat, botId: `b${seat}`, botName: `b${seat}`, placement: null, ratingDelta: null })), startedAt: 't' };

/** A whole game of built-in bots, published round by round; returns every replay event. */
function playInto(publish: (events: MatchEvent[], view: () => ReturnType<typeof publicView>) => void): MatchEvent[] {
  const g = newGame('hub-lazy', 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `hub-lazy/${s}`));
  const all: MatchEvent[] = [];
  const flush = () => {
    const fresh = gameEvents(g).slice(all.length).map((e, i) => ({ seq: all.length + i, at: 't', ...e })) as MatchEvent[];
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
    const sent = chunks.filter((c) => c.includes('event: event\n'));
    expect(sent).toEqual(all.slice(10).map((ev) => sseMessage('event', publicMatchEvent(ev), ev.seq)));
    expect(chunks.at(-1)).toMatch(/^event: view\n/);

    // A second viewer from the same point: the events are already text; only its view is new.
    stringify.mockClear();
    ch.subscribe({ send: () => {}, close: () => {} }, 9);
    expect(stringify.mock.calls.length).toBe(1);
  });
});
