// The platform key (it signs every bot handshake) when the store is a
// database: kept in the database itself, so every server on it signs with
// one key and no process needs a data directory. Made by the first process
// that finds none; a concurrent first start loses the insert and reads the
// winner's key.
import { createPrivateKey } from 'node:crypto';
import { generateKeyPair, privateKeyToPem, publicKeyRaw } from '../../../keys/index';
import type { PlatformKey } from '../../../config/platform-key';
import type { Db } from './db';

export async function loadOrCreateDbPlatformKey(db: Db): Promise<PlatformKey> {
  const made = await db.query(
    'INSERT INTO arena_platform_key (id, private_key_pem) VALUES (1, $1) ON CONFLICT (id) DO NOTHING RETURNING id',
    [privateKeyToPem(generateKeyPair().privateKey)],
  );
  const r = await db.query<{ private_key_pem: string }>('SELECT private_key_pem FROM arena_platform_key WHERE id = 1');
  const privateKey = createPrivateKey(r.rows[0].private_key_pem);
  return {
    privateKey,
    publicKeyBase64: Buffer.from(publicKeyRaw(privateKey)).toString('base64'),
    path: `the database at ${db.target} (table arena_platform_key)`,
    created: (made.rowCount ?? 0) > 0,
  };
}
