import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { newGame, publicView } from '../../engine/index';
import { gameSeed, newTournamentSeed } from '../../src/arena/seeds';

describe('tournament seeds', () => {
  it('are 128 bits from the CSPRNG: 32 hex digits, never repeating', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const s = newTournamentSeed();
      expect(s).toMatch(/^[0-9a-f]{32}$/);
      seen.add(s);
    }
    expect(seen.size).toBe(1000);
  });
});

describe('game seeds', () => {
  it('are HMAC-SHA-256(key = tournament seed, message = game number), first 128 bits in hex', () => {
    expect(gameSeed('7', 1)).toBe(createHmac('sha256', '7').update('1').digest('hex').slice(0, 32));
    expect(gameSeed('7', 12)).toMatch(/^[0-9a-f]{32}$/);
  });

  it('reproduce: the same tournament seed gives the same game seeds and boards', () => {
    expect(gameSeed('repro', 3)).toBe(gameSeed('repro', 3));
    const board = (seed: string) => JSON.stringify(publicView(newGame(seed, 4)).board);
    expect(board(gameSeed('repro', 3))).toBe(board(gameSeed('repro', 3)));
  });

  it('do not show their tournament seed or each other: no shared prefix, no counter', () => {
    const seed = newTournamentSeed();
    const games = Array.from({ length: 50 }, (_, i) => gameSeed(seed, i + 1));
    expect(new Set(games).size).toBe(50);
    for (const g of games) {
      expect(g).not.toContain(seed);
      expect(g).not.toContain('/');
    }
    // Consecutive games share no more leading hex digits than chance allows.
    const sharedPrefix = (a: string, b: string) => [...a].findIndex((c, i) => c !== b[i]);
    for (let i = 1; i < games.length; i++) expect(sharedPrefix(games[i - 1], games[i])).toBeLessThan(6);
    // A different tournament seed gives unrelated game seeds.
    expect(gameSeed(seed + 'x', 1)).not.toBe(games[0]);
  });

  it('refuses game numbers below 1', () => {
    expect(() => gameSeed('s', 0)).toThrow(RangeError);
  });
});
