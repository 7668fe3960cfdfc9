/**
 * What the CLI tests look at beside the commands they run: the store of a data directory (its SQLite
 * database), opened as a server would and closed after, so a test reads what a command stored.
 */
import { openSqliteStore } from '../../api/store/sql/sql-store';
import type { Store } from '../../api/store/store';

/** Runs `work` on the store in `dataDir` (made when missing), closing it after. */
export async function inStore<T>(dataDir: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openSqliteStore(dataDir);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
