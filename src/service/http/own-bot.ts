// The one rule for routes on a caller's own bot: unknown or removed is 404,
// another account's is 403 (docs/decisions.md).
import type { BotRecord, Store } from '../store/types';
import { ApiError } from './errors';

export async function ownBot(store: Store, id: string, userId: string): Promise<BotRecord> {
  const bot = await store.getBot(id);
  if (!bot || bot.removedAt !== null) throw new ApiError('not_found', `no bot ${id}`);
  if (bot.ownerId !== userId) throw new ApiError('forbidden', `bot ${id} belongs to another account`);
  return bot;
}
