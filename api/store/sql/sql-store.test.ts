/**
 * The store contract (tests/support/store-contract.ts) on SQLite, each test in a data directory of its own;
 * tests/postgres/store-contract.test.ts runs the same suite on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeStoreContract, sqlStoreUnderTest } from '../../../tests/support/store-contract';
import { openSqliteStore } from './sql-store';

/** The error SQLite gives when its disk is full. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

describeStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-sql-store-'));
  return sqlStoreUnderTest(
    (options) => openSqliteStore(dir, options),
    diskFull,
    () => rmSync(dir, { recursive: true, force: true }),
  );
});
