// Offline account administration on a Store: how the first user and key of a
// data directory come to exist (`arena admin`). The same checks as the HTTP
// API (handle pattern, e-mail form, key parsing, scope names), so an operator
// cannot put into the store what a request could not.
import { z } from 'zod';
import { KeyError } from '../../keys/errors';
import { formatPublicKey, parsePublicKey } from '../../keys/public-key';
import { HANDLE_PATTERN, KeyNameSchema, SCOPES, type Scope } from '../../protocol/api';
import { StoreConflict, type KeyRecord, type Store, type UserRecord } from '../store/types';

/** A refusal meant for the operator: nothing was changed. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

const EmailSchema = z.email().max(254);

export interface AddUserInput {
  email: string;
  handle?: string;
}

export async function addUser(store: Store, input: AddUserInput): Promise<UserRecord> {
  const email = input.email.trim();
  if (!EmailSchema.safeParse(email).success) throw new AdminError(`"${email}" is not an e-mail address`);
  const handle = input.handle?.trim();
  if (handle !== undefined) checkHandle(handle);
  try {
    return await store.createUser({ email, name: handle || undefined });
  } catch (err) {
    if (err instanceof StoreConflict)
      throw new AdminError(err.what === 'email' ? `a user with the e-mail ${email} already exists` : err.message);
    throw err;
  }
}

export function checkHandle(handle: string): void {
  if (!HANDLE_PATTERN.test(handle))
    throw new AdminError(`handle "${handle}" must be 2-32 characters of a-z, 0-9 and _`);
}

/** A user by id, or (when it has an @) by e-mail, case-insensitively. */
export async function findUser(store: Store, emailOrId: string): Promise<UserRecord> {
  const want = emailOrId.trim();
  const user = want.includes('@') ? await store.getUserByEmail(want) : await store.getUser(want);
  if (!user) throw new AdminError(`no user ${JSON.stringify(want)} in this data directory (see \`arena admin users\`)`);
  return user;
}

export interface AddKeyInput {
  /** The owner: an e-mail or a user id. */
  user: string;
  /**
   * The public key in any accepted form: an OpenSSH ssh-ed25519 line, a PEM PUBLIC KEY block, base64 of the raw 32
   * bytes.
   */
  publicKey: string;
  name?: string;
  /** Default: all six, since this bootstraps an operator who must be able to make more keys. */
  scopes?: readonly string[];
}

export const ADMIN_KEY_DEFAULT_NAME = 'admin';

export async function addKey(store: Store, input: AddKeyInput): Promise<KeyRecord> {
  const name = (input.name ?? ADMIN_KEY_DEFAULT_NAME).trim();
  const named = KeyNameSchema.safeParse(name);
  if (!named.success)
    throw new AdminError(
      `key name must be 1-64 characters, not blank, with no control characters (${named.error.issues.map((i) => i.message).join('; ')})`,
    );
  const scopes = parseScopes(input.scopes ?? SCOPES);
  let raw: Uint8Array;
  try {
    raw = parsePublicKey(input.publicKey);
  } catch (err) {
    if (err instanceof KeyError) throw new AdminError(`public key: ${err.message}`);
    throw err;
  }
  const user = await findUser(store, input.user);
  try {
    return await store.addKey({ userId: user.id, name, publicKey: formatPublicKey(raw, 'raw'), scopes });
  } catch (err) {
    if (err instanceof StoreConflict && err.what === 'public_key') {
      throw new AdminError(
        'another account in this data directory registered this public key; generate a key for this server (arena keys generate --out FILE) and add that one',
      );
    }
    throw err;
  }
}

/** Scope names, each one of the six, no repeats; order kept. */
export function parseScopes(list: readonly string[]): Scope[] {
  const out: Scope[] = [];
  for (const s of list) {
    if (!(SCOPES as readonly string[]).includes(s))
      throw new AdminError(`unknown scope "${s}"; scopes are ${SCOPES.join(', ')}`);
    if (!out.includes(s as Scope)) out.push(s as Scope);
  }
  if (out.length === 0) throw new AdminError('give at least one scope');
  return out;
}

export interface UserSummary extends UserRecord {
  /** Keys not revoked. */
  activeKeys: number;
  /** Bots not removed. */
  bots: number;
}

/** Every user, oldest first, with counts an operator wants at a glance. */
export async function listUsers(store: Store): Promise<UserSummary[]> {
  const users = await store.listUsers();
  return Promise.all(
    users.map(async (u) => ({
      ...u,
      activeKeys: (await store.listKeys(u.id)).filter((k) => !k.revokedAt).length,
      bots: (await store.listBots(u.id)).length,
    })),
  );
}
