/**
 * What a database error means, as databaseError says it: PostgreSQL out of reach (down, restarting,
 * refusing or dropping connections, too slow to connect) is `unavailable`, a 503 to retry shortly, and
 * nothing else is; the errors are made as pg, pg-pool and Node make them. tests/postgres/outage.test.ts
 * stops a real server under load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { isStoreUnavailable, StoreError, storeErrorCode } from '../store-error';
import { databaseError, GROUP_COMMIT_MOST, isUnreachable, KEPT_STATEMENTS, keepClientsFromCrashing, keptStatements, Rollback, SqlDatabase, type Tx } from './database';

/** An error PostgreSQL sent, as pg gives it: a DatabaseError with the SQLSTATE as `code`. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

/** A socket error as Node gives it. */
function socketError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, errno: -1, syscall: 'connect' });
}

const postgres = (error: unknown) => databaseError('store the post', error, 'postgres', 'postgres://app:***@db:5432/site');

describe('a PostgreSQL server out of reach', () => {
  const unreachable: Array<[string, unknown]> = [
    ['57P01 terminating connection due to administrator command (pg_ctl stop -m fast)', serverError('57P01', 'terminating connection due to administrator command')],
    ['57P02 terminating connection because of crash of another server process', serverError('57P02', 'terminating connection because of crash of another server process')],
    ['57P03 the database system is shutting down', serverError('57P03', 'the database system is shutting down')],
    ['57P03 the database system is starting up', serverError('57P03', 'the database system is starting up')],
    ['08006 connection failure', serverError('08006', 'connection failure')],
    ['53300 sorry, too many clients already', serverError('53300', 'sorry, too many clients already')],
    ['ECONNREFUSED (nothing listens)', socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', socketError('ECONNRESET', 'read ECONNRESET')],
    ['ETIMEDOUT', socketError('ETIMEDOUT', 'connect ETIMEDOUT 10.0.0.5:5432')],
    ['ENOENT (no Unix socket: the server is not running)', socketError('ENOENT', 'connect ENOENT /run/postgresql/.s.PGSQL.5432')],
    ['EAI_AGAIN (the host name cannot be resolved for now)', socketError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN db.internal')],
    ['pg: the connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['pg: a client whose connection failed, asked again', new Error('Client has encountered a connection error and is not queryable')],
    ['pg-pool: no free client in time', new Error('timeout exceeded when trying to connect')],
    ['pg-pool: connecting took too long', new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') })],
    ['a wrapper whose cause is a refused connection', new Error('query failed', { cause: socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432') })],
    ['every address of a host name refused (AggregateError)', new AggregateError([socketError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432'), socketError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')])],
  ];

  it.each(unreachable)('%s is unavailable: storage_unavailable, a 503 to retry', (_name, error) => {
    expect(isUnreachable(error)).toBe(true);
    const stored = postgres(error);
    expect(stored.problem).toBe('unavailable');
    expect(storeErrorCode(stored)).toBe('storage_unavailable');
    expect(isStoreUnavailable(stored)).toBe(true);
    expect(stored.cause).toBe(error);
    expect(stored.message).toMatch(/^Cannot store the post: PostgreSQL at postgres:\/\/app:\*\*\*@db:5432\/site cannot be reached \(.+\)\. Requests that need it answer 503 until it is back/);
  });

  const reachable: Array<[string, unknown, string]> = [
    ['23505 a unique key taken', serverError('23505', 'duplicate key value violates unique constraint "post_slugs_pkey"'), 'conflict'],
    ['53100 the server\'s disk is full', serverError('53100', 'could not extend file: No space left on device'), 'full'],
    ['25006 a read-only standby', serverError('25006', 'cannot execute INSERT in a read-only transaction'), 'read_only'],
    ['28P01 a wrong password (a setting to fix, not a restart to wait out)', serverError('28P01', 'password authentication failed for user "app"'), 'unwritable'],
    ['3D000 no such database', serverError('3D000', 'database "site" does not exist'), 'unwritable'],
    ['42P01 a missing table', serverError('42P01', 'relation "posts" does not exist'), 'unwritable'],
    ['a bug of ours', new TypeError("Cannot read properties of undefined (reading 'id')"), 'unwritable'],
    ['a value thrown that is not an Error', 'ECONNREFUSED', 'unwritable'],
  ];

  it.each(reachable)('%s is not "unavailable"', (_name, error, problem) => {
    expect(isUnreachable(error)).toBe(false);
    expect(postgres(error).problem).toBe(problem);
  });

  it('keeps a StoreError as it is, and leaves SQLite\'s errors to SQLite\'s rules', () => {
    const already = new StoreError('conflict', 'PostgreSQL', 'taken');
    expect(postgres(already)).toBe(already);
    // A code that means "unreachable" for a server means nothing of the kind for a file.
    expect(databaseError('store the post', socketError('ENOENT', 'no such file'), 'sqlite', '/data/store.sqlite').problem).toBe('unwritable');
  });

  it('stops looking through causes that loop', () => {
    const looped = new Error('outer');
    Object.assign(looped, { cause: looped });
    expect(isUnreachable(looped)).toBe(false);
  });
});

describe('the pool\'s clients', () => {
  it('hears the error of a checked-out client, which otherwise ends the process (an unhandled "error" event)', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://app@127.0.0.1:1/none' });
    try {
      const client = new pg.Client();
      // Without a listener, an 'error' event throws: in a real client, from a socket callback, ending the process.
      expect(() => client.emit('error', serverError('57P01', 'terminating connection due to administrator command'))).toThrow('administrator command');
      keepClientsFromCrashing(pool);
      // pg-pool emits 'connect' for every client it makes, before handing it out (and removing its idle listener).
      pool.emit('connect', client);
      expect(() => client.emit('error', serverError('57P01', 'terminating connection due to administrator command'))).not.toThrow();
      expect(() => pool.emit('error', new Error('Connection terminated unexpectedly'), client)).not.toThrow();
    } finally {
      await pool.end();
    }
  });
});

describe('a SQLite write the disk refuses', () => {
  it('is a full disk (507), not a failed ROLLBACK, when SQLite has already rolled the transaction back itself', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-sqlite-full-'));
    const database = await SqlDatabase.sqlite(path.join(dir, 'store.sqlite'));
    try {
      await sql`CREATE TABLE t (x INTEGER)`.execute(database.db);
      // What SQLite does when the disk fills while it writes the transaction (seen on a full tmpfs):
      // it ends the transaction itself and the statement fails with SQLITE_FULL.
      const written = database.write('store the post', async (tx) => {
        await sql`INSERT INTO t VALUES (1)`.execute(tx);
        await sql`ROLLBACK`.execute(tx);
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      });
      const error = await written.then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(StoreError);
      expect(error).toMatchObject({ problem: 'full', message: expect.stringContaining('database or disk is full') });
      expect(storeErrorCode(error as StoreError)).toBe('storage_full');
      // The connection is usable afterwards, and nothing of the refused write is there.
      await database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (2)`.execute(tx));
      expect((await sql<{ x: number }>`SELECT x FROM t`.execute(database.db)).rows).toEqual([{ x: 2 }]);
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A SQLite database in a folder of its own with a table `t (x)`, and how many transactions it began. */
async function scratch() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-sqlite-group-'));
  const file = path.join(dir, 'store.sqlite');
  const database = await SqlDatabase.sqlite(file);
  await sql`CREATE TABLE t (x INTEGER UNIQUE)`.execute(database.db);
  await sql`CREATE TABLE parent (id INTEGER PRIMARY KEY)`.execute(database.db);
  // Checked when the transaction commits: a way to make a real COMMIT fail.
  await sql`CREATE TABLE child (parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`.execute(database.db);
  // Every transaction begins with BEGIN IMMEDIATE, sent by the driver itself.
  const begin = vi.spyOn(database.sqlite as BetterSqlite3.Database, 'exec');
  const stored = async () => (await sql<{ x: number }>`SELECT x FROM t ORDER BY x`.execute(database.db)).rows.map((row) => row.x);
  const transactions = () => begin.mock.calls.filter(([text]) => text === 'BEGIN IMMEDIATE').length;
  const cleanUp = async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { database, file, stored, transactions, begin, cleanUp };
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** What SQLite does when the disk fills while it writes a transaction: it ends the transaction itself. */
async function fillTheDisk(tx: Tx): Promise<never> {
  await sql`ROLLBACK`.execute(tx);
  throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

/** Three writes asked for together: the first and third store 1 and 3 (answering 'one' and 'three'); the second is `second`. */
function aroundOne(database: SqlDatabase, second: (tx: Tx) => Promise<unknown>) {
  return Promise.all([
    settled(database.write('store the first post', async (tx) => sql`INSERT INTO t VALUES (1)`.execute(tx).then(() => 'one'))),
    settled(database.write('store the second post', second)),
    settled(database.write('store the third post', async (tx) => sql`INSERT INTO t VALUES (3)`.execute(tx).then(() => 'three'))),
  ]);
}

describe('SQLite writes asked for together (group commit, decision 0042)', () => {
  it('commits writes asked for at once in one transaction, each with its own answer', async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          database.write('store the post', async (tx) => {
            await sql`INSERT INTO t VALUES (${index})`.execute(tx);
            return `stored ${index}`;
          }),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 30 }, (_, index) => `stored ${index}`));
      expect(await stored()).toEqual(Array.from({ length: 30 }, (_, index) => index));
      expect(transactions()).toBe(1);
      // A write alone still commits by itself.
      await database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (100)`.execute(tx));
      expect(transactions()).toBe(2);
    } finally {
      await cleanUp();
    }
  });

  it(`commits at most ${GROUP_COMMIT_MOST} writes in one transaction, in the order they were asked for`, async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      const order: number[] = [];
      const count = GROUP_COMMIT_MOST * 2 + 1;
      await Promise.all(
        Array.from({ length: count }, (_, index) =>
          database.write('store the post', async (tx) => {
            order.push(index);
            await sql`INSERT INTO t VALUES (${index})`.execute(tx);
          }),
        ),
      );
      expect(order).toEqual(Array.from({ length: count }, (_, index) => index));
      expect((await stored()).length).toBe(count);
      expect(transactions()).toBe(3);
    } finally {
      await cleanUp();
    }
  });

  it('keeps the writes asked for while a transaction runs for the next one, which they share', async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const first = database.write('store the post', async (tx) => {
        await sql`INSERT INTO t VALUES (0)`.execute(tx);
        await held;
      });
      // Ten more, each asked for in a later turn of the event loop while the first transaction is open.
      const later: Array<Promise<unknown>> = [];
      for (let index = 1; index <= 10; index++) {
        await new Promise((resolve) => setImmediate(resolve));
        later.push(database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (${index})`.execute(tx)));
      }
      release();
      await Promise.all([first, ...later]);
      expect(await stored()).toEqual(Array.from({ length: 11 }, (_, index) => index));
      expect(transactions()).toBe(2);
    } finally {
      await cleanUp();
    }
  });

  it('fails every write of a group whose BEGIN failed, without running any of them again', async () => {
    const { database, stored, transactions, begin, cleanUp } = await scratch();
    try {
      // The next statement the handle executes is the group's BEGIN IMMEDIATE.
      begin.mockImplementationOnce(() => {
        throw Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
      });
      const outcomes = await Promise.all([1, 2, 3].map((x) => settled(database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (${x})`.execute(tx)))));
      for (const outcome of outcomes) expect(outcome).toMatchObject({ error: { message: expect.stringContaining('Cannot store the post') } });
      expect(await stored()).toEqual([]);
      await database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (4)`.execute(tx));
      expect(await stored()).toEqual([4]);
      expect(transactions()).toBe(2);
    } finally {
      await cleanUp();
    }
  });

  it('undoes only the write that failed or rolled back; the others of its transaction are stored', async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      const outcomes = await Promise.all([
        settled(database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (1)`.execute(tx).then(() => 'one'))),
        settled(
          database.write('store the second post', async (tx) => {
            await sql`INSERT INTO t VALUES (2)`.execute(tx);
            await sql`INSERT INTO t VALUES (1)`.execute(tx); // taken: a constraint error
          }),
        ),
        settled(
          database.write<string, string>('store the third post', async (tx) => {
            await sql`INSERT INTO t VALUES (3)`.execute(tx);
            throw new Rollback('slug taken');
          }),
        ),
        settled(database.write('store the fourth post', async (tx) => sql`INSERT INTO t VALUES (4)`.execute(tx).then(() => 'four'))),
      ]);
      expect(outcomes[0]).toEqual({ value: 'one' });
      expect(outcomes[1]).toMatchObject({ error: { problem: 'conflict', message: expect.stringContaining('Cannot store the second post') } });
      expect(outcomes[2]).toEqual({ value: 'slug taken' });
      expect(outcomes[3]).toEqual({ value: 'four' });
      expect(await stored()).toEqual([1, 4]);
      expect(transactions()).toBe(1);
    } finally {
      await cleanUp();
    }
  });

  it('runs each write again alone when the commit fails, so only the write that caused it fails', async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      // A row whose parent is missing: SQLite refuses it only at COMMIT (a deferred foreign key).
      const outcomes = await aroundOne(database, async (tx) => sql`INSERT INTO child VALUES (7)`.execute(tx));
      expect(outcomes[0]).toEqual({ value: 'one' });
      expect(outcomes[1]).toMatchObject({ error: { problem: 'conflict', message: 'Cannot store the second post: FOREIGN KEY constraint failed.' } });
      expect(outcomes[2]).toEqual({ value: 'three' });
      expect(await stored()).toEqual([1, 3]);
      expect((await sql<{ n: number }>`SELECT count(*) AS n FROM child`.execute(database.db)).rows).toEqual([{ n: 0 }]);
      // The three together, then each alone.
      expect(transactions()).toBe(4);
    } finally {
      await cleanUp();
    }
  });

  it('answers none of the writes SQLite undid itself (a full disk) as stored, and stores the others alone', async () => {
    const { database, stored, transactions, cleanUp } = await scratch();
    try {
      const outcomes = await aroundOne(database, async (tx) => {
        await sql`INSERT INTO t VALUES (2)`.execute(tx);
        return fillTheDisk(tx);
      });
      expect(outcomes[0]).toEqual({ value: 'one' });
      expect(outcomes[1]).toMatchObject({ error: { problem: 'full', message: expect.stringContaining('Cannot store the second post') } });
      expect(outcomes[2]).toEqual({ value: 'three' });
      expect(await stored()).toEqual([1, 3]);
      expect(transactions()).toBe(4);
      // Alone, it fails with what ended it, and the next write is stored.
      expect(await settled(database.write('store the post', fillTheDisk))).toMatchObject({ error: { problem: 'full' } });
      await database.write('store the post', async (tx) => sql`INSERT INTO t VALUES (4)`.execute(tx));
      expect(await stored()).toEqual([1, 3, 4]);
    } finally {
      await cleanUp();
    }
  });

  it('answers a write only once another connection can read it from the file', async () => {
    const { database, file, cleanUp } = await scratch();
    const { default: Sqlite } = await import('better-sqlite3');
    const reader = new Sqlite(file, { readonly: true });
    try {
      const seen: number[][] = [];
      await Promise.all(
        [1, 2, 3].map((x) =>
          database
            .write('store the post', async (tx) => sql`INSERT INTO t VALUES (${x})`.execute(tx))
            .then(() => seen.push((reader.prepare('SELECT x FROM t ORDER BY x').all() as Array<{ x: number }>).map((row) => row.x))),
        ),
      );
      expect(seen).toEqual([
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
      ]);
    } finally {
      reader.close();
      await cleanUp();
    }
  });
});

describe('the statements SQLite keeps prepared', () => {
  it('prepares a query once and hands the same statement out again, its answers unchanged', async () => {
    const { default: Sqlite } = await import('better-sqlite3');
    const handle = new Sqlite(':memory:');
    const statements = keptStatements(handle);
    try {
      statements.prepare('CREATE TABLE t (n INTEGER)').run();
      const insert = statements.prepare('INSERT INTO t (n) VALUES (?)');
      for (let n = 1; n <= 3; n++) expect(statements.prepare('INSERT INTO t (n) VALUES (?)')).toBe(insert);
      for (let n = 1; n <= 3; n++) statements.prepare('INSERT INTO t (n) VALUES (?)').run(n);
      expect(statements.prepare('SELECT sum(n) AS total FROM t').get()).toEqual({ total: 6 });
      statements.prepare('INSERT INTO t (n) VALUES (?)').run(4);
      expect(statements.prepare('SELECT sum(n) AS total FROM t').get()).toEqual({ total: 10 });
    } finally {
      statements.close();
    }
    expect(handle.open).toBe(false);
  });

  it('gives a query its own statement while the kept one is still being read, and keeps at most KEPT_STATEMENTS', async () => {
    const { default: Sqlite } = await import('better-sqlite3');
    const handle = new Sqlite(':memory:');
    const statements = keptStatements(handle);
    try {
      handle.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3);');
      const reading = statements.prepare('SELECT n FROM t ORDER BY n');
      const rows = reading.iterate() as IterableIterator<{ n: number }>;
      expect(rows.next().value).toEqual({ n: 1 });
      // Mid-read, the same query again: a statement of its own, which reads from the start.
      const again = statements.prepare('SELECT n FROM t ORDER BY n');
      expect(again).not.toBe(reading);
      expect(again.all()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect([...rows]).toEqual([{ n: 2 }, { n: 3 }]);
      expect(statements.prepare('SELECT n FROM t ORDER BY n')).toBe(reading);

      // The least recently used goes first once there are more shapes than it keeps.
      for (let i = 0; i < KEPT_STATEMENTS; i++) statements.prepare(`SELECT ${i} AS i`);
      expect(statements.prepare('SELECT n FROM t ORDER BY n')).not.toBe(reading);
      const recent = statements.prepare(`SELECT ${KEPT_STATEMENTS - 1} AS i`);
      expect(statements.prepare(`SELECT ${KEPT_STATEMENTS - 1} AS i`)).toBe(recent);
    } finally {
      statements.close();
    }
  });
});
