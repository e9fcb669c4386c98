// Schema migrations: plain versioned SQL (sql/NNNN-*.ts), applied in order in
// one transaction with the versions applied kept in arena_schema. Why not a
// migration tool (node-pg-migrate, graphile-migrate): this needs no
// dependency beyond the driver, and the SQL is TypeScript string modules, so
// esbuild puts it inside the npm bundle and the single executable alike; no
// file is looked up at run time. A migration is forward-only: a schema newer
// than this program is refused, never "migrated down".
import type pg from 'pg';
import initial from './sql/0001-initial';
import ownerData from './sql/0002-owner-data';
import challenges from './sql/0003-challenges';
import webhooks from './sql/0004-webhooks';
import botVersions from './sql/0005-bot-versions';
import matchJobs from './sql/0006-match-jobs';
import live from './sql/0007-live';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'owner-data', sql: ownerData },
  { version: 3, name: 'challenges', sql: challenges },
  { version: 4, name: 'webhooks', sql: webhooks },
  { version: 5, name: 'bot-versions', sql: botVersions },
  { version: 6, name: 'match-jobs', sql: matchJobs },
  { version: 7, name: 'live', sql: live },
];

/** The schema version this program needs (and writes). */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Any fixed number: every process that migrates takes this lock, so two starting at once take turns. */
const MIGRATE_LOCK = 0x6172656e61;

export class SchemaTooNew extends Error {
  constructor(readonly dbVersion: number) {
    super(
      `the database's schema is version ${dbVersion}, newer than this arena's ${SCHEMA_VERSION}: run a newer arena (schemas never go back)`,
    );
    this.name = 'SchemaTooNew';
  }
}

export class MigrationsPending extends Error {
  constructor(
    readonly dbVersion: number,
    readonly pending: readonly Migration[],
  ) {
    super(
      `the database's schema is version ${dbVersion}, this arena needs ${SCHEMA_VERSION}; pending: ${pending.map(describe).join(', ')}. Run \`arena admin migrate-db\`, or start without --no-migrate`,
    );
    this.name = 'MigrationsPending';
  }
}

export function describe(m: Migration): string {
  return `${String(m.version).padStart(4, '0')}-${m.name}`;
}

type Queryable = Pick<pg.PoolClient, 'query'>;

/** The highest version applied, 0 for a database never migrated. */
export async function schemaVersion(db: Queryable): Promise<number> {
  const exists = await db.query<{ t: string | null }>(`SELECT to_regclass('arena_schema')::text AS t`);
  if (!exists.rows[0].t) return 0;
  const r = await db.query<{ v: number | null }>('SELECT max(version) AS v FROM arena_schema');
  return r.rows[0].v ?? 0;
}

/** Refuses a schema newer than this program; returns the migrations not yet applied. */
export async function pendingMigrations(db: Queryable): Promise<{ dbVersion: number; pending: Migration[] }> {
  const dbVersion = await schemaVersion(db);
  if (dbVersion > SCHEMA_VERSION) throw new SchemaTooNew(dbVersion);
  return { dbVersion, pending: MIGRATIONS.filter((m) => m.version > dbVersion) };
}

/** Applies every pending migration in one transaction; returns those applied (none when current). */
export async function migrate(pool: pg.Pool): Promise<Migration[]> {
  const client = await pool.connect();
  // A lost connection emits 'error' on the checked-out client as well as failing the query (see db.ts).
  const heard = () => {};
  client.on('error', heard);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATE_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS arena_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { pending } = await pendingMigrations(client);
    for (const m of pending) {
      await client.query(m.sql);
      await client.query('INSERT INTO arena_schema (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await client.query('COMMIT');
    return pending;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.off('error', heard);
    client.release();
  }
}
