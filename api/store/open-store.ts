/**
 * Which store the environment names, and opening it: `DATABASE_URL` (postgres:// or postgresql://)
 * selects PostgreSQL, for several app servers sharing one database; without it, the embedded SQLite
 * database in DATA_DIR. Both are the same SQL implementation (api/store/sql/). The server and the CLI
 * decide the same way.
 */
import { SiteConfigError } from '../../contract/site-config-env';
import { resolveDataDir } from './data-dir';
import { redactedUrl } from './redacted-url';
import type { OpenSqlStoreOptions } from './sql/sql-store';
import type { Store } from './store';

export type StoreLocation = { kind: 'sqlite'; dataDir: string } | { kind: 'postgres'; url: string };

/** The store DATABASE_URL or DATA_DIR names; a SiteConfigError for a DATABASE_URL that is not a PostgreSQL URL. */
export function storeLocation(env: Record<string, string | undefined>): StoreLocation {
  const url = env.DATABASE_URL?.trim();
  if (!url) return { kind: 'sqlite', dataDir: resolveDataDir(env) };
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new SiteConfigError('DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/database, or unset for the embedded database in DATA_DIR');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new SiteConfigError(`DATABASE_URL must start with postgres:// or postgresql:// (it starts with ${protocol}//); unset it for the embedded database in DATA_DIR`);
  }
  return { kind: 'postgres', url };
}

/** How a location reads in a log line or a message (never a password). */
export function describeLocation(location: StoreLocation): string {
  return location.kind === 'sqlite' ? `data in ${location.dataDir}` : `data in PostgreSQL at ${redactedUrl(location.url)}`;
}

export type OpenStoreOptions = Pick<OpenSqlStoreOptions, 'log' | 'now'>;

/**
 * Opens the store at a location, applying the migrations its database lacks. The SQL store (Kysely and
 * the database drivers) is loaded here, when a store is opened, so `blogpost` commands that open none
 * start without it (docs/decisions/0008).
 */
export async function openStore(location: StoreLocation, options: OpenStoreOptions = {}): Promise<Store> {
  const { openPostgresStore, openSqliteStore } = await import('./sql/sql-store');
  if (location.kind === 'sqlite') return openSqliteStore(location.dataDir, options);
  return openPostgresStore(location.url, redactedUrl(location.url), options);
}
