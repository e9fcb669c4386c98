// The live match page's pacing (src/web/lib/paced-queue.ts): events at most
// perSecond a second, views and the end shown as soon as they are reached
// (never before the events ahead of them), `behind` counting the events
// waiting, and jump() showing them all. Fake timers: deterministic.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PacedQueue } from '../../../src/web/lib/paced-queue';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PacedQueue', () => {
  it('shows the first event at once and the rest one per interval, in order with the views between', () => {
    const shown: string[] = [];
    const behind: number[] = [];
    const q = new PacedQueue(4, (n) => behind.push(n));
    for (let i = 0; i < 5; i++) {
      q.push({ event: true, show: () => shown.push(`e${i}`) });
      q.push({ event: false, show: () => shown.push(`v${i}`) });
    }
    expect(shown).toEqual(['e0', 'v0']);
    expect(q.behind).toBe(4);
    vi.advanceTimersByTime(249);
    expect(shown).toEqual(['e0', 'v0']);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['e0', 'v0', 'e1', 'v1']);
    expect(q.behind).toBe(3);
    vi.advanceTimersByTime(500);
    expect(shown.slice(4)).toEqual(['e2', 'v2', 'e3', 'v3']);
    expect(behind.at(-1)).toBe(1);
    q.dispose();
  });

  it('jump() shows everything waiting at once and says it is no longer behind', () => {
    const shown: string[] = [];
    const behind: number[] = [];
    const q = new PacedQueue(2, (n) => behind.push(n));
    for (let i = 0; i < 10; i++) q.push({ event: true, show: () => shown.push(`e${i}`) });
    q.push({ event: false, show: () => shown.push('end') });
    expect(shown).toEqual(['e0']);
    expect(behind.at(-1)).toBe(9);
    q.jump();
    expect(shown).toEqual([...Array.from({ length: 10 }, (_, i) => `e${i}`), 'end']);
    expect(q.behind).toBe(0);
    expect(behind.at(-1)).toBe(0);
    // Nothing left to fire later.
    vi.advanceTimersByTime(10_000);
    expect(shown).toHaveLength(11);
  });

  it('a slow match (events further apart than the interval) is shown live, never behind', () => {
    const shown: number[] = [];
    const q = new PacedQueue(5, () => {});
    for (let i = 0; i < 5; i++) {
      q.push({ event: true, show: () => shown.push(i) });
      expect(q.behind).toBe(0);
      vi.advanceTimersByTime(300);
    }
    expect(shown).toEqual([0, 1, 2, 3, 4]);
  });
});
