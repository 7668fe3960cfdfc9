/**
 * The PostgreSQL implementation of the store seam (store.ts), selected by `DATABASE_URL`, for several
 * app servers sharing one database. Opening applies the migrations the database lacks (once, however
 * many instances start together) and listens for post changes made by other instances, so each
 * instance's cached pages follow them. Every write resolves once its transaction has committed.
 */
import pg from 'pg';
import type { Store } from '../store';
import { Database, type DatabaseOptions, databaseError } from './database';
import { redactedUrl } from './redacted-url';
import { PgKeyRepository } from './keys';
import { PgLeadRepository, PgOutboxRepository } from './leads';
import { PgMediaRepository } from './media';
import { migrate } from './migrations';
import { PgPostRepository, POSTS_CHANGED_CHANNEL } from './posts';
import { pgRateLimits } from './rate-limits';
import { PgAuditLog, PgSessionRepository, PgStaffRepository } from './staff';

export interface OpenPgStoreOptions extends DatabaseOptions {
  now?: () => Date;
  /** Where the store says what it did on its own (migrations applied, the listener reconnecting). */
  log?: (line: string) => void;
}

/** How long the listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 1_000;

/**
 * LISTENs for post changes on a connection of its own, reconnecting when it drops; after each
 * (re)connect it reads the current revision, so a change made while it was away is not missed.
 */
class ChangeListener {
  readonly #url: string;
  readonly #onRevision: (revision: number) => void;
  readonly #log: (line: string) => void;
  #client: pg.Client | null = null;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(url: string, onRevision: (revision: number) => void, log: (line: string) => void) {
    this.#url = url;
    this.#onRevision = onRevision;
    this.#log = log;
  }

  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url });
    client.on('notification', (message) => {
      if (message.channel === POSTS_CHANGED_CHANNEL) this.#onRevision(Number(message.payload));
    });
    client.on('error', () => this.#lost(client));
    client.on('end', () => this.#lost(client));
    await client.connect();
    await client.query(`LISTEN ${POSTS_CHANGED_CHANNEL}`);
    this.#client = client;
    const { rows } = await client.query<{ value: string }>("SELECT value FROM store_meta WHERE name = 'posts_revision'");
    this.#onRevision(Number(rows[0]?.value ?? 0));
  }

  #lost(client: pg.Client): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    this.#log('The connection that follows post changes from other instances was lost; connecting again.');
    const again = () => {
      this.#retry = undefined;
      if (this.#closed) return;
      this.connect().catch(() => {
        this.#retry = setTimeout(again, RECONNECT_MS);
        this.#retry.unref();
      });
    };
    this.#retry = setTimeout(again, RECONNECT_MS);
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

async function migrateOnce(db: Database): Promise<number[]> {
  const client = await db.pool.connect();
  try {
    return await migrate(client);
  } finally {
    client.release();
  }
}

/** Opens the store in the database at `url`, migrating it first; throws a StoreError an operator can act on. */
export async function openPgStore(url: string, options: OpenPgStoreOptions = {}): Promise<Store> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? (() => undefined);
  const db = new Database(url, options);
  const applied = await migrateOnce(db).catch(async (error: unknown) => {
    await db.close().catch(() => undefined);
    throw databaseError(`open the database at ${redactedUrl(url)}`, error);
  });
  if (applied.length > 0) log(`Applied database migration(s) ${applied.join(', ')} to ${redactedUrl(url)}.`);
  // The instance that made the schema made the store (and seeds it, like an empty data directory).
  const created = applied.includes(1);
  const posts = new PgPostRepository(db, now, 0);
  const listeners = new Set<() => void>();
  const listener = new ChangeListener(
    url,
    (revision) => {
      const before = posts.revision();
      posts.noteRevision(revision);
      if (posts.revision() !== before) for (const notify of listeners) notify();
    },
    log,
  );
  try {
    await listener.connect();
  } catch (error) {
    await db.close().catch(() => undefined);
    throw databaseError(`follow post changes in ${redactedUrl(url)}`, error);
  }
  const outbox = new PgOutboxRepository(db);
  return {
    posts,
    keys: new PgKeyRepository(db),
    leads: new PgLeadRepository(db),
    outbox,
    staff: new PgStaffRepository(db),
    sessions: new PgSessionRepository(db),
    audit: new PgAuditLog(db),
    media: new PgMediaRepository(db),
    rateLimits: pgRateLimits(db, () => now().getTime()),
    created,
    // A database has no damaged files to move aside.
    quarantined: async () => [],
    // Every write resolved once its transaction committed: nothing is pending.
    flush: async () => undefined,
    close: async () => {
      await listener.close();
      await db.close();
    },
    onPostsChanged: (notify) => {
      listeners.add(notify);
      return () => listeners.delete(notify);
    },
  };
}
