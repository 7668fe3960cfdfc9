/**
 * PostRepository over SQL, the same for SQLite (one file, shared by the server and the CLI) and
 * PostgreSQL (several app servers on one database). What must hold for every writer is decided by the
 * database, not in this process's memory:
 * - a slug is unique by the primary key of `post_slugs` (every slug a post has or had): two creates
 *   racing for one slug, on any instances, get two slugs;
 * - an Idempotency-Key claim is a row of `idempotency_claims` written in the create's transaction: a
 *   retry on another instance waits for the first create to commit, then replays its post;
 * - a change is made from the stored revision with the post's row locked (PostgreSQL: `FOR UPDATE`;
 *   SQLite: its write lock), so of two changes made from one revision exactly one is saved;
 * - a post's `seq` (the tie-break of lists after the time) is unique: on PostgreSQL the next number of
 *   the sequence `post_seq` (gaps allowed, no row held), on SQLite of store_meta's 'post_seq'.
 * `revision()` (what cached pages follow) is this process's own count of the post changes it learnt
 * of, one by one with what each reached (decision 0036): its own after each commit; on PostgreSQL the
 * other servers' through NOTIFY, sent in the change's transaction (no shared counter, so no row every
 * write waits on); on SQLite another process's (the CLI) through `PRAGMA data_version` and the count
 * `posts_revision` in store_meta, which every SQLite change moves (its writes run one at a time anyway).
 */
import { randomUUID } from 'node:crypto';
import type { Expression, ExpressionBuilder, Insertable, SqlBool } from 'kysely';
import { sql } from 'kysely';
import { REVISIONS_KEPT } from '../../../contract/blog';
import { RESERVED_SLUGS, slugify } from '../../../contract/slug';
import { changeScopes } from '../post-scopes';
import { newPostRecord, type PostSourceRecord, withoutBookkeeping, withoutContent } from '../records';
import type {
  ArchiveAppend,
  CreateOptions,
  CreateOutcome,
  NewPost,
  PostCounts,
  PostIndexEntry,
  PostPage,
  PostQuery,
  PostRecord,
  PostRepository,
  SaveOptions,
  SaveOutcome,
  SlugLookup,
  StoredRevision,
} from '../store';
import { StoreError } from '../store-error';
import { type Db, Rollback, type SqlDatabase, type Tx } from './database';
import { appendArchive } from './archive';
import { auditRow } from './staff';
import type { PostsTable, PostTagsTable, StoreSchema } from './schema';

/** The PostgreSQL channel every post change is announced on (its payload: `PostsChanged` as JSON). */
export const POSTS_CHANGED_CHANNEL = 'iul_posts_changed';

/**
 * A committed post change as announced on PostgreSQL: what it reached (api/store/post-scopes.ts; absent:
 * not known, so everything) and which store made it (`origin`: that store noted it at its commit and
 * skips its own notification).
 */
export interface PostsChanged {
  origin?: string;
  scopes?: readonly string[];
}

/** NOTIFY takes at most 8,000 bytes: a change whose scopes do not fit is announced without them (it then reaches everything). */
const NOTIFY_MOST_BYTES = 7_900;

export function postsChangedPayload(change: PostsChanged): string {
  const payload = JSON.stringify(change);
  return Buffer.byteLength(payload) <= NOTIFY_MOST_BYTES ? payload : JSON.stringify({ origin: change.origin });
}

/**
 * A payload as announced: `{origin, scopes}`; an older server's `{revision, scopes}` or bare revision
 * reads as a change from elsewhere (with its scopes, or without: everything). Null: not a post change.
 */
export function readPostsChanged(payload: string | undefined): PostsChanged | null {
  try {
    const parsed: unknown = JSON.parse(payload ?? '');
    if (typeof parsed === 'number') return Number.isSafeInteger(parsed) ? {} : null;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
    const { origin, scopes } = parsed as { origin?: unknown; scopes?: unknown };
    const known = Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string');
    return { ...(typeof origin === 'string' ? { origin } : {}), ...(known ? { scopes: scopes as string[] } : {}) };
  } catch {
    return null;
  }
}

/** How many recent changes a process remembers the scopes of (a reader further behind is told everything changed). */
const CHANGES_REMEMBERED = 1_000;

const DEFAULT_LIMIT = 10;
/** Creates racing for slugs on other instances: picks tried before giving up (each sees the others' commits). */
const SLUG_ATTEMPTS = 50;

type PostsExpressions = ExpressionBuilder<StoreSchema, 'posts'>;

function sortKey(entry: PostIndexEntry): string {
  return entry.publishedAt ?? entry.publishAt ?? entry.createdAt;
}

/** A post as its row: the columns queries need, the record without its body as JSON, and the body. (Also the bench's seeding.) */
export function postRow(record: PostRecord): Insertable<PostsTable> {
  return {
    id: record.id,
    seq: record.seq,
    slug: record.slug,
    status: record.status,
    deleted_at: record.deletedAt,
    publish_at: record.publishAt,
    sort_key: sortKey(record),
    category_slug: record.categorySlug,
    owner: record.owner,
    author_lower: record.author.name.toLowerCase(),
    revision: record.revision,
    entry: JSON.stringify(withoutContent(record)),
    content: record.content,
    source: record.source ? JSON.stringify(record.source) : null,
    approval_expires_at: record.approval?.expiresAt ?? null,
  };
}

function entryOf(row: { entry: string }): PostIndexEntry {
  return JSON.parse(row.entry) as PostIndexEntry;
}

/** A post's Markdown source from its column, as a record member: none for a post written as HTML or JSON (its record reads as it was written). */
function sourceOf(row: { source: string | null }): { source?: PostSourceRecord } {
  return row.source === null ? {} : { source: JSON.parse(row.source) as PostSourceRecord };
}

/** A post's rows of `post_tags`: one per distinct tag without regard to case. */
export function tagRows(record: PostRecord): Array<Insertable<PostTagsTable>> {
  return [...new Set(record.tags.map((tag) => tag.toLowerCase()))].map((tag_lower) => ({ post_id: record.id, tag_lower }));
}

/** Adds a post's tags to `post_tags`. */
async function insertTags(tx: Tx, record: PostRecord): Promise<void> {
  const tags = tagRows(record);
  if (tags.length > 0) await tx.insertInto('post_tags').values(tags).execute();
}

/** The first slug of `base`, `base-2`, `base-3` ... that is neither taken nor reserved. */
function firstFree(base: string, taken: ReadonlySet<string>): string {
  const free = (slug: string) => !taken.has(slug) && !RESERVED_SLUGS.has(slug);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * The end of the range of slugs that `base` or `base-<n>` could collide with: slugs compare byte by
 * byte (PostgreSQL's column is COLLATE "C"), where `-` comes just before `.`, so they all lie in
 * [base, base + '.').
 */
function rangeEnd(base: string): string {
  return `${base}.`;
}

/** Slugs stored (now or before) that `base` or `base-<n>` could collide with: a range of the primary key. */
async function slugsLike(db: Db | Tx, base: string): Promise<Set<string>> {
  const rows = await db.selectFrom('post_slugs').select('slug').where('slug', '>=', base).where('slug', '<', rangeEnd(base)).execute();
  return new Set(rows.map((row) => row.slug));
}

/** The number after `base-` when `slug` is `base-<digits>`; 1 for `base` itself (as the first of a title); null otherwise. */
function titleNumber(slug: string, base: string): bigint | null {
  if (slug === base) return 1n;
  const suffix = slug.slice(base.length + 1);
  return slug.startsWith(`${base}-`) && /^[0-9]+$/.test(suffix) ? BigInt(suffix) : null;
}

/** A list query as the condition of its rows (the same for the page and its total). */
function matching(query: PostQuery): (eb: PostsExpressions) => Expression<SqlBool> {
  return (eb) => {
    const parts: Expression<SqlBool>[] = [];
    if (query.status === 'trashed') parts.push(eb('deleted_at', 'is not', null));
    else if (query.status === 'any') parts.push(eb('deleted_at', 'is', null));
    else parts.push(eb('deleted_at', 'is', null), eb('status', '=', query.status));
    if (query.categorySlug !== undefined) parts.push(eb('category_slug', '=', query.categorySlug));
    if (query.tag !== undefined) parts.push(eb('id', 'in', eb.selectFrom('post_tags').select('post_id').where('tag_lower', '=', query.tag.toLowerCase())));
    if (query.author !== undefined) parts.push(eb('author_lower', '=', query.author.toLowerCase()));
    if (query.owner !== undefined) parts.push(eb('owner', '=', query.owner));
    return eb.and(parts);
  };
}

/** The posts of the store (see the top of this file); `noteChange` is how sql-store.ts's PostgreSQL listener reports other servers' changes. */
export class SqlPostRepository implements PostRepository {
  readonly #database: SqlDatabase;
  readonly #now: () => Date;
  /** Names this store in its notifications, so it does not count its own changes twice. */
  readonly origin = randomUUID();
  /** The changes this process learnt of, counted here (never shared: another process has its own count). */
  #revision = 0;
  /** The latest changes this process noted, oldest first, one per count: their scopes, or null when not known (everything). */
  readonly #changes: Array<{ revision: number; scopes: readonly string[] | null }> = [];
  /** SQLite: store_meta's `posts_revision` as last seen, and `data_version` when it was read (it moves when another process commits). */
  #stored = 0;
  #dataVersion: unknown = null;

  constructor(database: SqlDatabase, now: () => Date) {
    this.#database = database;
    this.#now = now;
  }

  /**
   * Posts changed (through this store, or another server's, or in a way not known): counts one change
   * that reached `scopes`, or everything when they are not known (null: a notification that came without
   * them, or changes missed while the listener was away).
   */
  noteChange(scopes: readonly string[] | null): void {
    this.#revision += 1;
    this.#changes.push({ revision: this.#revision, scopes });
    if (this.#changes.length > CHANGES_REMEMBERED) this.#changes.splice(0, this.#changes.length - CHANGES_REMEMBERED);
  }

  /** SQLite: store_meta's count read at `stored`; one that skips others (another process's changes) reached everything. */
  #noteStored(stored: number, scopes: readonly string[] | null): void {
    if (stored <= this.#stored) return;
    this.noteChange(stored === this.#stored + 1 ? scopes : null);
    this.#stored = stored;
  }

  changesSince(revision: number): readonly string[] | null {
    this.#followOtherProcesses();
    if (revision >= this.#revision) return [];
    const first = this.#changes.findIndex((change) => change.revision > revision);
    // Forgotten, or never seen (a revision from before this process started): everything.
    if (first === -1 || this.#changes[first]?.revision !== revision + 1) return null;
    const scopes = new Set<string>();
    for (const change of this.#changes.slice(first)) {
      if (!change.scopes) return null;
      for (const scope of change.scopes) scopes.add(scope);
    }
    return [...scopes];
  }

  /**
   * Inside a post change's transaction: on PostgreSQL announces it (delivered at commit, to every other
   * server's listener; no row is written, so concurrent changes do not wait on each other here); on
   * SQLite moves store_meta's count, which other processes follow. Returns that count (SQLite) for
   * `#change` to note once the transaction has committed, so this process never moves ahead of what is
   * stored.
   */
  async #announce(tx: Tx, scopes: readonly string[]): Promise<number | null> {
    if (this.#database.kind === 'postgres') {
      await sql`SELECT pg_notify(${POSTS_CHANGED_CHANNEL}, ${postsChangedPayload({ origin: this.origin, scopes })})`.execute(tx);
      return null;
    }
    return this.#increment(tx, 'posts_revision');
  }

  /** SQLite: adds one to a counter of store_meta and returns it (SQLite's writes run one at a time). */
  async #increment(tx: Tx, name: 'posts_revision' | 'post_seq'): Promise<number> {
    const row = await tx
      .updateTable('store_meta')
      .set((eb) => ({ value: eb.cast<string>(eb(eb.cast<number>('value', 'bigint'), '+', eb.lit(1)), 'text') }))
      .where('name', '=', name)
      .returning('value')
      .executeTakeFirst();
    if (!row) throw new Error(`the row '${name}' of store_meta is missing (the database was changed by hand?); restore it from a backup`);
    return Number(row.value);
  }

  /**
   * Runs a post change, which calls `changed` with the post as it was and as it is (null: absent); once
   * it has committed, this process's revision follows it, with what it reached.
   */
  async #change<T, U = never>(doing: string, work: (tx: Tx, changed: (before: PostIndexEntry | null, after: PostIndexEntry | null) => Promise<void>) => Promise<T>): Promise<T | U> {
    let noted: { stored: number | null; scopes: readonly string[] } | null = null;
    const outcome = await this.#database.write<T, U>(doing, (tx) =>
      work(tx, async (before, after) => {
        const scopes = changeScopes(before, after);
        noted = { stored: await this.#announce(tx, scopes), scopes };
      }),
    );
    if (noted !== null) {
      const { stored, scopes } = noted as { stored: number | null; scopes: readonly string[] };
      if (stored === null) this.noteChange(scopes);
      else this.#noteStored(stored, scopes);
    }
    return outcome;
  }

  async create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    const now = this.#now();
    const id = randomUUID();
    const claim = options.idempotency;
    return this.#change<CreateOutcome, CreateOutcome>('store the post', async (tx, changed) => {
      let idempotency: PostRecord['idempotency'] = null;
      if (claim) {
        const expiresAtMs = now.getTime() + claim.ttlMs;
        if (!(await this.#claim(tx, { scope: claim.scope, fingerprint: claim.fingerprint, post_id: id, expires_at_ms: expiresAtMs }, now.getTime()))) {
          throw new Rollback<CreateOutcome>(await this.#earlierClaim(tx, claim.scope, claim.fingerprint));
        }
        idempotency = { scope: claim.scope, fingerprint: claim.fingerprint, expiresAt: new Date(expiresAtMs).toISOString() };
      }
      const slug = await this.#takeSlug(tx, id, options);
      if (slug === null) throw new Rollback<CreateOutcome>({ kind: 'slug_taken' });
      const { seq, at } = await this.#numbered(tx, options.at);
      const record = newPostRecord(post, { id, seq, slug, at, idempotency });
      await tx.insertInto('posts').values(postRow(record)).execute();
      await insertTags(tx, record);
      if (options.audit) await tx.insertInto('audit_log').values(auditRow({ ...options.audit, target: id }, this.#database.where)).execute();
      const archived = options.archive?.(record);
      if (archived) await appendArchive(this.#database, tx, archived, this.#now());
      await changed(null, withoutContent(record));
      return { kind: 'created', post: withoutContent(record) };
    });
  }

  /**
   * Takes an Idempotency-Key claim unless an unexpired one holds its scope. A concurrent claim of the
   * same scope (PostgreSQL) waits here until the other create commits or rolls back.
   */
  async #claim(tx: Tx, row: Insertable<StoreSchema['idempotency_claims']>, nowMs: number): Promise<boolean> {
    const held = await tx
      .insertInto('idempotency_claims')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('scope')
          .doUpdateSet((eb) => ({
            fingerprint: eb.ref('excluded.fingerprint'),
            post_id: eb.ref('excluded.post_id'),
            expires_at_ms: eb.ref('excluded.expires_at_ms'),
          }))
          .where('idempotency_claims.expires_at_ms', '<=', nowMs),
      )
      .returning('scope')
      .executeTakeFirst();
    return held !== undefined;
  }

  /** What a create whose scope is claimed already gets: the earlier post with the same body, else a conflict. */
  async #earlierClaim(tx: Tx, scope: string, fingerprint: string): Promise<CreateOutcome> {
    const row = await tx
      .selectFrom('idempotency_claims as c')
      .innerJoin('posts as p', 'p.id', 'c.post_id')
      .select(['c.fingerprint', 'p.entry'])
      .where('c.scope', '=', scope)
      .executeTakeFirst();
    if (!row) throw new Error('The Idempotency-Key claim changed while it was read; the request can be retried.');
    return row.fingerprint === fingerprint ? { kind: 'replayed', post: entryOf(row) } : { kind: 'conflict' };
  }

  /**
   * The order of a new post and its creation time. On SQLite the number is taken while its writes run
   * one at a time, so a later `seq` never has an earlier time. On PostgreSQL it is the next of the
   * sequence `post_seq`, which holds nothing until the commit: two creates at once may get their numbers
   * in one order and their times in the other, or leave a gap (a rolled-back create). Lists order by the
   * time first, so `seq` only has to be unique to break ties the same way on every read.
   */
  async #numbered(tx: Tx, given: Date | undefined): Promise<{ seq: number; at: string }> {
    const seq = this.#database.kind === 'postgres' ? await nextPostSeq(tx) : await this.#increment(tx, 'post_seq');
    return { seq, at: (given ?? this.#now()).toISOString() };
  }

  /** Takes the slug of a new post in `post_slugs`; null when `exactSlug` was asked and it is taken. */
  async #takeSlug(tx: Tx, id: string, options: CreateOptions): Promise<string | null> {
    if (options.exactSlug) return (await this.#claimSlug(tx, options.slugBase, id)) ? options.slugBase : null;
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const slug = firstFree(options.slugBase, await slugsLike(tx, options.slugBase));
      // Taken meanwhile by a create on another instance (which committed first): pick again.
      if (await this.#claimSlug(tx, slug, id)) return slug;
    }
    throw new Error(`No free slug for "${options.slugBase}" after ${SLUG_ATTEMPTS} tries: too many creates of the same title at once; retry the request.`);
  }

  /** Adds `slug` to the post's slugs when nobody has or had it. */
  async #claimSlug(tx: Tx, slug: string, id: string): Promise<boolean> {
    if (RESERVED_SLUGS.has(slug)) return false;
    const inserted = await tx
      .insertInto('post_slugs')
      .values({ slug, post_id: id })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('slug')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async previewSlug(slugBase: string): Promise<string> {
    return firstFree(slugBase, await this.#database.read('read the slugs', (db) => slugsLike(db, slugBase)));
  }

  async list(query: PostQuery): Promise<PostPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const where = matching(query);
    const [rows, total] = await Promise.all([
      this.#database.read('list the posts', (db) =>
        db
          .selectFrom('posts')
          .select('entry')
          .where(where)
          .orderBy('sort_key', 'desc')
          .orderBy('seq', 'desc')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
      ),
      this.#database.read('count the posts', (db) =>
        db
          .selectFrom('posts')
          .select((eb) => eb.fn.countAll<number | string>().as('total'))
          .where(where)
          .executeTakeFirst(),
      ),
    ]);
    return { entries: rows.map(entryOf), total: Number(total?.total ?? 0), page, limit };
  }

  async #one(column: 'slug' | 'id', value: string): Promise<PostRecord | null> {
    const row = await this.#database.read('read a post', (db) => db.selectFrom('posts').select(['entry', 'content', 'source']).where(column, '=', value).executeTakeFirst());
    return row ? { ...entryOf(row), content: row.content, ...sourceOf(row) } : null;
  }

  getBySlug(slug: string): Promise<PostRecord | null> {
    return this.#one('slug', slug);
  }

  getById(id: string): Promise<PostRecord | null> {
    return this.#one('id', id);
  }

  async lookupSlug(slug: string): Promise<SlugLookup> {
    const row = await this.#database.read('look up a slug', (db) =>
      db.selectFrom('post_slugs as s').innerJoin('posts as p', 'p.id', 's.post_id').select(['p.entry', 'p.slug']).where('s.slug', '=', slug).executeTakeFirst(),
    );
    if (!row) return null;
    return { kind: row.slug === slug ? 'current' : 'previous', post: entryOf(row) };
  }

  async save(next: PostRecord, options: SaveOptions): Promise<SaveOutcome> {
    return this.#change<SaveOutcome, SaveOutcome>('save the post', async (tx, changed) => {
      // The row stays locked until the commit: another change to this post, on any instance, waits.
      const row = await tx
        .selectFrom('posts')
        .select(['entry', 'content', 'source'])
        .where('id', '=', next.id)
        .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) return { kind: 'missing' };
      const current = entryOf(row);
      if (current.revision !== options.expectedRevision) return { kind: 'stale', current };
      let previousSlugs = current.previousSlugs;
      if (next.slug !== current.slug) {
        // Back to one of its own earlier slugs is always allowed (its row is the post's already); any other must be free.
        if (!current.previousSlugs.includes(next.slug) && !(await this.#claimSlug(tx, next.slug, current.id))) throw new Rollback<SaveOutcome>({ kind: 'slug_taken' });
        previousSlugs = [...current.previousSlugs.filter((slug) => slug !== next.slug), current.slug];
      }
      const record: PostRecord = {
        ...next,
        seq: current.seq,
        createdAt: current.createdAt,
        createdByKeyId: current.createdByKeyId,
        idempotency: current.idempotency,
        previousSlugs,
        revision: current.revision + 1,
      };
      await this.#keepRevision(tx, withoutBookkeeping({ ...current, content: row.content, ...sourceOf(row) }), record.updatedAt, options.changed);
      const { id: _id, ...columns } = postRow(record);
      await tx.updateTable('posts').set(columns).where('id', '=', record.id).execute();
      await tx.deleteFrom('post_tags').where('post_id', '=', record.id).execute();
      await insertTags(tx, record);
      if (options.audit) await tx.insertInto('audit_log').values(auditRow(options.audit, this.#database.where)).execute();
      const archived = options.archive?.({ ...current, content: row.content, ...sourceOf(row) }, record);
      if (archived) await appendArchive(this.#database, tx, archived, this.#now());
      await changed(current, withoutContent(record));
      return { kind: 'saved', post: withoutContent(record) };
    });
  }

  /** Keeps the version a change replaces, and forgets the ones older than the newest REVISIONS_KEPT. */
  async #keepRevision(tx: Tx, kept: StoredRevision['record'], replacedAt: string, changed: readonly string[]): Promise<void> {
    await tx.insertInto('post_revisions').values({ post_id: kept.id, replaced_at: replacedAt, changed: JSON.stringify(changed), record: JSON.stringify(kept) }).execute();
    await tx
      .deleteFrom('post_revisions')
      .where('post_id', '=', kept.id)
      .where('n', 'not in', (eb) => eb.selectFrom('post_revisions').select('n').where('post_id', '=', kept.id).orderBy('n', 'desc').limit(REVISIONS_KEPT))
      .execute();
  }

  async purge(id: string, options: { archive?: ArchiveAppend } = {}): Promise<boolean> {
    return this.#change('remove the post', async (tx, changed) => {
      // Its tags, slugs, revisions and claim go with it (ON DELETE CASCADE); its archive records stay.
      const deleted = await tx.deleteFrom('posts').where('id', '=', id).returning('entry').executeTakeFirst();
      if (!deleted) return false;
      if (options.archive) await appendArchive(this.#database, tx, options.archive, this.#now());
      await changed(entryOf(deleted), null);
      return true;
    });
  }

  async restore(record: PostRecord, revisions: readonly StoredRevision[]): Promise<void> {
    const conflict = (what: string) => new StoreError('conflict', this.#database.where, `Cannot restore the post "${record.title}": ${what} is taken in this database.`);
    await this.#change(`restore the post "${record.title}"`, async (tx, changed) => {
      for (const slug of [record.slug, ...record.previousSlugs]) {
        if (!(await this.#claimSlug(tx, slug, record.id))) throw conflict(`its slug "${slug}"`);
      }
      const inserted = await tx
        .insertInto('posts')
        .values(postRow(record))
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) throw conflict(`its id ${record.id}`);
      await insertTags(tx, record);
      // Oldest first, so the newest kept version has the highest number, as a change would have left them.
      for (const kept of revisions.slice(0, REVISIONS_KEPT).reverse()) {
        await tx.insertInto('post_revisions').values({ post_id: record.id, replaced_at: kept.replacedAt, changed: JSON.stringify(kept.changed), record: JSON.stringify(kept.record) }).execute();
      }
      const claim = record.idempotency;
      // An expired claim would only be replaced by the next create of its scope: it is left out.
      if (claim && Date.parse(claim.expiresAt) > this.#now().getTime()) {
        await tx
          .insertInto('idempotency_claims')
          .values({ scope: claim.scope, fingerprint: claim.fingerprint, post_id: record.id, expires_at_ms: Date.parse(claim.expiresAt) })
          .onConflict((oc) => oc.column('scope').doNothing())
          .execute();
      }
      // Posts created after the import come after every imported one.
      if (this.#database.kind === 'postgres') await movePostSeqPast(tx, record.seq);
      else {
        await tx
          .updateTable('store_meta')
          .set({ value: String(record.seq) })
          .where('name', '=', 'post_seq')
          .where((eb) => eb(eb.cast<number>('value', 'bigint'), '<', record.seq))
          .execute();
      }
      await changed(null, withoutContent(record));
    });
  }

  async revisions(id: string): Promise<StoredRevision[]> {
    const rows = await this.#database.read('read the revisions', (db) =>
      db.selectFrom('post_revisions').select(['replaced_at', 'changed', 'record']).where('post_id', '=', id).orderBy('n', 'desc').execute(),
    );
    return rows.map((row) => ({
      replacedAt: row.replaced_at,
      changed: JSON.parse(row.changed) as string[],
      record: JSON.parse(row.record) as StoredRevision['record'],
    }));
  }

  /** Post entries matching `where`, oldest first (by the time lists order by, then `seq`). */
  async #oldestFirst(doing: string, where: (eb: PostsExpressions) => Expression<SqlBool>, limit?: number): Promise<PostIndexEntry[]> {
    const rows = await this.#database.read(doing, (db) =>
      db
        .selectFrom('posts')
        .select('entry')
        .where(where)
        .orderBy('sort_key', 'asc')
        .orderBy('seq', 'asc')
        .$if(limit !== undefined, (q) => q.limit(limit ?? 0))
        .execute(),
    );
    return rows.map(entryOf);
  }

  dueScheduled(at: Date): Promise<PostIndexEntry[]> {
    return this.#oldestFirst('list the scheduled posts', (eb) =>
      eb.and([eb('status', '=', 'scheduled'), eb('deleted_at', 'is', null), eb.or([eb('publish_at', 'is', null), eb('publish_at', '<=', at.toISOString())])]),
    );
  }

  async approved(): Promise<PostIndexEntry[]> {
    const rows = await this.#database.read('list the approved posts', (db) =>
      db
        .selectFrom('posts')
        .select('entry')
        .where('approval_expires_at', 'is not', null)
        .where('deleted_at', 'is', null)
        .where('status', 'in', ['published', 'scheduled'])
        .orderBy('approval_expires_at', 'asc')
        .orderBy('seq', 'asc')
        .execute(),
    );
    return rows.map(entryOf);
  }

  async nextScheduledAt(): Promise<Date | null> {
    const [first] = await this.#oldestFirst('find the next scheduled post', (eb) => eb.and([eb('status', '=', 'scheduled'), eb('deleted_at', 'is', null)]), 1);
    return first?.publishAt ? new Date(first.publishAt) : null;
  }

  trashedBefore(cutoff: Date): Promise<PostIndexEntry[]> {
    return this.#oldestFirst('list the trash', (eb) => eb.and([eb('deleted_at', 'is not', null), eb('deleted_at', '<', cutoff.toISOString())]));
  }

  async sameTitle(title: string, exceptId?: string): Promise<PostIndexEntry[]> {
    const base = slugify(title) || 'post';
    // The range holds `base` and every `base-…`; only `base` and `base-<digits>` read as the same title.
    const rows = await this.#database.read('find posts of the same title', (db) =>
      db
        .selectFrom('posts')
        .select(['slug', 'entry'])
        .where('slug', '>=', base)
        .where('slug', '<', rangeEnd(base))
        .where('deleted_at', 'is', null)
        .where('id', '<>', exceptId ?? '')
        .execute(),
    );
    return rows
      .map((row) => ({ row, n: titleNumber(row.slug, base) }))
      .filter((candidate): candidate is { row: (typeof rows)[number]; n: bigint } => candidate.n !== null)
      .sort((a, b) => (a.n < b.n ? -1 : a.n > b.n ? 1 : 0))
      .map((candidate) => entryOf(candidate.row));
  }

  async publishedPerCategory(): Promise<Map<string, number>> {
    const rows = await this.#database.read('count the posts per category', (db) =>
      db
        .selectFrom('posts')
        .select((eb) => ['category_slug', eb.fn.countAll<number | string>().as('n')])
        .where('status', '=', 'published')
        .where('deleted_at', 'is', null)
        .groupBy('category_slug')
        .execute(),
    );
    return new Map(rows.map((row) => [row.category_slug, Number(row.n)]));
  }

  async counts(): Promise<PostCounts> {
    // Two scans of indexes rather than one of the table: the live posts per status over posts_listing (a
    // partial index of the live posts that holds their status), the trash over posts_trashed. At a
    // million posts the table scan took seconds, and /api/health answers with these counts.
    const [live, trash] = await this.#database.read('count the posts', (db) =>
      Promise.all([
        db.selectFrom('posts').select((eb) => ['status', eb.fn.countAll<number | string>().as('n')]).where('deleted_at', 'is', null).groupBy('status').execute(),
        db.selectFrom('posts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('deleted_at', 'is not', null).executeTakeFirst(),
      ]),
    );
    // PostgreSQL may answer a count as text.
    const of = (status: string) => Number(live.find((row) => row.status === status)?.n ?? 0);
    return { published: of('published'), drafts: of('draft'), scheduled: of('scheduled'), inReview: of('in_review'), trashed: Number(trash?.n ?? 0) };
  }

  revision(): number {
    this.#followOtherProcesses();
    return this.#revision;
  }

  /**
   * SQLite: another process (the CLI) may have changed posts. `data_version` moves only when another
   * connection commits (this process's own commits are noted after each one), so the count is read
   * again only then. Not inside a transaction of this connection, which would read its uncommitted
   * count; and a failed read keeps the counter as it is, to try again on the next call, since a page
   * should not fail for a cache key (the posts it reads will say what is wrong).
   */
  #followOtherProcesses(): void {
    const handle = this.#database.sqlite;
    if (!handle || handle.inTransaction) return;
    try {
      const version: unknown = handle.pragma('data_version', { simple: true });
      if (version === this.#dataVersion) return;
      const row = handle.prepare("SELECT value FROM store_meta WHERE name = 'posts_revision'").get() as { value: string | null } | undefined;
      this.#noteStored(Number(row?.value ?? 0), null);
      this.#dataVersion = version;
    } catch {
      // Kept as it is: see above.
    }
  }
}

/** PostgreSQL: the sequence numbering new posts (migration 0009). */
export const POST_SEQ_SEQUENCE = 'post_seq';

/** PostgreSQL: the next `seq` of a new post, from the sequence (not rolled back with the transaction: gaps are allowed). */
async function nextPostSeq(tx: Tx): Promise<number> {
  const { rows } = await sql<{ seq: string | number }>`SELECT nextval(${POST_SEQ_SEQUENCE}) AS seq`.execute(tx);
  const seq = rows[0]?.seq;
  if (seq === undefined) throw new Error(`the sequence ${POST_SEQ_SEQUENCE} gave no number (the database was changed by hand?); restore it from a backup`);
  return Number(seq);
}

/** PostgreSQL: moves the sequence of `seq` past `seq` (an imported post's), never back. */
export async function movePostSeqPast(db: Db | Tx, seq: number): Promise<void> {
  await sql`SELECT setval(${POST_SEQ_SEQUENCE}, GREATEST(${seq}::bigint, (SELECT last_value FROM post_seq), 1))`.execute(db);
}
