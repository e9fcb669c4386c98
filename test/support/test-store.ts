// The store the API, scheduler and live tests run on: the file store, or the
// Postgres store when the vitest project "postgres" runs them
// (ARENA_TEST_STORE=postgres, vitest.config.ts): one matrix, not copies.
import { join } from 'node:path';
import { openFileStore } from '../../src/service/store/file-store';
import { openPgStore, type PgStore } from '../../src/service/store/pg-store';
import type { Store } from '../../src/service/store/types';
import { storeBytes } from '../service/support/store-bytes';
import { sharedPostgres } from './postgres';

export const TEST_STORE: 'file' | 'postgres' = process.env.ARENA_TEST_STORE === 'postgres' ? 'postgres' : 'file';

/** A new, empty store: a data directory under `dir`, or a new database of this process's cluster. close() ends it. */
export async function openTestStore(dir: string): Promise<Store> {
  if (TEST_STORE === 'file') return openFileStore(join(dir, 'data'));
  const cluster = await sharedPostgres();
  const name = `t_${Math.random().toString(36).slice(2, 12)}`;
  const store = await openPgStore(await cluster.createDatabase(name), { touchFlushMs: 3_600_000 });
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await cluster.dropDatabase(name).catch(() => {});
  };
  return store;
}

/**
 * What the store has written so far (not what it holds in memory): store.json and its journal, or the database's key
 * rows.
 */
export async function persistedState(store: Store, dir: string): Promise<string> {
  if (TEST_STORE === 'file') return storeBytes(join(dir, 'data'));
  const { rows } = await (store as unknown as PgStore).db.query('SELECT * FROM arena_keys ORDER BY seq');
  return JSON.stringify(rows);
}
