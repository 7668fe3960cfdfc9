/**
 * The store's connection to its database, the same for both engines: Kysely over better-sqlite3 (the
 * embedded default, one file in DATA_DIR) or over `pg` (DATABASE_URL, for several app servers). It
 * runs reads and write transactions, and says what a database error means for the operator as a
 * StoreError (`full`, `read_only`, `conflict`, `corrupt`, `unavailable`, `unwritable`), naming what was
 * being done.
 *
 * PostgreSQL's pool survives the server going away (a restart, a failover): every client it makes has
 * an `error` listener for as long as it lives, idle or checked out (pg-pool listens on idle ones only,
 * and a client in a transaction that loses its connection between statements would otherwise end the
 * process with an unhandled 'error' event). A dead client is dropped; the next request makes a new one,
 * so the store is back by itself when the server is. Meanwhile every statement fails with a StoreError
 * `unavailable` (503 with Retry-After).
 *
 * SQLite is opened in WAL mode with `synchronous=FULL` (a commit is on disk before it resolves, so a 201
 * means stored), foreign keys on, and a busy timeout, so the CLI and a running server share the file:
 * every write transaction begins IMMEDIATE, taking the write lock at once (or waiting its turn), never
 * failing halfway on a lock another process holds.
 */
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  sql,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteAdapter,
  SqliteDriver,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Transaction,
} from 'kysely';
import type pg from 'pg';
import { StoreError } from '../store-error';
import type { StoreSchema } from './schema';

export type EngineKind = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** Called with each statement's text before it runs (tests make a write fail the way a full disk does). */
  beforeQuery?: (sql: string) => void;
}

/** How long a write waits for another process's write lock on the SQLite file before it gives up. */
export const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** The error code of a database error (`SQLITE_FULL`, or PostgreSQL's SQLSTATE `53100`), if it has one. */
export function databaseCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/**
 * SQLSTATEs that say the server is out of reach for now rather than that the statement is wrong:
 * class 08 (connection exception), 57P01-57P03 (an administrator's or a crash's shutdown, a server
 * starting up or shutting down), 53300 (too many connections).
 */
const UNREACHABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Node's errors of a connection that could not be made or was lost (ENOENT: no Unix socket, the server is not running). */
const UNREACHABLE_ERRNO: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT',
]);

/**
 * pg's and pg-pool's own words for a lost or never-made connection, which carry no code: "Connection
 * terminated unexpectedly", "Connection terminated due to connection timeout", "timeout exceeded when
 * trying to connect", "Client has encountered a connection error and is not queryable".
 */
const UNREACHABLE_MESSAGE = /^Connection terminated\b|timeout exceeded when trying to connect|connection error and is not queryable|^Query read timeout$/;

/**
 * True when a PostgreSQL error means the server cannot be reached for now (down, restarting, refusing or
 * dropping connections, too slow to answer a connect), looking through `cause` and an AggregateError's
 * `errors` (a host name with several addresses). Pure: the tests call it with errors as pg makes them.
 */
export function isUnreachable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const code = databaseCode(error);
  if (code !== undefined && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  if (error instanceof Error && UNREACHABLE_MESSAGE.test(error.message)) return true;
  if ('errors' in error && Array.isArray(error.errors) && error.errors.some((inner) => isUnreachable(inner, depth + 1))) return true;
  return 'cause' in error && isUnreachable(error.cause, depth + 1);
}

/** What went wrong, in words: an AggregateError (every address of a host refused) has none of its own. */
function detailOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(detailOf).join('; ');
  return error instanceof Error ? error.message : String(error);
}

/** A database error as the store's error, naming what was being done and where (`where`: the file, or the redacted URL). */
export function databaseError(doing: string, error: unknown, kind: EngineKind, where: string): StoreError {
  if (error instanceof StoreError) return error;
  const detail = detailOf(error);
  const code = databaseCode(error) ?? '';
  if (kind === 'postgres') {
    if (isUnreachable(error)) {
      return new StoreError(
        'unavailable',
        where,
        `Cannot ${doing}: PostgreSQL at ${where} cannot be reached (${detail}). Requests that need it answer 503 until it is back; the server connects again by itself, nothing stored was lost.`,
        error,
      );
    }
    switch (code) {
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
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError('full', where, `Cannot ${doing}: the disk holding ${where} is full (${detail}). Free some space; nothing stored was lost.`, error);
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) return new StoreError('conflict', where, `Cannot ${doing}: ${detail}.`, error);
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'EACCES' || code === 'EROFS' || code === 'EPERM') {
    return new StoreError(
      'read_only',
      where,
      `Cannot ${doing}: ${where} is read-only or not writable by this process (${detail}). Check DATA_DIR's mount and permissions.`,
      error,
    );
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new StoreError(
      'damaged',
      where,
      `Cannot ${doing}: the database file ${where} is damaged (${detail}). Stop the server, keep the file, and restore the newest copy made with \`blogpost backup\` (docs/deployment.md); \`blogpost doctor\` checks a file.`,
      error,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StoreError('unwritable', where, `Cannot ${doing}: another process held ${where} for longer than ${SQLITE_BUSY_TIMEOUT_MS / 1000} s (${detail}). Try again.`, error);
  }
  return new StoreError('unwritable', where, `Cannot ${doing} in ${where} (${detail}). Check that DATA_DIR points to a writable directory.`, error);
}

/**
 * Thrown inside a transaction to end it without storing anything, resolving with `value` (an outcome
 * such as "the slug is taken" that is an answer, not an error).
 */
export class Rollback<T> {
  constructor(readonly value: T) {}
}

/** A connection that calls `beforeQuery` with each statement first. */
function watched(connection: DatabaseConnection, beforeQuery: (sql: string) => void): DatabaseConnection {
  return {
    executeQuery(query) {
      beforeQuery(query.sql);
      return connection.executeQuery(query);
    },
    streamQuery(query, chunkSize) {
      beforeQuery(query.sql);
      return connection.streamQuery(query, chunkSize);
    },
  };
}

/**
 * A driver whose connections call `beforeQuery` first (tests only). The driver gets its own connections
 * back for transactions and release (PostgreSQL's driver releases through a method of its connection).
 */
function watchedDriver(driver: Driver, beforeQuery: ((sql: string) => void) | undefined): Driver {
  if (!beforeQuery) return driver;
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const own = (connection: DatabaseConnection) => inner.get(connection) ?? connection;
  return {
    init: () => driver.init(),
    acquireConnection: async () => {
      const connection = await driver.acquireConnection();
      const wrapper = watched(connection, beforeQuery);
      inner.set(wrapper, connection);
      return wrapper;
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(own(connection), settings),
    commitTransaction: (connection) => driver.commitTransaction(own(connection)),
    rollbackTransaction: (connection) => driver.rollbackTransaction(own(connection)),
    releaseConnection: (connection) => driver.releaseConnection(own(connection)),
    destroy: () => driver.destroy(),
  };
}

/** How many prepared statements `keptStatements` keeps (the store's queries are a few dozen shapes; IN lists add some). */
export const KEPT_STATEMENTS = 200;

/**
 * better-sqlite3's handle as Kysely's driver sees it, with each statement prepared once and kept
 * (by its SQL, the most recently used KEPT_STATEMENTS): Kysely's driver prepares every query it runs
 * again, and preparing took 5% of a durable POST's time (decision 0019). A kept statement still being
 * read (a streamed query's rows) is not handed out twice: that query gets one of its own.
 */
export function keptStatements(handle: BetterSqlite3.Database): { prepare: (sql: string) => BetterSqlite3.Statement; close: () => void } {
  const kept = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql) {
      const statement = kept.get(sql);
      if (statement && !statement.busy) {
        // The most recently used last: the first in the map is the one to let go.
        kept.delete(sql);
        kept.set(sql, statement);
        return statement;
      }
      const prepared = handle.prepare(sql);
      if (!statement) {
        kept.set(sql, prepared);
        if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value as string);
      }
      return prepared;
    },
    close() {
      kept.clear();
      handle.close();
    },
  };
}

/** How long a statement other than BEGIN waits, blocking, for a lock another process holds (WAL readers never wait on a writer). */
const SQLITE_STATEMENT_BUSY_MS = 5_000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * better-sqlite3's driver, with every transaction begun IMMEDIATE: the write lock is taken at once, so a
 * transaction never fails halfway on a lock another process (the CLI, a backup) holds. While another
 * process holds it, BEGIN is tried again after a pause, without blocking this process's event loop,
 * for up to SQLITE_BUSY_TIMEOUT_MS. (better-sqlite3's own busy wait would block it, and in one process
 * two connections would then wait on each other.)
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #handle: BetterSqlite3.Database;

  constructor(handle: BetterSqlite3.Database) {
    super({ database: keptStatements(handle) });
    this.#handle = handle;
  }

  override async beginTransaction(): Promise<void> {
    const deadline = Date.now() + SQLITE_BUSY_TIMEOUT_MS;
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      this.#handle.pragma('busy_timeout = 0');
      try {
        this.#handle.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        if (!databaseCode(error)?.startsWith('SQLITE_BUSY') || Date.now() > deadline) throw error;
      } finally {
        this.#handle.pragma(`busy_timeout = ${SQLITE_STATEMENT_BUSY_MS}`);
      }
      await pause(wait);
    }
  }

  /**
   * A full disk (SQLITE_FULL) or an I/O error can make SQLite roll the whole transaction back itself;
   * a ROLLBACK then fails ("cannot rollback - no transaction is active"), and that error would replace
   * the one that says what happened (a full disk answered 503 instead of 507).
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.#handle.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

/** SQLite runs DDL in transactions: migrations apply whole or not at all, under the write lock. */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

function sqliteDialect(database: BetterSqlite3.Database, options: DatabaseOptions): Dialect {
  return {
    createAdapter: () => new TransactionalSqliteAdapter(),
    createDriver: () => watchedDriver(new ImmediateSqliteDriver(database), options.beforeQuery),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createIntrospector: (db) => new SqliteIntrospector(db),
  };
}

function postgresDialect(pool: pg.Pool, options: DatabaseOptions): Dialect {
  const inner = new PostgresDialect({ pool });
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => watchedDriver(inner.createDriver(), options.beforeQuery),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

/** How long a request waits for a PostgreSQL connection (a new one, or a free one of the pool) before answering 503. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Every client of `pool` listens for `error` for as long as it lives. pg-pool listens on idle clients
 * only: a checked-out client (inside a transaction, between two statements) whose server goes away
 * emits 'error' with nobody listening, which ends the process. The statement under way, or the next
 * one, fails on its own (a StoreError `unavailable`), and pg-pool drops a client that is no longer
 * queryable when it is released, so the error needs no more handling here than being heard.
 */
export function keepClientsFromCrashing(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // An idle client losing its connection: pg-pool removes it and tells the pool.
  pool.on('error', () => undefined);
}

export type Db = Kysely<StoreSchema>;
export type Tx = Transaction<StoreSchema>;

/** The most writes one SQLite transaction commits together. */
export const GROUP_COMMIT_MOST = 64;

interface Waiting {
  doing: string;
  work: (tx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The writes of one process, committed together (decision 0042). A commit waits for the disk (SQLite
 * with `synchronous=FULL` syncs its log; PostgreSQL flushes its WAL), and on SQLite commits run one at
 * a time, on PostgreSQL one at a time behind the advertising archive's lock. Writes asked for while a
 * transaction is under way, or in the same turn of the event loop, wait for the next transaction and
 * share its commit: each runs in a savepoint of its own, so one that fails (or ends with a Rollback)
 * undoes only its own changes and the others still commit. None resolves before the commit is on disk.
 * When the transaction as a whole fails (its COMMIT, SQLite undoing it itself on a full disk, a lost
 * connection, a deadlock), nothing of it is stored and each of its writes runs again alone: each ends
 * as it would have without company. A write alone waits for nothing: its transaction begins in the next
 * turn of the event loop.
 */
class GroupCommit {
  readonly #db: Db;
  readonly #ended: () => boolean;
  readonly #error: (doing: string, error: unknown) => unknown;
  #waiting: Waiting[] = [];
  #running = false;

  /** `ended`: true when the engine ended the transaction itself after a statement failed. */
  constructor(db: Db, ended: () => boolean, error: (doing: string, error: unknown) => unknown) {
    this.#db = db;
    this.#ended = ended;
    this.#error = error;
  }

  write<T, U>(doing: string, work: (tx: Tx) => Promise<T>): Promise<T | U> {
    return new Promise<T | U>((resolve, reject) => {
      this.#waiting.push({ doing, work, resolve: resolve as (value: unknown) => void, reject });
      if (this.#running) return;
      this.#running = true;
      // The rest of this turn's writes (requests read in the same poll) join the first transaction.
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) await this.#commit(this.#waiting.splice(0, GROUP_COMMIT_MOST));
    } finally {
      this.#running = false;
    }
  }

  /** One transaction for `group`; each write's outcome is settled once the commit is (or is not) on disk. */
  async #commit(group: Waiting[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    // Which write is running; -1 until the transaction has begun (a BEGIN that failed fails them all).
    let next = -1;
    try {
      await this.#db.transaction().execute(async (tx) => {
        for (next = 0; next < group.length; next++) {
          const { work } = group[next] as Waiting;
          await sql`SAVEPOINT one_write`.execute(tx);
          try {
            outcomes.push({ ok: true, value: await work(tx) });
            await sql`RELEASE one_write`.execute(tx);
          } catch (error) {
            // SQLite ended the whole transaction itself (SQLITE_FULL, an I/O error): nothing of it stays.
            if (this.#ended()) throw error;
            await sql`ROLLBACK TO one_write`.execute(tx);
            await sql`RELEASE one_write`.execute(tx);
            outcomes.push(error instanceof Rollback ? { ok: true, value: error.value } : { ok: false, error });
          }
        }
      });
    } catch (error) {
      // Nothing of the transaction is stored. Alone, a write fails with what ended it (so does every write
      // when BEGIN failed: they would wait for the same lock again). Together, each is tried again in a
      // transaction of its own, so only the write that caused it (a deferred foreign key checked at
      // COMMIT, SQLite ending the transaction on a full disk) fails, exactly as it would have alone.
      if (next === -1 || group.length === 1) {
        for (const waiting of group) waiting.reject(this.#error(waiting.doing, error));
        return;
      }
      for (const waiting of group) await this.#commit([waiting]);
      return;
    }
    outcomes.forEach((outcome, index) => {
      const waiting = group[index] as Waiting;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(this.#error(waiting.doing, outcome.error));
    });
  }
}

export class SqlDatabase {
  readonly kind: EngineKind;
  readonly db: Db;
  /** The database file, or PostgreSQL's redacted URL: what messages name. */
  readonly where: string;
  /** better-sqlite3's handle (SQLite only): the change counter other processes move (posts.ts). */
  readonly sqlite: BetterSqlite3.Database | null;

  /** The writes of this process, committed together (decision 0042). */
  readonly #commits: GroupCommit;

  private constructor(kind: EngineKind, db: Db, where: string, sqlite: BetterSqlite3.Database | null) {
    this.kind = kind;
    this.db = db;
    this.where = where;
    this.sqlite = sqlite;
    // SQLite can end a transaction itself when a statement fails (a full disk); PostgreSQL only marks it
    // failed, and ROLLBACK TO SAVEPOINT takes it back (a lost connection fails that statement too).
    const ended = sqlite ? () => !sqlite.inTransaction : () => false;
    this.#commits = new GroupCommit(db, ended, (doing, error) => databaseError(doing, error, kind, where));
  }

  /** Opens (creating it when missing) the SQLite file at `file`; a StoreError an operator can act on. */
  static async sqlite(file: string, options: DatabaseOptions = {}): Promise<SqlDatabase> {
    const { default: Sqlite } = await import('better-sqlite3');
    let handle: BetterSqlite3.Database | undefined;
    try {
      handle = new Sqlite(file, { timeout: SQLITE_STATEMENT_BUSY_MS });
      handle.pragma('journal_mode = WAL');
      handle.pragma('synchronous = FULL');
      handle.pragma('foreign_keys = ON');
    } catch (error) {
      // A file that is not a database opens, then fails its first pragma: not left open.
      handle?.close();
      throw databaseError('open the database', error, 'sqlite', file);
    }
    return new SqlDatabase('sqlite', new Kysely<StoreSchema>({ dialect: sqliteDialect(handle, options) }), file, handle);
  }

  /** Connects to PostgreSQL at `url` (`where`: the URL with its password masked). */
  static async postgres(url: string, where: string, options: DatabaseOptions = {}): Promise<SqlDatabase> {
    const { default: pgModule } = await import('pg');
    const pool = new pgModule.Pool({
      connectionString: url,
      max: 10,
      idleTimeoutMillis: 30_000,
      // bigint columns (sequences, milliseconds) as numbers: every value the store keeps is below 2^53.
      types: { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pgModule.types.getTypeParser(oid, format as 'text')) } as pg.CustomTypesConfig,
      // A connection that cannot be made (or a free client waited for) in this time fails the request with a 503, never hangs it.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A server that vanished without closing the connection (a network cut) is noticed by the operating system.
      keepAlive: true,
    });
    keepClientsFromCrashing(pool);
    return new SqlDatabase('postgres', new Kysely<StoreSchema>({ dialect: postgresDialect(pool, options) }), where, null);
  }

  /** Runs reads (or a single statement) outside a transaction; a database error becomes a StoreError naming `doing`. */
  async read<T>(doing: string, work: (db: Db) => Promise<T>): Promise<T> {
    try {
      return await work(this.db);
    } catch (error) {
      throw databaseError(doing, error, this.kind, this.where);
    }
  }

  /**
   * Runs `work` in one write transaction (shared with the writes asked for at the same time, each in a
   * savepoint of its own: decision 0042): committed (durably) when it resolves, rolled back when it
   * throws (rethrown as a StoreError naming `doing`; a Rollback resolves with its value instead).
   */
  write<T, U = never>(doing: string, work: (tx: Tx) => Promise<T>): Promise<T | U> {
    return this.#commits.write<T, U>(doing, work);
  }

  /** A record's JSON text as stored; a StoreError ('corrupt') naming the database when it is not JSON. */
  parse<T>(text: string, what: string): T {
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new StoreError(
        'corrupt',
        this.where,
        `A stored ${what} in ${this.where} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Restore the newest backup (docs/deployment.md); \`blogpost doctor\` checks the store.`,
        error,
      );
    }
  }

  /**
   * Inside a write: waits for every other write taking the same lock (PostgreSQL: a transaction-scoped
   * advisory lock; SQLite: nothing more, since its write transactions run one at a time already).
   */
  async lock(tx: Tx, key: number): Promise<void> {
    if (this.kind === 'postgres') await tx.executeQuery(CompiledQuery.raw(`SELECT pg_advisory_xact_lock(${Math.trunc(key)})`));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
