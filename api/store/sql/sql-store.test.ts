/**
 * The store contract (api/store/store-contract.ts) on SQLite, each test in a data directory of its own;
 * tests/postgres/store-contract.test.ts runs the same suite on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeStoreContract } from '../store-contract';
import type { Store } from '../store';
import { openSqliteStore } from './sql-store';

/** The error SQLite gives when its disk is full. */
function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
}

describeStoreContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-sql-store-'));
  let failNext = false;
  const beforeQuery = (sql: string) => {
    if (failNext && /^\s*(insert into|update) (?!"?store_meta\b)/i.test(sql)) {
      failNext = false;
      throw diskFull();
    }
  };
  const opened: Store[] = [];
  const open = async () => {
    const store = await openSqliteStore(dir, { beforeQuery });
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    failNextWrite: () => {
      failNext = true;
    },
    cleanup: async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
