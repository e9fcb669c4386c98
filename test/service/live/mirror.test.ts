// A mirror of a match played in another process: fed the public events the
// player wrote, it serves snapshots and resumes like the player's own channel,
// and a Last-Event-ID a little ahead of it (the player's viewers see an event
// before the database has it) waits for the events in between instead of
// starting over with a snapshot.
import { describe, expect, it } from 'vitest';
import { publicView } from '../../../engine/index';
import type { PublicMatchEvent } from '../../../src/protocol/index';
import { LiveHub, publicMatchEvent, type LiveChannel } from '../../../src/service/live/hub';
import { MIRROR_AHEAD_EVENTS, MirrorChannel } from '../../../src/service/live/mirror';
import { rounds, testViewer } from '../../support/live-game';

const header = { id: 'm-mirror', game: 'pioneers' as const, status: 'running' as const, players: [], startedAt: 't' };
const final = { status: 'completed' as const, players: [], endedAt: 't2' };

/**
 * The same game into the player's channel and, as the tables carry them (JSON text), into a mirror; `each` after every
 * round.
 */
function both(seed: string, each: (mirror: MirrorChannel, player: LiveChannel) => void = () => {}) {
  const player = new LiveHub().open(header);
  const mirror = new MirrorChannel(header);
  for (const { events, game } of rounds(seed)) {
    player.publish(events, () => publicView(game));
    const pub: PublicMatchEvent[] = JSON.parse(JSON.stringify(events.map(publicMatchEvent)));
    mirror.add(pub, JSON.parse(JSON.stringify(publicView(game))));
    each(mirror, player);
  }
  return { player, mirror };
}

describe('mirror channel', () => {
  it('a viewer of the mirror gets what a viewer of the player gets: the same snapshot, events, views and end', () => {
    const a = testViewer();
    const b = testViewer();
    const { player, mirror } = both('mirror-1', (m, p) => {
      if (p.lastSeq > 60 && a.chunks.length === 0) {
        p.subscribe(a, null);
        m.subscribe(b, null);
      }
    });
    player.end(final);
    mirror.end(final);
    expect(a.messages()[0].event).toBe('snapshot');
    expect(b.chunks.join('')).toBe(a.chunks.join(''));
    expect(b.messages().at(-1)!.event).toBe('end');
    expect(b.closed).toBe(true);
  });

  it('a Last-Event-ID ahead of the mirror waits for the events in between: no snapshot, no gap, no repeat', () => {
    const v = testViewer();
    let ahead = -1;
    const { mirror } = both('mirror-2', (m) => {
      if (ahead === -1 && m.lastSeq > 100) {
        ahead = m.lastSeq + 7;
        m.subscribe(v, ahead);
        expect(v.chunks).toEqual([]);
        expect(m.viewerCount).toBe(1);
      }
    });
    mirror.end(final);
    const msgs = v.messages();
    expect(msgs[0].event).toBe('event');
    expect(v.eventIds()).toEqual(Array.from({ length: mirror.lastSeq - ahead }, (_, i) => ahead + 1 + i));
    expect(msgs.at(-1)!.event).toBe('end');
  });

  it('an id far past the mirror is no id of this match: a snapshot, as from the player', () => {
    const { mirror } = both('mirror-3');
    const v = testViewer();
    mirror.subscribe(v, mirror.lastSeq + MIRROR_AHEAD_EVENTS + 1);
    expect(v.messages()[0].event).toBe('snapshot');
  });

  it('a viewer still waiting when the match ends gets the end and is closed; one that leaves is forgotten', () => {
    const { mirror } = both('mirror-4');
    const waiting = testViewer();
    const leaving = testViewer();
    mirror.subscribe(waiting, mirror.lastSeq + 5);
    const off = mirror.subscribe(leaving, mirror.lastSeq + 5);
    off();
    expect(mirror.viewerCount).toBe(1);
    expect(mirror.idleSince).toBeNull();
    mirror.end(final);
    expect(waiting.messages().map((m) => m.event)).toEqual(['end']);
    expect(waiting.closed).toBe(true);
    expect(leaving.chunks).toEqual([]);
  });
});
