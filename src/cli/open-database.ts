// Opening the Postgres store for a command, with the one-line errors the
// command prints: unreachable (naming the host), migrations pending under
// --no-migrate, a schema newer than this program.
import type { PgStore } from '../service/store/pg-store';
import { CliError, EXIT } from './errors';

export async function openDatabaseStore(url: string, shown: string, migrate: boolean): Promise<PgStore> {
  const { openPgStore, DatabaseUnreachable } = await import('../service/store/pg-store');
  const { MigrationsPending, SchemaTooNew } = await import('../service/store/pg/migrations');
  try {
    return await openPgStore(url, { migrate });
  } catch (err) {
    if (err instanceof DatabaseUnreachable) throw new CliError(err.message.split('\n')[0], EXIT.failure);
    if (err instanceof MigrationsPending || err instanceof SchemaTooNew)
      throw new CliError(`the database at ${shown}: ${err.message}`, EXIT.failure);
    throw new CliError(`cannot open the database at ${shown}: ${(err as Error).message.split('\n')[0]}`, EXIT.failure);
  }
}
