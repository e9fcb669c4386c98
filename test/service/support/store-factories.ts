// The stores every store-level matrix runs on: the file store on a temp
// directory and the Postgres store on a fresh database of a real cluster.
// Call storeFactories() at the top of a test file (it registers the
// cluster's beforeAll/afterAll).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openFileStore } from '../../../src/service/store/file-store';
import { openPgStore } from '../../../src/service/store/pg-store';
import type { Store } from '../../../src/service/store/types';
import pg from 'pg';
import type { PgCluster } from '../../support/postgres';
import { usePostgres } from '../../support/use-postgres';

export interface StoreHandle {
  store: Store;
  cleanup: () => Promise<void>;
}

export interface StoreFactory {
  name: 'file' | 'postgres';
  open: () => Promise<StoreHandle>;
}

let database: { cluster: PgCluster; url: Promise<string> } | null = null;

/**
 * The test file's database, migrated, with every arena table empty. One per
 * cluster, emptied after each test: CREATE DATABASE costs about a second on a
 * busy machine, TRUNCATE a few milliseconds.
 */
export async function freshDatabase(cluster: PgCluster): Promise<string> {
  if (database?.cluster !== cluster) database = { cluster, url: cluster.createDatabase() };
  return database.url;
}

export async function emptyDatabase(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query(
      `SELECT string_agg(quote_ident(tablename), ', ') AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'arena\\_%' AND tablename <> 'arena_schema'`,
    );
    if (r.rows[0].t) await c.query(`TRUNCATE ${r.rows[0].t} RESTART IDENTITY CASCADE`);
  } finally {
    await c.end();
  }
}

export function storeFactories(): StoreFactory[] {
  const cluster = usePostgres();
  return [
    {
      name: 'file',
      open: async () => {
        const dir = await mkdtemp(join(tmpdir(), 'arena-store-'));
        const store = await openFileStore(join(dir, 'data'));
        return {
          store,
          cleanup: async () => {
            await store.close();
            await rm(dir, { recursive: true, force: true });
          },
        };
      },
    },
    {
      name: 'postgres',
      open: async () => {
        const url = await freshDatabase(cluster());
        const store = await openPgStore(url);
        return {
          store,
          cleanup: async () => {
            await store.close();
            await emptyDatabase(url);
          },
        };
      },
    },
  ];
}
