/**
 * Which store a command works on, and opening it. `blogpost keys|staff|leads|audit|seed` and `export`
 * / `import` work on the store the servers use: `--data-dir DIR` (the file store there), else
 * `--database-url URL`, else DATABASE_URL (PostgreSQL), else DATA_DIR, else data/ in the project.
 *
 * PostgreSQL is opened whole through the store seam (migrated first, as a server does) and closed
 * after. A data directory is opened only as far as a command needs (its keys, staff accounts, leads or
 * audit log, never the posts: opening the posts would tidy files a running server beside it is
 * writing). Either way the command then works on the same repositories (api/store/store.ts).
 */
import path from 'node:path';
import { openStore, redactedUrl, StoreError, type StoreLocation, storeLocation } from '../api/operations';
import type { CommandContext } from './context';
import { CliError, ExitCode } from './exit-codes';

export interface LocationOptions {
  dataDir?: string;
  databaseUrl?: string;
}

/** A whole store opened through the seam. */
export type CliStore = Awaited<ReturnType<typeof openStore>>;

/** The store the options and environment name; exit code 2 for both options at once or a DATABASE_URL that is not PostgreSQL's. */
export function storeLocationOf(options: LocationOptions, ctx: CommandContext): StoreLocation {
  if (options.databaseUrl && options.dataDir) throw new CliError('Pass --data-dir or --database-url, not both.', ExitCode.Usage);
  if (options.dataDir) return { kind: 'file', dataDir: path.resolve(ctx.io.cwd, options.dataDir) };
  try {
    return storeLocation(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : ctx.io.env);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), ExitCode.Usage);
  }
}

/** Where a location is, for messages: the data directory, or `PostgreSQL at postgres://app@db/site` (never a password). */
export function placeOf(location: StoreLocation): string {
  return location.kind === 'file' ? location.dataDir : `PostgreSQL at ${redactedUrl(location.url)}`;
}

/** Opens the whole store at `location`; a store that cannot be opened (a database out of reach) ends the command with exit code 4. */
export async function openCliStore(location: StoreLocation): Promise<CliStore> {
  try {
    return await openStore(location);
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, ExitCode.Local);
    // What the database client says about a URL it cannot use, without the URL (it may hold a password).
    if (location.kind === 'postgres' && error instanceof Error) throw new CliError(`Cannot open the database at ${redactedUrl(location.url)}: ${error.message}`, ExitCode.Local);
    throw error;
  }
}

/**
 * How a command opens what it needs: from a data directory (`Opened` is `R | null` when there may be no
 * store there yet; `R` when the part is always there, as the audit log), or from a whole store.
 */
export interface StoreParts<R, Opened extends R | null = R | null> {
  file: (dataDir: string) => Promise<Opened>;
  store: (store: CliStore) => R;
}

/**
 * Runs `work` on the part of the store at `location` a command needs, closing what was opened after
 * (a database connection too when `work` fails). A store problem ends the command: exit code 1 when
 * the change clashes with what is stored (a staff account with that email exists already), else 4
 * (the store cannot be read or written).
 */
export async function withStoreAt<R, T, Opened extends R | null = R | null>(
  location: StoreLocation,
  parts: StoreParts<R, Opened>,
  work: (opened: R | Opened) => Promise<T>,
): Promise<T> {
  try {
    if (location.kind === 'file') return await work(await parts.file(location.dataDir));
    const store = await openCliStore(location);
    try {
      return await work(parts.store(store));
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, error.problem === 'conflict' ? ExitCode.Failed : ExitCode.Local);
    throw error;
  }
}

/** The --data-dir and --database-url options' help, the same on every command that takes them. */
export const DATA_DIR_HELP = 'the data directory (default: $DATA_DIR, else data/ in the project; not used when $DATABASE_URL is set)';
export const DATABASE_URL_HELP = 'the PostgreSQL store at this URL, postgres://... (default: $DATABASE_URL when --data-dir is not given)';
