/**
 * The store contract (tests/support/store-contract.ts) on PostgreSQL: the same suite SQLite passes
 * (api/store/sql/sql-store.test.ts), each test on a database of its own on the throwaway server of this run.
 */
import { inject } from 'vitest';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { describeStoreContract, sqlStoreUnderTest } from '../support/store-contract';
import { freshDatabase } from '../support/postgres-cluster';

/** The error PostgreSQL gives when its disk is full (SQLSTATE 53100). */
function diskFull(): Error {
  return Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
}

describeStoreContract('PostgreSQL', async () => {
  const url = await freshDatabase(inject('postgresUrl'), 'contract');
  return sqlStoreUnderTest((options) => openPostgresStore(url, 'PostgreSQL', options), diskFull);
});
