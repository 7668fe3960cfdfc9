/**
 * The store seam (store.ts) over one SQL implementation and two engines: SQLite, one file in DATA_DIR
 * (the default), and PostgreSQL (DATABASE_URL), for several app servers sharing one database. Opening
 * applies the migrations the database lacks (once, however many processes open it together). Every
 * write resolves once its transaction has committed durably.
 *
 * Cached pages follow `posts.revision()`, each process's own count of the post changes it learnt of
 * (decision 0036): SQLite notices another process's change through `PRAGMA data_version`; PostgreSQL
 * servers hear each other's changes, with what each reached, through LISTEN/NOTIFY.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { databaseFileOf, MEDIA_DIR } from '../data-dir';
import type { Store } from '../store';
import { hasLegacyData, importLegacyDataDir, legacyImportStopped } from '../legacy/import-file-store';
import { StoreError } from '../store-error';
import { CONNECT_TIMEOUT_MS, type DatabaseOptions, SqlDatabase, databaseError } from './database';
import { SqlIndieAuthCodeRepository } from './indieauth';
import { SqlAnalyticsRepository } from './analytics';
import { SqlArchiveRepository } from './archive';
import { SqlKeyRepository } from './keys';
import { SqlLeadRepository, SqlOutboxRepository } from './leads';
import { SqlImportRepository } from './imports';
import { SqlMediaRepository } from './media';
import { FIRST_MIGRATION, migrate } from './migrations';
import { POSTS_CHANGED_CHANNEL, readPostsChanged, SqlPostRepository } from './posts';
import { sqlRateLimits } from './rate-limits';
import { SqlAuditLog, SqlSessionRepository, SqlStaffRepository } from './staff';


export interface OpenSqlStoreOptions extends DatabaseOptions {
  now?: () => Date;
  /** Where the store says what it did on its own (migrations applied, the listener reconnecting). */
  log?: (line: string) => void;
}

/** How long the PostgreSQL listener waits before connecting again after losing its connection: doubled after each failure, up to the most. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MOST_MS = 5_000;

/**
 * LISTENs for post changes on a PostgreSQL connection of its own, reconnecting when it drops (with a
 * back-off while the server stays away). Changes committed while it was not listening were not heard:
 * after each reconnect it reports one change of everything (`onChange(null)`), once LISTEN holds, so a
 * page made from what was read before is not kept. Its client listens for `error` from before it
 * connects until it is gone, so nothing the server does can end the process; a client that failed
 * halfway is closed, and only a client that is fully set up is the one whose loss starts a reconnect,
 * so there is never more than one attempt under way.
 */
class ChangeListener {
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;
  #delay = RECONNECT_FIRST_MS;
  #connectedBefore = false;

  constructor(
    private readonly url: string,
    /** The store's own origin: its notifications were noted at their commit. */
    private readonly origin: string,
    private readonly onChange: (scopes: readonly string[] | null) => void,
    private readonly log: (line: string) => void,
  ) {}

  async connect(): Promise<void> {
    const { default: pgModule } = await import('pg');
    const client = new pgModule.Client({ connectionString: this.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    client.on('notification', (message) => {
      if (message.channel !== POSTS_CHANGED_CHANNEL || this.#client !== client) return;
      const change = readPostsChanged(message.payload);
      if (change && change.origin !== this.origin) this.onChange(change.scopes ?? null);
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${POSTS_CHANGED_CHANNEL}`);
      if (this.#closed) throw new Error('the store was closed');
      this.#client = client;
      // The first connect comes before the store is handed out: nothing was read, nothing was missed.
      if (this.#connectedBefore) this.onChange(null);
      this.#connectedBefore = true;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  #lost(client: pg.Client): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    this.#delay = RECONNECT_FIRST_MS;
    this.log('The connection that follows post changes from other instances was lost; connecting again.');
    this.#schedule();
  }

  #schedule(): void {
    const again = () => {
      this.#retry = undefined;
      if (this.#closed) return;
      this.connect().then(
        () => this.log('Following post changes from other instances again.'),
        () => {
          this.#delay = Math.min(this.#delay * 2, RECONNECT_MOST_MS);
          this.#schedule();
        },
      );
    };
    this.#retry = setTimeout(again, this.#delay);
    this.#retry.unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
  }
}

async function migrated(database: SqlDatabase, log: (line: string) => void): Promise<boolean> {
  let applied: string[];
  try {
    applied = await migrate(database.db, database.kind);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw databaseError('prepare the database (apply its migrations)', error, database.kind, database.where);
  }
  if (applied.length > 0) log(`Applied database migration(s) ${applied.join(', ')} to ${database.where}.`);
  // The process that made the schema made the store (and seeds it, like an empty data directory).
  return applied.includes(FIRST_MIGRATION);
}

function assemble(database: SqlDatabase, now: () => Date, created: boolean, mediaDir: string | null): { store: Store; posts: SqlPostRepository } {
  const posts = new SqlPostRepository(database, now);
  const store: Store = {
    posts,
    keys: new SqlKeyRepository(database),
    leads: new SqlLeadRepository(database),
    outbox: new SqlOutboxRepository(database),
    staff: new SqlStaffRepository(database),
    sessions: new SqlSessionRepository(database),
    audit: new SqlAuditLog(database),
    media: new SqlMediaRepository(database, mediaDir),
    indieAuthCodes: new SqlIndieAuthCodeRepository(database),
    archive: new SqlArchiveRepository(database, now),
    imports: new SqlImportRepository(database),
    analytics: new SqlAnalyticsRepository(database),
    created,
    close: () => database.close(),
  };
  return { store, posts };
}

/** Opens (creating it when missing) the store in `dataDir`: its SQLite file and its media folder. */
export async function openSqliteStore(dataDir: string, options: OpenSqlStoreOptions = {}): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  try {
    mkdirSync(path.join(dataDir, MEDIA_DIR), { recursive: true });
  } catch (error) {
    throw databaseError('create the data directory', error, 'sqlite', dataDir);
  }
  const database = await SqlDatabase.sqlite(databaseFileOf(dataDir), options);
  const created = await migrated(database, log);
  const { store } = assemble(database, now, created, path.join(dataDir, MEDIA_DIR));
  // A data directory of the file store (or one whose import stopped): its data moves into the database, which is then not a new store (nothing is seeded).
  if (created ? hasLegacyData(dataDir) : legacyImportStopped(dataDir)) {
    try {
      await importLegacyDataDir(dataDir, store, { log, now });
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
    return { ...store, created: false };
  }
  return store;
}

/** Opens the store in the PostgreSQL database at `url` (`where`: the URL as messages may show it), migrating it first. */
export async function openPostgresStore(url: string, where: string, options: OpenSqlStoreOptions = {}): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const database = await SqlDatabase.postgres(url, where, options);
  const created = await migrated(database, log);
  const { store, posts } = assemble(database, now, created, null);
  const listeners = new Set<() => void>();
  const listener = new ChangeListener(
    url,
    posts.origin,
    (scopes) => {
      posts.noteChange(scopes);
      for (const notify of listeners) notify();
    },
    log,
  );
  try {
    await listener.connect();
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error instanceof StoreError ? error : databaseError('follow post changes', error, 'postgres', where);
  }
  return {
    ...store,
    rateLimits: sqlRateLimits(database, () => now().getTime()),
    onPostsChanged: (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
    close: async () => {
      await listener.close();
      await database.close();
    },
  };
}
