/**
 * The PostgreSQL connection of the store: a pool (`pg`), transactions, and what a database error means
 * for the operator, as a StoreError (the same problems the file store reports: `full` for a full disk,
 * `conflict` for a unique key taken, `unwritable` otherwise).
 */
import pg from 'pg';
import { StoreError } from '../store-error';

export type Queryable = Pick<pg.ClientBase, 'query'>;

export interface DatabaseOptions {
  /** Called with each statement's text before it runs (tests make a write fail the way a full disk does). */
  beforeQuery?: (sql: string) => void;
}

/** A SQLSTATE code of an error from PostgreSQL, if it has one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** A database error as the store's error, naming what was being done. */
export function databaseError(doing: string, error: unknown): StoreError {
  if (error instanceof StoreError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  switch (sqlState(error)) {
    case '53100':
      return new StoreError('full', 'PostgreSQL', `Cannot ${doing}: the database server's disk is full (${detail}). Free some space on it; nothing stored was lost.`, error);
    case '23505':
      return new StoreError('conflict', 'PostgreSQL', `Cannot ${doing}: ${detail}.`, error);
    case '25006':
      return new StoreError('read_only', 'PostgreSQL', `Cannot ${doing}: the database is read-only (${detail}). Point DATABASE_URL at the primary server.`, error);
    default:
      return new StoreError('unwritable', 'PostgreSQL', `Cannot ${doing}: ${detail}. Check that the database in DATABASE_URL is up and reachable; nothing stored was lost.`, error);
  }
}

/**
 * Thrown inside a transaction to end it without storing anything, resolving with `value` (an outcome
 * such as "the slug is taken" that is an answer, not an error).
 */
export class Rollback<T> {
  constructor(readonly value: T) {}
}

export type TransactionQuery = <R extends pg.QueryResultRow>(sql: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;

export class Database {
  readonly pool: pg.Pool;
  readonly #beforeQuery: ((sql: string) => void) | undefined;

  constructor(url: string, options: DatabaseOptions = {}) {
    this.pool = new pg.Pool({ connectionString: url, max: 10, idleTimeoutMillis: 30_000 });
    // An idle client losing its connection (the server restarted) must not crash the process.
    this.pool.on('error', () => undefined);
    this.#beforeQuery = options.beforeQuery;
  }

  #check(sql: string): void {
    this.#beforeQuery?.(sql);
  }

  /** One statement outside a transaction; a database error becomes a StoreError naming `doing`. */
  async query<R extends pg.QueryResultRow>(doing: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      this.#check(sql);
      return await this.pool.query<R>(sql, values);
    } catch (error) {
      throw databaseError(doing, error);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it
   * throws (the error is rethrown as a StoreError naming `doing`; a Rollback resolves with its value).
   */
  async transaction<T, U = never>(doing: string, work: (query: TransactionQuery) => Promise<T>): Promise<T | U> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw databaseError(doing, error);
    }
    const query = <R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) => {
      this.#check(sql);
      return client.query<R>(sql, values);
    };
    try {
      await client.query('BEGIN');
      const result = await work(query);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (error instanceof Rollback) return error.value as U;
      throw databaseError(doing, error);
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
