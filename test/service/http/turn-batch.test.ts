// batchPerTurn: what several requests of one event-loop turn need is done back to back, each with its own answer.
import { describe, expect, it } from 'vitest';
import { batchPerTurn } from '../../../src/service/http/turn-batch';

describe('batchPerTurn', () => {
  it('runs the work of one turn back to back, after the turn, in order, each input getting its own answer', async () => {
    const events: string[] = [];
    const square = batchPerTurn((n: number) => {
      events.push(`work ${n}`);
      return n * n;
    });
    const first = square(1).then((v) => events.push(`answer ${v}`));
    setImmediate(() => events.push('next immediate'));
    const rest = [square(2), square(3)];
    expect(events).toEqual([]);
    expect(await Promise.all([first, ...rest])).toEqual([expect.any(Number), 4, 9]);
    // No answer (a microtask) and no later callback ran between two pieces of the batch.
    expect(events.slice(0, 3)).toEqual(['work 1', 'work 2', 'work 3']);
    expect(events).toContain('answer 1');
    // A later turn is a batch of its own.
    expect(await square(4)).toBe(16);
    expect(events.at(-1)).toBe('work 4');
  });

  it('a throw fails only its own input', async () => {
    const half = batchPerTurn((n: number) => {
      if (n % 2) throw new RangeError(`${n} is odd`);
      return n / 2;
    });
    const results = await Promise.allSettled([half(2), half(3), half(4)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseFulfilledResult<number>).value).toBe(1);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    expect((results[2] as PromiseFulfilledResult<number>).value).toBe(2);
  });
});
