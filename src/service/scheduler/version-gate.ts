// The old URL of a bot is never contacted again once a new version has moved
// it: a match that started before the move reconnects (or connects a late
// seat) only while the bot's stored URL is still the one it was seated with.
// Wraps the address gate every connect runs through (runner AddressGate).
import type { AddressGate } from '../../runner/index';
import type { BotRecord, Store } from '../store/types';

export function versionGate(
  store: Store,
  bots: readonly Pick<BotRecord, 'id' | 'url'>[],
  gate?: AddressGate,
): AddressGate {
  const seated = new Map(bots.map((b) => [b.url, b.id]));
  return async (url) => {
    const id = seated.get(url);
    if (id !== undefined) {
      // A store that cannot answer now does not cost the seat its connection: the URL was the bot's at seating.
      const now = await store.getBot(id).catch(() => undefined);
      // The message is the seat's strike detail: it names no URL (never logged or shown).
      if (now === null || (now && now.url !== url))
        throw new Error(
          'the bot moved to a new URL (a new version) during this match; its old URL is not contacted again',
        );
    }
    return gate ? gate(url) : undefined;
  };
}
