// Property tests: thousands of seeded games between random bots.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBuiltinBot } from '../../engine/bots/index';
import { cloneGame, gameEvents, isOver, newGame, outcome, pendingDecisions, submit } from '../../engine/game';
import { legalActions, legalActionsFromView } from '../../engine/legal';
import { verifyReplay } from '../../engine/replay';
import type { Game } from '../../engine/state';
import type { AnyAction, GameEvent } from '../../engine/types';
import { publicView, seatView } from '../../engine/view';
import { PioneersViewSchema, PublicViewSchema } from '../../src/protocol/view';
import { brokenInvariants, ledgerFromEvents } from './invariants';

interface PlayOptions {
  events?: boolean;
  /** Submit simultaneous answers in reverse seat order (decided in seat order, so the bots' RNG use is the same). */
  reverse?: boolean;
  onStep?: (g: Game, step: number) => void;
}

function play(seed: string, n: 3 | 4, opts: PlayOptions = {}): Game {
  const g = newGame(seed, n, { events: opts.events ?? true });
  const bots = Array.from({ length: n }, (_, s) => createBuiltinBot('random', `${seed}/bot${s}`));
  let step = 0;
  while (!isOver(g)) {
    const pending = pendingDecisions(g);
    const answers: Array<[number, AnyAction]> = pending.map((d) => [d.seat, bots[d.seat].decide(g, d.seat)]);
    if (opts.reverse) answers.reverse();
    for (const [seat, a] of answers) {
      const r = submit(g, seat, a);
      if (!r.ok) throw new Error(`seed ${seed}: legal action rejected: ${r.reason.code} ${JSON.stringify(a)}`);
    }
    opts.onStep?.(g, step++);
    if (step > 100_000) throw new Error(`seed ${seed}: game does not end`);
  }
  return g;
}

describe('random games (events off, fast)', () => {
  it('1,000 games of 3 and 4 seats end by a win or the cap with consistent state', () => {
    let wins = 0;
    for (let i = 0; i < 1000; i++) {
      const g = play(`fast${i}`, i % 4 === 0 ? 3 : 4, { events: false });
      const o = outcome(g)!;
      expect(['win', 'cap']).toContain(o.reason);
      if (o.reason === 'win') {
        wins++;
        expect(o.vp[o.winner!]).toBeGreaterThanOrEqual(10);
        expect(o.placements[o.winner!]).toBe(1);
      } else {
        expect(o.turns).toBe(200);
      }
      const broken = brokenInvariants(g);
      if (broken.length) throw new Error(`seed fast${i}: ${broken.join('; ')}`);
    }
    expect(wins).toBeGreaterThan(0);
  });
});

describe('random games (events on)', () => {
  it('keep hands equal to a ledger rebuilt from the events, conserve dev cards, and pass the view schemas', () => {
    for (let i = 0; i < 60; i++) {
      const n = i % 3 === 0 ? 3 : 4;
      const g = play(`full${i}`, n, {
        onStep: (game, step) => {
          if (step % 37 !== 0) return;
          const broken = brokenInvariants(game);
          if (broken.length) throw new Error(`seed full${i} step ${step}: ${broken.join('; ')}`);
          const { hands } = ledgerFromEvents(gameEvents(game), n);
          expect(hands).toEqual(Array.from(game.hand));
          for (let s = 0; s < n; s++) {
            const v = PioneersViewSchema.safeParse(seatView(game, s));
            if (!v.success) throw new Error(`seed full${i} seat ${s}: ${v.error.message}`);
          }
          expect(PublicViewSchema.safeParse(publicView(game)).success).toBe(true);
        },
      });
      const { hands, devPlayed } = ledgerFromEvents(gameEvents(g), n);
      expect(hands).toEqual(Array.from(g.hand));
      let held = 0;
      for (let k = 0; k < g.devOld.length; k++) held += g.devOld[k] + g.devNew[k];
      expect(held + devPlayed).toBe(g.deckPos);
      expect(held + devPlayed + (25 - g.deckPos)).toBe(25);
    }
  });

  it('every recorded game verifies, also after a JSON round trip, and the outcome matches', () => {
    for (let i = 0; i < 60; i++) {
      const n = i % 2 === 0 ? 3 : 4;
      const g = play(`replay${i}`, n);
      const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
      const withSeq = record.map((e, seq) => ({ seq, at: '2026-01-01T00:00:00Z', ...e }));
      const r = verifyReplay(`replay${i}`, n, withSeq);
      expect(r).toEqual({ ok: true, outcome: outcome(g) });
    }
  });

  it('is deterministic, and the arrival order of simultaneous answers never changes the game', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom<3 | 4>(3, 4), (seed, n) => {
        const a = JSON.stringify(gameEvents(play(seed, n)));
        expect(JSON.stringify(gameEvents(play(seed, n)))).toBe(a);
        expect(JSON.stringify(gameEvents(play(seed, n, { reverse: true })))).toBe(a);
      }),
      { numRuns: 15 },
    );
  });

  it('a tampered record fails verification at the first differing event', () => {
    const g = play('tamper', 4);
    const record = JSON.parse(JSON.stringify(gameEvents(g))) as GameEvent[];
    const i = record.findIndex((e) => e.kind === 'roll');
    (record[i].data as { dice: number[] }).dice = [6, 6];
    const r = verifyReplay('tamper', 4, record);
    expect(r).toMatchObject({ ok: false, index: i });
    expect(verifyReplay('other seed', 4, JSON.parse(JSON.stringify(gameEvents(g))))).toMatchObject({ ok: false });
  });
});

describe('legal actions', () => {
  it('are all accepted, and the view-based generator gives the same list', () => {
    let checked = 0;
    for (let i = 0; i < 12; i++) {
      play(`legal${i}`, 4, {
        events: false,
        onStep: (g, step) => {
          if (step % 23 !== 0) return;
          for (const d of pendingDecisions(g)) {
            const actions = legalActions(g, d.seat);
            expect(actions.length).toBeGreaterThan(0);
            for (const a of actions) {
              const r = submit(cloneGame(g), d.seat, JSON.parse(JSON.stringify(a)));
              if (!r.ok) throw new Error(`legal${i}: ${JSON.stringify(a)} rejected: ${r.reason.code}`);
              checked++;
            }
            const fromView = legalActionsFromView(seatView(g, d.seat), d.kind, {
              devPlayedThisTurn: g.devPlayed,
              offersThisTurn: g.offers,
            });
            expect(fromView).toEqual(actions);
          }
        },
      });
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
