/**
 * The store contract (api/store/store-contract.ts) on PostgreSQL: the same suite SQLite passes
 * (api/store/sql/sql-store.test.ts), each test on a database of its own on the throwaway server of this run.
 */
import { inject } from 'vitest';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { describeStoreContract } from '../../api/store/store-contract';
import type { Store } from '../../api/store/store';
import { freshDatabase } from '../support/postgres-cluster';

/** The error PostgreSQL gives when its disk is full (SQLSTATE 53100). */
function diskFull(): Error {
  return Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
}

describeStoreContract('PostgreSQL', async () => {
  const url = await freshDatabase(inject('postgresUrl'), 'contract');
  let failNext = false;
  const beforeQuery = (sql: string) => {
    if (failNext && /^\s*(insert into|update) (?!"?store_meta\b)/i.test(sql)) {
      failNext = false;
      throw diskFull();
    }
  };
  const opened: Store[] = [];
  const open = async () => {
    const store = await openPostgresStore(url, 'PostgreSQL', { beforeQuery });
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
    },
  };
});
