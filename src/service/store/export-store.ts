// `arena admin export` and `import`: any store to a data directory (the file
// store's format, which is also the backup format), and a data directory
// into an empty Postgres database. Both report counts per record kind.
import { backupDataDir } from './backup';
import type { PgStore } from './pg-store';
import { readDataDir, writeDataDir } from './transfer/data-dir';
import { loadPostgres, readPostgres } from './transfer/postgres';
import { countsOf, type RecordCounts } from './transfer/records';

/** A Postgres store as a data directory (new or empty); works while servers run on the database. */
export async function exportStore(store: PgStore, dir: string): Promise<RecordCounts> {
  const records = await readPostgres(store.db);
  await writeDataDir(dir, records);
  return countsOf(records);
}

/** A data directory (not in use) copied to another: the backup, counted. */
export async function exportDataDir(from: string, to: string): Promise<RecordCounts> {
  await backupDataDir(from, to);
  return countsOf(await readDataDir(to));
}

/** A data directory into an empty Postgres store (refuses a non-empty one). */
export async function importDataDir(from: string, store: PgStore): Promise<RecordCounts> {
  const records = await readDataDir(from);
  await loadPostgres(store.db, records);
  return countsOf(records);
}
