// Queries and transactions on the pool, with "the database is gone" turned
// into DatabaseUnavailable (a 503 for the API) and everything else passed on.
import type pg from 'pg';
import { DatabaseUnavailable, describeTarget, isUnavailable } from './connect';

export type Sql = (text: string, params?: unknown[]) => Promise<pg.QueryResult>;

export class Db {
  readonly target: string;
  constructor(
    readonly pool: pg.Pool,
    url: string,
  ) {
    this.target = describeTarget(url);
  }

  private fail(err: unknown): never {
    if (isUnavailable(err)) throw new DatabaseUnavailable(this.target, err);
    throw err;
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, params);
    } catch (err) {
      return this.fail(err);
    }
  }

  /** fn's queries in one transaction: all of them, or (when it throws) none. */
  async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      return this.fail(err);
    }
    let broken = false;
    // A checked-out client whose connection dies emits 'error' besides failing
    // its query; the pool listens only to idle clients, and an 'error' no one
    // hears ends the process.
    const heard = () => {
      broken = true;
    };
    client.on('error', heard);
    try {
      await client.query('BEGIN');
      const result = await fn((text, params) => client.query(text, params));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      broken ||= isUnavailable(err);
      if (!broken) await client.query('ROLLBACK').catch(() => {});
      return this.fail(err);
    } finally {
      client.off('error', heard);
      // A connection that failed mid-transaction is not given back for reuse.
      client.release(broken || undefined);
    }
  }
}
