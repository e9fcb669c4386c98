// The live hub as viewers use it: a snapshot first, then each public event
// once; a reconnect with Last-Event-ID resumes without gaps or repeats; many
// viewers cost one serialization per event.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBuiltinBot,
  gameEvents,
  isOver,
  newGame,
  pendingDecisions,
  publicView,
  submit,
  type Game,
} from '../../../engine/index';
import type { MatchEvent } from '../../../src/protocol/index';
import { LiveHub, type LiveViewer } from '../../../src/service/live/hub';

interface Msg {
  id?: number;
  event: string;
  data: any;
}

function parse(chunks: string[]): Msg[] {
  return chunks
    .join('')
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const msg: Msg = { event: '', data: null };
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

function viewer(): LiveViewer & { chunks: string[]; closed: boolean } {
  const v = {
    chunks: [] as string[],
    closed: false,
    send: (c: string) => void v.chunks.push(c),
    close: () => void (v.closed = true),
  };
  return v;
}

/** Plays a seeded game with built-in bots, publishing after every decision round. */
function play(seed: string, onRound: (events: MatchEvent[], g: Game) => void, maxRounds = Infinity): Game {
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
    onRound(events, g);
  };
  flush();
  for (let round = 0; !isOver(g) && round < maxRounds; round++) {
    for (const p of pendingDecisions(g)) submit(g, p.seat, bots[p.seat].decide(g, p.seat));
    flush();
  }
  return g;
}

const header = { id: 'm-1', game: 'pioneers' as const, status: 'running' as const, players: [], startedAt: 't' };

afterEach(() => vi.restoreAllMocks());

describe('live hub', () => {
  it('a viewer gets a snapshot, then every later event exactly once, then end', () => {
    const hub = new LiveHub();
    const ch = hub.open(header);
    const v = viewer();
    let joinedAt = -1;
    const g = play('live-1', (events, game) => {
      ch.publish(events, () => publicView(game));
      if (joinedAt === -1 && ch.lastSeq > 40) {
        joinedAt = ch.lastSeq;
        ch.subscribe(v, null);
      }
    });
    hub.close('m-1', { status: 'completed', players: [], endedAt: 't' });
    const msgs = parse(v.chunks);
    expect(msgs[0].event).toBe('snapshot');
    expect(msgs[0].data.seq).toBe(joinedAt);
    expect(msgs[0].data.recent.length).toBeGreaterThan(0);
    const ids = msgs.filter((m) => m.event === 'event').map((m) => m.id);
    expect(ids).toEqual(Array.from({ length: gameEvents(g).length - joinedAt - 1 }, (_, i) => joinedAt + 1 + i));
    expect(msgs.at(-1)!.event).toBe('end');
    expect(v.closed).toBe(true);
    // The last view a viewer saw is the public view of the final position.
    expect(msgs.filter((m) => m.event === 'view').at(-1)!.data.view).toEqual(JSON.parse(JSON.stringify(publicView(g))));
  });

  it('a reconnect with Last-Event-ID gets exactly the missed events, no gaps, no repeats', () => {
    const ch = new LiveHub().open(header);
    const first = viewer();
    let unsubscribe: (() => void) | null = null;
    let lastSeen = -1;
    const second = viewer();
    play(
      'live-2',
      (events, game) => {
        ch.publish(events, () => publicView(game));
        if (!unsubscribe && ch.lastSeq > 10 && lastSeen === -1) unsubscribe = ch.subscribe(first, null);
        else if (unsubscribe && ch.lastSeq > 200 && lastSeen === -1) {
          unsubscribe();
          lastSeen = Math.max(
            ...parse(first.chunks)
              .filter((m) => m.id !== undefined)
              .map((m) => m.id!),
          );
        } else if (lastSeen !== -1 && ch.lastSeq > 400 && second.chunks.length === 0) {
          ch.subscribe(second, lastSeen);
        }
      },
      2000,
    );
    const before = parse(first.chunks)
      .filter((m) => m.event === 'event')
      .map((m) => m.id!);
    const after = parse(second.chunks)
      .filter((m) => m.event === 'event')
      .map((m) => m.id!);
    const all = [...before, ...after];
    expect(all.length).toBeGreaterThan(300);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => before[0] + i));
    expect(parse(second.chunks)[0].event).toBe('event'); // no snapshot on a resume
  });

  it('hides private facts: a drawn card never reaches a viewer', () => {
    const ch = new LiveHub().open(header);
    const v = viewer();
    ch.subscribe(v, null);
    play('live-3', (events, game) => ch.publish(events, () => publicView(game)));
    for (const m of parse(v.chunks).filter((x) => x.event === 'event')) {
      if (m.data.kind === 'dev' && m.data.data.action === 'buy') expect(m.data.data).not.toHaveProperty('card');
      if (m.data.kind === 'bandit') expect(m.data.data).not.toHaveProperty('stole');
    }
  });

  it('costs one serialization per event however many watch', () => {
    const count = (viewers: number) => {
      const ch = new LiveHub().open(header);
      for (let i = 0; i < viewers; i++) ch.subscribe(viewer(), null);
      const spy = vi.spyOn(JSON, 'stringify');
      play('live-4', (events, game) => ch.publish(events, () => publicView(game)), 300);
      const n = spy.mock.calls.length;
      spy.mockRestore();
      return n;
    };
    expect(count(50)).toBe(count(1));
  });
});
