/**
 * Group commit on PostgreSQL (decision 0042): writes asked for together share one transaction, each in
 * a savepoint of its own. A statement that fails leaves PostgreSQL's transaction marked failed, and
 * ROLLBACK TO SAVEPOINT takes it back, so only that write is undone; a connection lost in the middle
 * of a group loses the whole transaction, and each write then runs again alone on a new connection.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { SqlDatabase, type Tx } from '../../api/store/sql/database';
import { freshDatabase } from '../support/postgres-cluster';

const opened: SqlDatabase[] = [];

async function database(): Promise<SqlDatabase> {
  const url = await freshDatabase(inject('postgresUrl'), 'group_commit');
  const db = await SqlDatabase.postgres(url, 'PostgreSQL');
  opened.push(db);
  await sql`CREATE TABLE t (x INTEGER UNIQUE, txid BIGINT NOT NULL)`.execute(db.db);
  return db;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

/** Inserts `x` with the id of the (top-level) transaction it ran in. */
const insert = (x: number) => (tx: Tx) => sql`INSERT INTO t VALUES (${x}, txid_current())`.execute(tx).then(() => x);

async function rows(db: SqlDatabase): Promise<Array<{ x: number; txid: number }>> {
  return (await sql<{ x: number; txid: string }>`SELECT x, txid FROM t ORDER BY x`.execute(db.db)).rows.map((row) => ({ x: row.x, txid: Number(row.txid) }));
}

const settled = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/** Three writes asked for together: the first and third store 1 and 3, the second stores 2 and then does `then`. */
function aroundOne(db: SqlDatabase, then: (tx: Tx) => Promise<unknown>) {
  return Promise.all([
    settled(db.write('store the first post', insert(1))),
    settled(
      db.write('store the second post', async (tx) => {
        await insert(2)(tx);
        return then(tx);
      }),
    ),
    settled(db.write('store the third post', insert(3))),
  ]);
}

describe('PostgreSQL writes asked for together', () => {
  it('commits them in one transaction, each with its own answer', async () => {
    const db = await database();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, x) => db.write('store the post', insert(x))));
    expect(answers).toEqual(Array.from({ length: 20 }, (_, x) => x));
    const stored = await rows(db);
    expect(stored.map((row) => row.x)).toEqual(answers);
    expect(new Set(stored.map((row) => row.txid)).size).toBe(1);
  });

  it('undoes only the write whose statement failed; the transaction goes on and the others are stored', async () => {
    const db = await database();
    // The second takes 1 again: 23505, and the transaction is marked failed.
    const outcomes = await aroundOne(db, insert(1));
    expect(outcomes[0]).toEqual({ value: 1 });
    expect(outcomes[1]).toMatchObject({ error: { problem: 'conflict', message: expect.stringContaining('Cannot store the second post') } });
    expect(outcomes[2]).toEqual({ value: 3 });
    const stored = await rows(db);
    expect(stored.map((row) => row.x)).toEqual([1, 3]);
    expect(new Set(stored.map((row) => row.txid)).size).toBe(1);
  });

  it('runs each write again alone when the connection is lost in the middle, so only the write that lost it fails', async () => {
    const db = await database();
    // The server ends the second's session (57P01), as a restart or an administrator would.
    const outcomes = await aroundOne(db, (tx) => sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(tx));
    expect(outcomes[0]).toEqual({ value: 1 });
    expect(outcomes[1]).toMatchObject({ error: { problem: 'unavailable', message: expect.stringContaining('Cannot store the second post') } });
    expect(outcomes[2]).toEqual({ value: 3 });
    const stored = await rows(db);
    expect(stored.map((row) => row.x)).toEqual([1, 3]);
    // Each in a transaction of its own, on a new connection.
    expect(new Set(stored.map((row) => row.txid)).size).toBe(2);
    // And the store goes on.
    await db.write('store the post', insert(4));
    expect((await rows(db)).map((row) => row.x)).toEqual([1, 3, 4]);
  });
});
