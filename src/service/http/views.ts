// Store records as the API shows them: the spec's shapes, nothing more.
import type { ApiKeyMeta, Bot, User } from '../../protocol/api';
import type { BotRecord, KeyRecord, UserRecord } from '../store/types';

export const userView = (u: UserRecord): User => ({ id: u.id, name: u.name, email: u.email });

export const keyView = (k: KeyRecord): ApiKeyMeta => ({
  id: k.id, name: k.name, publicKey: k.publicKey, scopes: k.scopes, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt,
});

/** The owner's view of a bot; the only response that carries its URL. */
export const botView = (b: BotRecord): Bot => ({
  id: b.id, ownerId: b.ownerId, name: b.name, game: b.game, url: b.url, status: b.status, createdAt: b.createdAt,
});
