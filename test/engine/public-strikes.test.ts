// A strike's public form (docs/decisions.md, "Strikes and connections"): a live
// spectator sees the seat, the reason class and the strike count, never the
// rejection code or message, which can name a card in the seat's hand.
import { describe, expect, it } from 'vitest';
import { publicEvent, recordStrike, submit } from '../../engine';
import { KNIGHT, ROADWORKS } from '../../engine/state';
import { blankMain, setHand } from './helpers';

/**
 * Seat 0 buys the top card (forced to `card`) and tries to play a knight in the same turn, as the runner strikes it.
 */
function buyThenPlayKnight(card: number) {
  const g = blankMain('public-strikes');
  setHand(g, 0, { wool: 1, grain: 1, ore: 1 });
  g.deck[g.deckPos] = card;
  expect(submit(g, 0, { type: 'buy_dev' }).ok).toBe(true);
  const r = submit(g, 0, { type: 'play_knight', hex: 0 });
  if (r.ok) throw new Error('playing a card bought this turn must be refused');
  // What the runner records for an illegal answer (src/runner/run-match.ts).
  const ev = recordStrike(g, 0, 'illegal', 1, 'turn', {
    code: r.reason.code,
    message: `${r.reason.code}: ${r.reason.message}`,
  });
  return { code: r.reason.code, ev };
}

describe('publicEvent of a strike', () => {
  it('a knight bought and played in the same turn: the replay names why, the public event does not', () => {
    const { code, ev } = buyThenPlayKnight(KNIGHT);
    expect(code).toBe('dev_bought_this_turn');
    expect(ev.data).toMatchObject({ code: 'dev_bought_this_turn' }); // the record keeps it for after the match
    const pub = publicEvent(ev);
    expect(pub).toEqual({ kind: 'timeout', seat: 0, data: { reason: 'illegal', strikes: 1, decision: 'turn' } });
    expect(JSON.stringify(pub)).not.toMatch(/knight|bought|dev_|code|message/);
  });

  it('is the same whichever card the seat really holds', () => {
    const knight = buyThenPlayKnight(KNIGHT);
    const roadworks = buyThenPlayKnight(ROADWORKS);
    expect(roadworks.code).toBe('no_such_card'); // the codes differ: they reveal the card...
    expect(publicEvent(roadworks.ev)).toEqual(publicEvent(knight.ev)); // ...the public events do not
  });

  it('never carries the code or message of any strike reason', () => {
    const g = blankMain('public-strikes-2');
    for (const reason of ['late', 'malformed', 'oversize', 'dropped', 'illegal'] as const) {
      const ev = recordStrike(g, 1, reason, 2, 'trade', { code: 'offer_uncovered', message: 'you do not hold 3 ore' });
      expect(publicEvent(ev)).toEqual({ kind: 'timeout', seat: 1, data: { reason, strikes: 2, decision: 'trade' } });
    }
  });
});
