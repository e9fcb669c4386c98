// The test-file side of postgres.ts (which has no vitest in it, so the bench can start a cluster too).
import { afterAll, beforeAll } from 'vitest';
import { removePostgres, startPostgres, type PgCluster, type PostgresOptions } from './postgres';

/** One cluster for the calling test file: started before its tests, removed after. */
export function usePostgres(opts: PostgresOptions = {}): () => PgCluster {
  let cluster: PgCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgres(opts);
  }, 120_000);
  afterAll(() => {
    if (cluster) removePostgres(cluster);
  });
  return () => {
    if (!cluster) throw new Error('the PostgreSQL cluster did not start (see the error of beforeAll)');
    return cluster;
  };
}
