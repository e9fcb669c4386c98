import { describe, expect, it } from 'vitest';
import { createBuiltinBot, gameEvents, isOver, newGame, pendingDecisions, publicEvent, submit } from '../../engine';

function playGreedyGame(seed: string) {
  const g = newGame(seed, 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('greedy', `${seed}:${s}`));
  while (!isOver(g)) {
    const seat = pendingDecisions(g)[0].seat;
    expect(submit(g, seat, bots[seat].decide(g, seat)).ok).toBe(true);
  }
  return gameEvents(g);
}

describe('publicEvent: what a live spectator may see of each event', () => {
  const events = ['pe-1', 'pe-2', 'pe-3', 'pe-4'].flatMap(playGreedyGame);
  const buys = events.filter((e) => e.kind === 'dev' && (e.data as { action: string }).action === 'buy');
  const steals = events.filter((e) => e.kind === 'bandit' && 'victim' in (e.data as object));

  it('the sample games exercise both private facts', () => {
    expect(buys.length).toBeGreaterThan(5);
    expect(steals.length).toBeGreaterThan(5);
  });

  it('hides which card a seat drew, but not that it bought one', () => {
    for (const e of buys) {
      const p = publicEvent(e);
      expect(p).toEqual({ kind: 'dev', seat: e.seat, data: { action: 'buy' } });
      expect((e.data as { card: string }).card).toBeTruthy(); // the replay itself keeps it
    }
  });

  it('hides which resource the bandit stole, but not whether a card moved', () => {
    for (const e of steals) {
      const d = e.data as { hex: number; victim: number; stole: string | null };
      expect(publicEvent(e).data).toEqual({ hex: d.hex, victim: d.victim, stoleCard: d.stole !== null });
    }
  });

  it('passes every other event through untouched', () => {
    const others = events.filter((e) => !buys.includes(e) && !steals.includes(e));
    for (const e of others) {
      // A bandit move without a victim is rebuilt from its public fields (equal, not the same object).
      if (e.kind === 'bandit') expect(publicEvent(e)).toEqual(e);
      else expect(publicEvent(e)).toBe(e);
    }
    // Dev card plays are public, so their names stay.
    expect(others.some((e) => e.kind === 'dev' && (e.data as { card: string }).card === 'knight')).toBe(true);
  });
});
