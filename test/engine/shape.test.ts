// The engine's shape check (engine/shape.ts) on the edge cases where it once
// disagreed with the protocol's zod schemas (issue 8, item 3). The decisions:
// unknown fields of an answer are stripped, ResourceCounts keys are closed,
// null is not "absent", a windfall's 2 cards and talk's 240 characters are
// bounds of the shape, counts go up to 1000, roadworks [e, e] is a rule matter.
import { describe, expect, it } from 'vitest';
import { gameEvents, submit } from '../../engine';
import { parseAnswer } from '../../engine/shape';
import { ROADWORKS, WINDFALL } from '../../engine/state';
import { blankMain, edge, expectAccepted, expectRejected, setHand, town } from './helpers';

describe('engine shape check', () => {
  it('strips unknown fields and records the answer without them', () => {
    const g = blankMain('shape-strip');
    setHand(g, 0, { wool: 1, grain: 1, ore: 1 });
    expectAccepted(g, 0, { type: 'buy_dev', debug: { thinking: 'ms' }, now: true });
    const applied = gameEvents(g)
      .filter((e) => e.kind === 'action')
      .at(-1);
    expect(applied?.data).toEqual({ kind: 'turn', action: { type: 'buy_dev' } });
    expect(parseAnswer('setup', { settlement: 20, road: edge(20, 15), city: true })).toEqual({
      ok: true,
      action: { settlement: 20, road: edge(20, 15) },
    });
    expect(parseAnswer('trade', { accept: false, why: 'no' })).toEqual({ ok: true, action: { accept: false } });
  });

  it('refuses an unknown key inside ResourceCounts', () => {
    expect(parseAnswer('discard', { cards: { brick: 1, gold: 1 } })).toMatchObject({
      ok: false,
      code: 'bad_shape',
      message: expect.stringMatching(/gold/),
    });
    expect(parseAnswer('turn', { type: 'offer_trade', give: { ore: 1 }, get: { Wool: 1 } })).toMatchObject({
      ok: false,
      code: 'bad_shape',
    });
  });

  it('refuses null where a field is optional (optional means absent)', () => {
    expect(parseAnswer('bandit', { hex: 3, victim: null })).toMatchObject({
      ok: false,
      code: 'bad_shape',
      message: expect.stringMatching(/victim/),
    });
    expect(parseAnswer('trade', { accept: true, talk: null })).toMatchObject({
      ok: false,
      code: 'bad_shape',
      message: expect.stringMatching(/talk/),
    });
    expect(parseAnswer('turn', { type: 'offer_trade', give: { ore: 1 }, get: { wool: 1 }, to: null })).toMatchObject({
      ok: false,
      code: 'bad_shape',
    });
    expect(parseAnswer('bandit', { hex: 3 })).toEqual({ ok: true, action: { hex: 3 } });
  });

  it('a windfall of anything but 2 cards is bad_amount before any rule, even without the card', () => {
    const g = blankMain('shape-windfall');
    expectRejected(g, 0, { type: 'play_windfall', take: { brick: 3 } }, 'bad_amount');
    g.devOld[WINDFALL] = 1;
    expectRejected(g, 0, { type: 'play_windfall', take: {} }, 'bad_amount');
    expectAccepted(g, 0, { type: 'play_windfall', take: { brick: 2, ore: 0 } });
  });

  it('counts go up to 1000', () => {
    expect(parseAnswer('discard', { cards: { ore: 1000 } })).toEqual({ ok: true, action: { cards: { ore: 1000 } } });
    expect(parseAnswer('discard', { cards: { ore: 1001 } })).toMatchObject({ ok: false, code: 'bad_shape' });
    expect(parseAnswer('discard', { cards: { ore: 5000 } })).toMatchObject({ ok: false, code: 'bad_shape' });
    // Far beyond the typed arrays the rules count in: refused, never wrapped around.
    expect(parseAnswer('discard', { cards: { ore: 65_538 } })).toMatchObject({ ok: false, code: 'bad_shape' });
  });

  it('roadworks naming one edge twice is well-shaped and refused by the rules', () => {
    expect(parseAnswer('turn', { type: 'play_roadworks', edges: [4, 4] })).toEqual({
      ok: true,
      action: { type: 'play_roadworks', edges: [4, 4] },
    });
    const g = blankMain('shape-roadworks');
    town(g, 0, 13);
    g.devOld[ROADWORKS] = 1;
    const r = submit(g, 0, { type: 'play_roadworks', edges: [edge(13, 9), edge(13, 9)] });
    expect(r).toMatchObject({ ok: false, reason: { code: 'occupied' } });
  });
});
