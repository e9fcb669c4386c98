// Store records as the API shows them: the spec's shapes, nothing more. Each
// view goes through its response schema, so a record that does not fit the
// contract (a bug, or data written around the API) is a logged 500, never a
// response that breaks the published shape.
import { ApiKeyMetaSchema, BotSchema, UserSchema, type ApiKeyMeta, type Bot, type User } from '../../protocol/api';
import type { BotRecord, KeyRecord, UserRecord } from '../store/types';
import { currentVersion } from '../store/bot-versions';

export const userView = (u: UserRecord): User => UserSchema.parse({ id: u.id, name: u.name, email: u.email });

export const keyView = (k: KeyRecord): ApiKeyMeta =>
  ApiKeyMetaSchema.parse({
    id: k.id,
    name: k.name,
    publicKey: k.publicKey,
    scopes: k.scopes,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  });

/** The owner's view of a bot; the only response that carries its URL. */
export const botView = (b: BotRecord): Bot =>
  BotSchema.parse({
    id: b.id,
    ownerId: b.ownerId,
    name: b.name,
    game: b.game,
    url: b.url,
    status: b.status,
    challengeable: b.challengeable !== false,
    createdAt: b.createdAt,
    version: currentVersion(b),
    qualification: b.qualification ?? null,
  });
