// graphile-worker's own tables (schema graphile_worker), installed or updated
// by its runMigrations. Every scheduler and worker calls this at start; our
// advisory lock makes processes starting together take turns (graphile-worker
// tolerates a concurrent migration, but not always a concurrent first install).
import { runMigrations } from 'graphile-worker';
import type { Db } from '../store/pg/db';
import { queueLogger } from './queue-log';
import type { ServiceLog } from '../ops/log-format';

/** Any fixed number, distinct from the arena's migration and matchmaker locks. */
const QUEUE_MIGRATE_LOCK = 0x61726d71;

export async function migrateQueue(db: Db, log: ServiceLog): Promise<void> {
  const client = await db.pool.connect();
  const heard = () => {};
  client.on('error', heard);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [QUEUE_MIGRATE_LOCK]);
    try {
      await runMigrations({ pgPool: db.pool, logger: queueLogger(log) });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [QUEUE_MIGRATE_LOCK]).catch(() => {});
    }
  } finally {
    client.off('error', heard);
    client.release();
  }
}
