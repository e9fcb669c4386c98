// What a spectator of a running match may see of an event. Two facts in the
// replay are private until the match ends: which card a seat drew from the
// deck, and which resource the bandit stole. Everything else is table-public.
import type { GameEvent } from './types';

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The event with private card identities removed; other events come back unchanged (same object). */
export function publicEvent(ev: GameEvent): GameEvent {
  const data = ev.data;
  if (!isRecord(data)) return ev;
  if (ev.kind === 'dev' && data.action === 'buy') {
    const { card: _card, ...rest } = data;
    return { ...ev, data: rest };
  }
  if (ev.kind === 'bandit' && 'stole' in data) {
    // Everyone sees that a card changed hands, not which.
    const { stole, ...rest } = data;
    return { ...ev, data: { ...rest, stoleCard: stole !== null } };
  }
  return ev;
}
