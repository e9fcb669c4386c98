import { describe, expect, it } from 'vitest';
import { createBuiltinBot } from '../../engine/bots/index';
import {
  abortGame, defaultAction, gameEvents, isOver, newGame, outcome, pendingDecisions, recordStrike, resignSeat, submit,
} from '../../engine/game';
import { stepReplay, verifyReplay } from '../../engine/replay';
import type { GameEvent, StrikeReason } from '../../engine/types';
import { rng as testRng } from './testRng';

/** Plays like a runner would: random bots, some answers late (strike + default), three strikes resign the seat. */
function runnerLike(seed: string, abortAfter = Infinity) {
  const g = newGame(seed, 4);
  const bots = [0, 1, 2, 3].map((s) => createBuiltinBot('random', `${seed}/${s}`));
  const pick = testRng(seed);
  const strikes = [0, 0, 0, 0];
  const resigned = [false, false, false, false];
  let steps = 0;
  while (!isOver(g)) {
    if (++steps > abortAfter) { abortGame(g); break; }
    for (const d of pendingDecisions(g)) {
      let answer = bots[d.seat].decide(g, d.seat);
      if (resigned[d.seat]) {
        answer = defaultAction(g, d.seat);
      } else if (pick() < 0.01) {
        const reason: StrikeReason = (['late', 'malformed', 'illegal'] as const)[Math.floor(pick() * 3)];
        recordStrike(g, d.seat, reason, ++strikes[d.seat], d.kind);
        if (strikes[d.seat] === 3) {
          resignSeat(g, d.seat);
          resigned[d.seat] = true;
        }
        answer = defaultAction(g, d.seat);
      }
      const r = submit(g, d.seat, answer);
      if (!r.ok) throw new Error(r.reason.message);
    }
  }
  return { g, resigned };
}

describe('replay verification', () => {
  it('reproduces games with strikes, defaults and resignations', () => {
    let sawResign = false, sawTimeout = false;
    for (let i = 0; i < 12; i++) {
      const { g, resigned } = runnerLike(`runner${i}`);
      const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
      sawResign ||= resigned.some(Boolean);
      sawTimeout ||= record.some((e) => e.kind === 'timeout');
      expect(verifyReplay(`runner${i}`, 4, record)).toEqual({ ok: true, outcome: outcome(g) });
      const o = outcome(g)!;
      resigned.forEach((r, s) => {
        if (r) expect(o.placements[s]).toBeGreaterThan(resigned.filter((x) => !x).length);
      });
    }
    expect(sawTimeout).toBe(true);
    expect(sawResign).toBe(true);
  });

  it('reproduces an aborted game, with no outcome', () => {
    const { g } = runnerLike('aborted', 500);
    const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
    expect(record.at(-1)).toMatchObject({ kind: 'end', data: { reason: 'aborted' } });
    expect(verifyReplay('aborted', 4, record)).toEqual({ ok: true, outcome: null });
  });

  it('rejects a record with an extra, a missing or a forged event', () => {
    const { g } = runnerLike('forge');
    const good = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
    const missing = good.filter((_, i) => i !== 40);
    expect(verifyReplay('forge', 4, missing)).toMatchObject({ ok: false });
    const extra = [...good, { kind: 'talk', seat: 0, data: { message: 'hi' } }];
    expect(verifyReplay('forge', 4, extra)).toMatchObject({ ok: false, index: good.length });
    const forged = JSON.parse(JSON.stringify(good)) as GameEvent[];
    const i = forged.findIndex((e) => e.kind === 'action' && (e.data as { kind: string }).kind === 'turn' && e.seat === 1);
    (forged[i].data as { action: unknown }).action = { type: 'build_city', vertex: 0 };
    const r = verifyReplay('forge', 4, forged);
    expect(r).toMatchObject({ ok: false, index: i });
    expect(verifyReplay('forge', 3, good)).toMatchObject({ ok: false });
    const garbage = [...good.slice(0, 10), null, ...good.slice(10)] as unknown as GameEvent[];
    expect(verifyReplay('forge', 4, garbage)).toMatchObject({ ok: false, index: 10 });
    const badSeat = [...good.slice(0, 10), { kind: 'timeout', seat: 9, data: { reason: 'late', strikes: 1, decision: 'setup' } }];
    expect(verifyReplay('forge', 4, badSeat)).toMatchObject({ ok: false, index: 10 });
  });

  it('stepReplay visits after each input with the index of its last event', () => {
    const { g } = runnerLike('steps');
    const record = gameEvents(g);
    const visited: number[] = [];
    const r = stepReplay('steps', 4, record, (_game, last) => visited.push(last));
    expect(r.ok).toBe(true);
    const inputs = record.filter((e) => ['action', 'timeout', 'resign'].includes(e.kind)).length;
    expect(visited).toHaveLength(inputs);
    expect(visited.at(-1)).toBe(record.length - 1);
    for (let k = 1; k < visited.length; k++) expect(visited[k]).toBeGreaterThanOrEqual(visited[k - 1]);
  });
});
