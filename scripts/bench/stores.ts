/**
 * The store a benchmark process opens on its target: a PostgreSQL database for a `postgres://` URL
 * (the store `DATABASE_URL` selects), else the SQLite store in a data directory (the default).
 */
import { openStore, storeLocation } from '../../api/store/open-store';
import type { Store } from '../../api/store/store';

/** Whether `target` names a PostgreSQL database rather than a data directory. */
export function isDatabaseUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//.test(target);
}

/** Opens the store at `target`: PostgreSQL for a `postgres://` URL, else the SQLite store of that data directory. */
export function openBenchStore(target: string): Promise<Store> {
  return openStore(isDatabaseUrl(target) ? storeLocation({ DATABASE_URL: target }) : { kind: 'sqlite', dataDir: target });
}
