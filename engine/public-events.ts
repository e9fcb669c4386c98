// What a spectator of a running match may see of an event. Three facts in
// the replay are private until the match ends: which card a seat drew from
// the deck, which resource the bandit stole, and why an answer was refused
// (a strike's rejection code and message can name a card in the hand, e.g.
// `dev_bought_this_turn`, `cannot_afford`, `offer_uncovered`). Everything
// else is table-public. test/engine/hidden-info.test.ts checks that nothing
// hidden reaches the public form.
import type { GameEvent, PublicGameEvent } from './types';

/**
 * The event with private facts removed; table-public events come back
 * unchanged (the same object). The private kinds are rebuilt from an explicit
 * list of public fields, so a field added to them later stays private until
 * it is listed here.
 */
export function publicEvent(ev: GameEvent): PublicGameEvent {
  switch (ev.kind) {
    case 'dev': {
      const d = ev.data;
      if (d.action !== 'buy') return ev as PublicGameEvent;
      return { kind: 'dev', seat: ev.seat, data: { action: 'buy' } };
    }
    case 'bandit': {
      const d = ev.data;
      // Everyone sees that a card changed hands, not which.
      if (!('victim' in d)) return { kind: 'bandit', seat: ev.seat, data: { hex: d.hex } };
      return { kind: 'bandit', seat: ev.seat, data: { hex: d.hex, victim: d.victim, stoleCard: d.stole !== null } };
    }
    case 'timeout': {
      const d = ev.data;
      // The seat owed `decision` in plain sight; `code` and `message` stay in the replay.
      return { kind: 'timeout', seat: ev.seat, data: { reason: d.reason, strikes: d.strikes, decision: d.decision } };
    }
    default:
      return ev;
  }
}
