// Connecting to PostgreSQL: a pool per process, the URL's target for
// messages (never its password), and the errors that mean "the database is
// not there" rather than "the request is wrong".
import pg from 'pg';
import { StoreUnavailable } from '../types';

export { describeTarget, isDatabaseUrl } from './url';

export const POOL_SIZE = 10;

export function openPool(url: string, max = POOL_SIZE): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle connection the server drops (restart, failover) errors here; the
  // pool discards it and connects anew on the next query. Unhandled, the
  // 'error' event would end the process.
  pool.on('error', () => {});
  return pool;
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);

/** True for an error that says the database cannot be reached now (not that a query was wrong). */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e) return false;
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    e.message ?? '',
  );
}

/** Thrown by the Postgres store when the database cannot be reached: the API answers 503 with Retry-After. */
export class DatabaseUnavailable extends StoreUnavailable {
  constructor(
    readonly target: string,
    cause: unknown,
  ) {
    super(`the database at ${target} is unavailable: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'DatabaseUnavailable';
  }
}

export function isUniqueViolation(err: unknown): err is { code: string; constraint?: string } {
  return (err as { code?: string } | null)?.code === '23505';
}
