// Records for store tests: matches shaped like the scheduler's, ratings, and a
// wait for the wall clock to move (so "keeps the first time" can fail).
import { randomBytes } from 'node:crypto';
import type { MatchEvent } from '../../../src/protocol/index';
import type { RatingRecord, StoredMatch } from '../../../src/service/store/types';

export function matchId(): string {
  return `m_${randomBytes(9).toString('base64url')}`;
}

export function runningMatch(botIds: string[], id = matchId()): StoredMatch {
  return {
    id,
    game: 'pioneers',
    status: 'running',
    players: botIds.map((botId, seat) => ({
      seat,
      botId,
      botName: `bot ${botId}`,
      placement: null,
      ratingDelta: null,
    })),
    startedAt: new Date().toISOString(),
    endedAt: null,
    seed: randomBytes(16).toString('hex'),
    replay: [],
    rulesVersion: 'test-1',
    seatCount: botIds.length,
    vp: null,
  };
}

function replayOf(n: number): MatchEvent[] {
  // Events must match MatchEventSchema (protocol events.ts): talk is the simplest kind.
  return Array.from({ length: n }, (_, seq) => ({
    seq,
    at: new Date().toISOString(),
    kind: 'talk' as const,
    seat: seq % 3,
    data: { message: `event ${seq}` },
  }));
}

export function completed(m: StoredMatch, events = 20): StoredMatch {
  const n = m.players.length;
  return {
    ...m,
    status: 'completed',
    endedAt: new Date().toISOString(),
    players: m.players.map((p, i) => ({
      ...p,
      placement: i + 1,
      ratingDelta: Number(((n - i) * 0.7 - 1.2).toFixed(1)),
    })),
    replay: replayOf(events),
    vp: m.players.map((_, i) => Math.max(0, 10 - 2 * i)),
  };
}

export function aborted(m: StoredMatch): StoredMatch {
  return { ...m, status: 'aborted', endedAt: new Date().toISOString(), replay: replayOf(3) };
}

export function ratingsFor(m: StoredMatch, gamesPlayed = 1): RatingRecord[] {
  return m.players.map((p, i) => ({
    botId: p.botId,
    game: 'pioneers',
    mu: 25 + 2 - i,
    sigma: 8 - gamesPlayed * 0.1,
    gamesPlayed,
  }));
}

/** Resolves once the clock shows a later ISO time than `iso` (no fixed sleep). */
export async function clockPasses(iso: string): Promise<void> {
  while (new Date().toISOString() <= iso) await new Promise((r) => setImmediate(r));
}
