// A seeded game of built-in random bots, published round by round as the
// runner publishes to a live channel (the events of each decision round, then
// the public view after them), and the SSE text a viewer receives, parsed:
// for the live hub's tests and benchmark, without sockets.
import { createBuiltinBot, gameEvents, isOver, newGame, pendingDecisions, submit, type Game } from '../../engine/index';
import type { MatchEvent } from '../../src/protocol/index';
import type { LiveViewer } from '../../src/service/live/hub';

export interface SseMsg {
  id?: number;
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

export function parseSse(chunks: string[]): SseMsg[] {
  return chunks
    .join('')
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const msg: SseMsg = { event: '', data: null };
      for (const line of block.split('\n')) {
        const [k, ...rest] = line.split(': ');
        const v = rest.join(': ');
        if (k === 'id') msg.id = Number(v);
        if (k === 'event') msg.event = v;
        if (k === 'data') msg.data = JSON.parse(v);
      }
      return msg;
    });
}

export type TestViewer = LiveViewer & { chunks: string[]; closed: boolean; messages(): SseMsg[]; eventIds(): number[] };

export function testViewer(): TestViewer {
  const v: TestViewer = {
    chunks: [],
    closed: false,
    send: (c: string) => void v.chunks.push(c),
    close: () => void (v.closed = true),
    messages: () => parseSse(v.chunks),
    eventIds: () =>
      parseSse(v.chunks)
        .filter((m) => m.event === 'event')
        .map((m) => m.id!),
  };
  return v;
}

/** The game's decision rounds: each round's new events (as the replay has them) and the game after it. */
export function* rounds(seed: string, maxRounds = Infinity): Generator<{ events: MatchEvent[]; game: Game }> {
  const g = newGame(seed, 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `${seed}/${s}`));
  let sent = 0;
  const flush = () => {
    const all = gameEvents(g);
    const events = all.slice(sent).map((e, i) => ({
      seq: sent + i,
      at: 't',
      kind: e.kind,
      ...(e.seat === undefined ? {} : { seat: e.seat }),
      ...(e.data === undefined ? {} : { data: e.data }),
    })) as MatchEvent[];
    sent = all.length;
    return { events, game: g };
  };
  yield flush();
  for (let round = 0; !isOver(g) && round < maxRounds; round++) {
    for (const p of pendingDecisions(g)) submit(g, p.seat, bots[p.seat].decide(g, p.seat));
    yield flush();
  }
}
