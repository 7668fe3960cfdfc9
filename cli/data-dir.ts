/**
 * Which store a command works on, and opening it. `blogpost keys|staff|leads|audit|seed` and `export`
 * / `import` work on the store the servers use: `--data-dir DIR` (the SQLite database there), else
 * `--database-url URL`, else DATABASE_URL (PostgreSQL), else DATA_DIR, else data/ in the project.
 *
 * Either way the whole store is opened through the seam (migrated first, as a server does) and closed
 * after. A running server keeps the same SQLite file open meanwhile: SQLite's own locking lets them
 * share it (every write transaction waits its turn), and the server sees each change at its next read.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { databaseFileOf, openStore, redactedUrl, type Store, StoreError, type StoreLocation, storeLocation } from '../api/operations';
import type { CommandContext } from './context';
import { CliError, ExitCode } from './exit-codes';

export interface LocationOptions {
  dataDir?: string;
  databaseUrl?: string;
}

/** A whole store opened through the seam. */
export type CliStore = Store;

/** The store the options and environment name; exit code 2 for both options at once or a DATABASE_URL that is not PostgreSQL's. */
export function storeLocationOf(options: LocationOptions, ctx: CommandContext): StoreLocation {
  if (options.databaseUrl && options.dataDir) throw new CliError('Pass --data-dir or --database-url, not both.', ExitCode.Usage);
  if (options.dataDir) return { kind: 'sqlite', dataDir: path.resolve(ctx.io.cwd, options.dataDir) };
  try {
    return storeLocation(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : ctx.io.env);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), ExitCode.Usage);
  }
}

/** Where a location is, for messages: the data directory, or `PostgreSQL at postgres://app@db/site` (never a password). */
export function placeOf(location: StoreLocation): string {
  return location.kind === 'sqlite' ? location.dataDir : `PostgreSQL at ${redactedUrl(location.url)}`;
}

/**
 * Whether there is a store at `location` yet: a data directory without its database file has none (the
 * server makes it at its first start). A PostgreSQL database is always there (opening it migrates it).
 */
export function storeExists(location: StoreLocation): boolean {
  return location.kind === 'postgres' || existsSync(databaseFileOf(location.dataDir));
}

/**
 * Opens the whole store at `location` (creating the database of a data directory when missing); a store
 * that cannot be opened (a damaged file, a database out of reach) ends the command with exit code 4.
 */
export async function openCliStore(location: StoreLocation): Promise<CliStore> {
  try {
    return await openStore(location);
  } catch (error) {
    // What the database client says about a URL it cannot use, naming the URL without its password.
    if (location.kind === 'postgres' && error instanceof Error) throw new CliError(`Cannot open the database at ${redactedUrl(location.url)}: ${error.message}`, ExitCode.Local);
    // A SQLite file's problems name the file already.
    if (error instanceof StoreError) throw new CliError(error.message, ExitCode.Local);
    throw error;
  }
}

/**
 * Runs `work` on the store at `location`, closing it after (when `work` fails too). A store problem
 * ends the command: exit code 1 when the change clashes with what is stored (a staff account with that
 * e-mail exists already), else 4 (the store cannot be read or written).
 */
export async function withStoreAt<T>(location: StoreLocation, work: (store: CliStore) => Promise<T>): Promise<T> {
  try {
    const store = await openCliStore(location);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, error.problem === 'conflict' ? ExitCode.Failed : ExitCode.Local);
    throw error;
  }
}

/**
 * `withStoreAt` for the commands that only read or change what is there: null, and nothing made, when
 * a data directory has no database yet (a mistyped --data-dir must not leave a new store behind).
 */
export async function withExistingStoreAt<T>(location: StoreLocation, work: (store: CliStore) => Promise<T>): Promise<T | null> {
  return storeExists(location) ? withStoreAt(location, work) : null;
}

/**
 * Reads from the store of a data directory without making one (`blogpost diagnose` looking up a key):
 * null when it has no database yet. A StoreError passes through, for the caller to report as it sees fit.
 */
export async function readDataDirStore<T>(dataDir: string, work: (store: CliStore) => Promise<T>): Promise<T | null> {
  const location: StoreLocation = { kind: 'sqlite', dataDir };
  if (!storeExists(location)) return null;
  const store = await openStore(location);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
