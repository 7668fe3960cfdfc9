/**
 * PostRepository in PostgreSQL, for several app servers sharing one database. What the file store
 * decides in memory is decided here by the database, so it holds across instances:
 * - a slug is unique by the primary key of `post_slugs` (every slug a post has or had): two creates
 *   racing for one slug, on any instances, get two slugs;
 * - an Idempotency-Key claim is a row of `idempotency_claims` written in the create's transaction: a
 *   retry on another instance waits for the first create to commit, then replays its post;
 * - a change is made under `SELECT ... FOR UPDATE` from the stored revision, so of two changes made from
 *   one revision (two instances publishing one scheduled post) exactly one is saved.
 * Every committed change moves `posts_revision` in store_meta and is announced with NOTIFY, so each
 * instance's `revision()` (the key of its cached pages) moves when any instance changes a post.
 */
import { randomUUID } from 'node:crypto';
import { REVISIONS_KEPT } from '../../../contract/blog';
import { RESERVED_SLUGS, slugify } from '../../../contract/slug';
import type {
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
import { newPostRecord, withoutBookkeeping, withoutContent } from '../records';
import { StoreError } from '../store-error';
import { type Database, Rollback, type TransactionQuery } from './database';

/** The channel every post change is announced on (its payload: the new `posts_revision`). */
export const POSTS_CHANGED_CHANNEL = 'iul_posts_changed';

const DEFAULT_LIMIT = 10;
/** Creates racing for slugs on other instances: picks tried before giving up (each sees the others' commits). */
const SLUG_ATTEMPTS = 50;

function sortKey(entry: PostIndexEntry): string {
  return entry.publishedAt ?? entry.publishAt ?? entry.createdAt;
}

/** The column values of a post, in the order of POST_COLUMNS. */
function columnValues(record: PostRecord): unknown[] {
  return [
    record.id,
    record.seq,
    record.slug,
    record.status,
    record.deletedAt,
    record.publishAt,
    sortKey(record),
    record.categorySlug,
    record.owner,
    [...new Set(record.tags.map((tag) => tag.toLowerCase()))],
    record.author.name.toLowerCase(),
    record.revision,
    JSON.stringify(withoutContent(record)),
    record.content,
  ];
}

const POST_COLUMNS = 'id, seq, slug, status, deleted_at, publish_at, sort_key, category_slug, owner, tags_lower, author_lower, revision, entry, content';
const POST_PLACEHOLDERS = POST_COLUMNS.split(', ')
  .map((_, i) => `$${i + 1}`)
  .join(', ');
const NEWEST_FIRST = 'ORDER BY sort_key DESC, seq DESC';
const OLDEST_FIRST = 'ORDER BY sort_key ASC, seq ASC';

/** The first slug of `base`, `base-2`, `base-3` ... that is neither taken nor reserved. */
function firstFree(base: string, taken: ReadonlySet<string>): string {
  const free = (slug: string) => !taken.has(slug) && !RESERVED_SLUGS.has(slug);
  if (free(base)) return base;
  for (let n = 2; ; n++) if (free(`${base}-${n}`)) return `${base}-${n}`;
}

/**
 * Slugs stored (now or before) that `base` or `base-<n>` could collide with: a range of the primary
 * key (slugs sort in the C collation, where `-` comes just before `.`).
 */
const SLUGS_LIKE = "SELECT slug FROM post_slugs WHERE slug >= $1 AND slug < $1 || '.'";

function takenOf(rows: ReadonlyArray<{ slug: string }>): Set<string> {
  return new Set(rows.map((row) => row.slug));
}

/** A list query as SQL conditions and their values. */
function conditionsOf(query: PostQuery): { where: string; values: unknown[] } {
  const values: unknown[] = [];
  const parts: string[] = [];
  const value = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  if (query.status === 'trashed') parts.push('deleted_at IS NOT NULL');
  else if (query.status === 'any') parts.push('deleted_at IS NULL');
  else parts.push('deleted_at IS NULL', `status = ${value(query.status)}`);
  if (query.categorySlug !== undefined) parts.push(`category_slug = ${value(query.categorySlug)}`);
  if (query.tag !== undefined) parts.push(`${value(query.tag.toLowerCase())} = ANY (tags_lower)`);
  if (query.author !== undefined) parts.push(`author_lower = ${value(query.author.toLowerCase())}`);
  if (query.owner !== undefined) parts.push(`owner = ${value(query.owner)}`);
  return { where: parts.join(' AND '), values };
}

export class PgPostRepository implements PostRepository {
  readonly #db: Database;
  readonly #now: () => Date;
  #revision = 0;
  /** The numbering of the create before this one (see #numbered). */
  #numbering: Promise<unknown> = Promise.resolve();

  constructor(db: Database, now: () => Date, revision: number) {
    this.#db = db;
    this.#now = now;
    this.#revision = revision;
  }

  /** Another instance (or this one) changed the posts: `revision` is the database's count now. */
  noteRevision(revision: number): void {
    if (revision > this.#revision) this.#revision = revision;
  }

  /** Inside a post change's transaction: moves the shared revision and announces it at commit. */
  async #changed(query: TransactionQuery): Promise<() => void> {
    const { rows } = await query<{ value: string }>("UPDATE store_meta SET value = (value::bigint + 1)::text WHERE name = 'posts_revision' RETURNING value");
    const revision = Number(rows[0]?.value ?? 0);
    await query('SELECT pg_notify($1, $2)', [POSTS_CHANGED_CHANNEL, String(revision)]);
    // Applied once the transaction has committed, so this instance never moves ahead of what is stored.
    return () => this.noteRevision(revision);
  }

  async create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    const now = this.#now();
    const id = randomUUID();
    const claim = options.idempotency;
    let committed: () => void = () => undefined;
    const outcome = await this.#db.transaction<CreateOutcome, CreateOutcome>('store the post', async (query) => {
      let idempotency: PostRecord['idempotency'] = null;
      if (claim) {
        const expiresAt = new Date(now.getTime() + claim.ttlMs);
        // A concurrent claim of the same scope waits here until the other create commits or rolls back.
        const held = await query(
          `INSERT INTO idempotency_claims (scope, fingerprint, post_id, expires_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (scope) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, post_id = EXCLUDED.post_id, expires_at = EXCLUDED.expires_at
           WHERE idempotency_claims.expires_at <= $5 RETURNING scope`,
          [claim.scope, claim.fingerprint, id, expiresAt, now],
        );
        if (held.rowCount === 0) {
          const earlier = await query<{ fingerprint: string; entry: PostIndexEntry }>(
            'SELECT c.fingerprint, p.entry FROM idempotency_claims c JOIN posts p ON p.id = c.post_id WHERE c.scope = $1',
            [claim.scope],
          );
          const row = earlier.rows[0];
          if (!row) throw new Error('The Idempotency-Key claim changed while it was read; the request can be retried.');
          throw new Rollback<CreateOutcome>(row.fingerprint === claim.fingerprint ? { kind: 'replayed', post: row.entry } : { kind: 'conflict' });
        }
        idempotency = { scope: claim.scope, fingerprint: claim.fingerprint, expiresAt: expiresAt.toISOString() };
      }
      const slug = await this.#takeSlug(query, id, options);
      if (slug === null) throw new Rollback<CreateOutcome>({ kind: 'slug_taken' });
      const { seq, at } = await this.#numbered(query, options.at);
      const record = newPostRecord(post, { id, seq, slug, at, idempotency });
      await query(`INSERT INTO posts (${POST_COLUMNS}) VALUES (${POST_PLACEHOLDERS})`, columnValues(record));
      committed = await this.#changed(query);
      return { kind: 'created', post: withoutContent(record) };
    });
    committed();
    return outcome;
  }

  /**
   * The order of a new post and its creation time, taken together one create at a time on this
   * server, so a later `seq` never has an earlier time (lists order by the time, then `seq`).
   */
  #numbered(query: TransactionQuery, given: Date | undefined): Promise<{ seq: number; at: string }> {
    const numbered = this.#numbering.then(async () => {
      const { rows } = await query<{ seq: string }>("SELECT nextval('post_seq') AS seq");
      return { seq: Number(rows[0]?.seq), at: (given ?? this.#now()).toISOString() };
    });
    this.#numbering = numbered.catch(() => undefined);
    return numbered;
  }

  /** Takes the slug of a new post in `post_slugs`; null when `exactSlug` was asked and it is taken. */
  async #takeSlug(query: TransactionQuery, id: string, options: CreateOptions): Promise<string | null> {
    if (options.exactSlug) return (await this.#claimSlug(query, options.slugBase, id)) ? options.slugBase : null;
    for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
      const slug = firstFree(options.slugBase, takenOf((await query<{ slug: string }>(SLUGS_LIKE, [options.slugBase])).rows));
      // Taken meanwhile by a create on another instance (which committed first): pick again.
      if (await this.#claimSlug(query, slug, id)) return slug;
    }
    throw new Error(`No free slug for "${options.slugBase}" after ${SLUG_ATTEMPTS} tries: too many creates of the same title at once; retry the request.`);
  }

  /** Adds `slug` to the post's slugs when nobody has or had it. */
  async #claimSlug(query: TransactionQuery, slug: string, id: string): Promise<boolean> {
    if (RESERVED_SLUGS.has(slug)) return false;
    const inserted = await query('INSERT INTO post_slugs (slug, post_id) VALUES ($1, $2) ON CONFLICT (slug) DO NOTHING', [slug, id]);
    return inserted.rowCount === 1;
  }

  async previewSlug(slugBase: string): Promise<string> {
    const { rows } = await this.#db.query<{ slug: string }>('read the slugs', SLUGS_LIKE, [slugBase]);
    return firstFree(slugBase, takenOf(rows));
  }

  async list(query: PostQuery): Promise<PostPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const { where, values } = conditionsOf(query);
    const [rows, total] = await Promise.all([
      this.#db.query<{ entry: PostIndexEntry }>('list the posts', `SELECT entry FROM posts WHERE ${where} ${NEWEST_FIRST} LIMIT ${limit} OFFSET ${(page - 1) * limit}`, values),
      this.#db.query<{ total: string }>('count the posts', `SELECT count(*) AS total FROM posts WHERE ${where}`, values),
    ]);
    return { entries: rows.rows.map((row) => row.entry), total: Number(total.rows[0]?.total ?? 0), page, limit };
  }

  async #one(where: string, value: string): Promise<PostRecord | null> {
    const { rows } = await this.#db.query<{ entry: PostIndexEntry; content: string }>('read a post', `SELECT entry, content FROM posts WHERE ${where}`, [value]);
    const row = rows[0];
    return row ? { ...row.entry, content: row.content } : null;
  }

  getBySlug(slug: string): Promise<PostRecord | null> {
    return this.#one('slug = $1', slug);
  }

  getById(id: string): Promise<PostRecord | null> {
    return this.#one('id = $1', id);
  }

  async lookupSlug(slug: string): Promise<SlugLookup> {
    const { rows } = await this.#db.query<{ entry: PostIndexEntry; current: boolean }>(
      'look up a slug',
      'SELECT p.entry, p.slug = s.slug AS current FROM post_slugs s JOIN posts p ON p.id = s.post_id WHERE s.slug = $1',
      [slug],
    );
    const row = rows[0];
    if (!row) return null;
    return { kind: row.current ? 'current' : 'previous', post: row.entry };
  }

  async save(next: PostRecord, options: SaveOptions): Promise<SaveOutcome> {
    let committed: () => void = () => undefined;
    const outcome = await this.#db.transaction<SaveOutcome, SaveOutcome>('save the post', async (query) => {
      // The row stays locked until the commit: another change to this post, on any instance, waits.
      const found = await query<{ entry: PostIndexEntry; content: string }>('SELECT entry, content FROM posts WHERE id = $1 FOR UPDATE', [next.id]);
      const row = found.rows[0];
      if (!row) return { kind: 'missing' };
      const current = row.entry;
      if (current.revision !== options.expectedRevision) return { kind: 'stale', current };
      let previousSlugs = current.previousSlugs;
      if (next.slug !== current.slug) {
        // Back to one of its own earlier slugs is always allowed (its row is the post's already); any other must be free.
        if (!current.previousSlugs.includes(next.slug) && !(await this.#claimSlug(query, next.slug, current.id))) throw new Rollback<SaveOutcome>({ kind: 'slug_taken' });
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
      if (options.keepRevision) {
        const kept = withoutBookkeeping({ ...current, content: row.content });
        await query('INSERT INTO post_revisions (post_id, replaced_at, changed, record) VALUES ($1, $2, $3, $4)', [
          current.id,
          record.updatedAt,
          JSON.stringify(options.changed),
          JSON.stringify(kept),
        ]);
        await query('DELETE FROM post_revisions WHERE post_id = $1 AND n NOT IN (SELECT n FROM post_revisions WHERE post_id = $1 ORDER BY n DESC LIMIT $2)', [
          current.id,
          REVISIONS_KEPT,
        ]);
      }
      const [, ...values] = columnValues(record);
      const assignments = POST_COLUMNS.split(', ')
        .slice(1)
        .map((column, i) => `${column} = $${i + 2}`)
        .join(', ');
      await query(`UPDATE posts SET ${assignments} WHERE id = $1`, [record.id, ...values]);
      committed = await this.#changed(query);
      return { kind: 'saved', post: withoutContent(record) };
    });
    committed();
    return outcome;
  }

  async purge(id: string): Promise<boolean> {
    let committed: () => void = () => undefined;
    const purged = await this.#db.transaction('remove the post', async (query) => {
      const deleted = await query('DELETE FROM posts WHERE id = $1', [id]);
      if (deleted.rowCount !== 1) return false;
      committed = await this.#changed(query);
      return true;
    });
    committed();
    return purged;
  }

  async restore(record: PostRecord, revisions: readonly StoredRevision[]): Promise<void> {
    let committed: () => void = () => undefined;
    await this.#db.transaction(`restore the post "${record.title}"`, async (query) => {
      for (const slug of [record.slug, ...record.previousSlugs]) {
        if (!(await this.#claimSlug(query, slug, record.id))) throw new StoreError('conflict', 'PostgreSQL', `Cannot restore the post "${record.title}": its slug "${slug}" is taken in this database.`);
      }
      const inserted = await query(`INSERT INTO posts (${POST_COLUMNS}) VALUES (${POST_PLACEHOLDERS}) ON CONFLICT (id) DO NOTHING`, columnValues(record));
      if (inserted.rowCount !== 1) throw new StoreError('conflict', 'PostgreSQL', `Cannot restore the post "${record.title}": its id ${record.id} is taken in this database.`);
      // Oldest first, so the newest kept version has the highest number, as a change would have left them.
      for (const kept of revisions.slice(0, REVISIONS_KEPT).reverse()) {
        await query('INSERT INTO post_revisions (post_id, replaced_at, changed, record) VALUES ($1, $2, $3, $4)', [record.id, kept.replacedAt, JSON.stringify(kept.changed), JSON.stringify(kept.record)]);
      }
      const claim = record.idempotency;
      if (claim && Date.parse(claim.expiresAt) > this.#now().getTime()) {
        await query('INSERT INTO idempotency_claims (scope, fingerprint, post_id, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (scope) DO NOTHING', [
          claim.scope,
          claim.fingerprint,
          record.id,
          claim.expiresAt,
        ]);
      }
      // Posts created after the import come after every imported one.
      await query("SELECT setval('post_seq', GREATEST($1::bigint, (SELECT last_value FROM post_seq)))", [record.seq]);
      committed = await this.#changed(query);
    });
    committed();
  }

  async revisions(id: string): Promise<StoredRevision[]> {
    const { rows } = await this.#db.query<{ replaced_at: string; changed: string[]; record: StoredRevision['record'] }>(
      'read the revisions',
      'SELECT replaced_at, changed, record FROM post_revisions WHERE post_id = $1 ORDER BY n DESC',
      [id],
    );
    return rows.map((row) => ({ replacedAt: row.replaced_at, changed: row.changed, record: row.record }));
  }

  async #entries(doing: string, sql: string, values: unknown[]): Promise<PostIndexEntry[]> {
    const { rows } = await this.#db.query<{ entry: PostIndexEntry }>(doing, sql, values);
    return rows.map((row) => row.entry);
  }

  dueScheduled(at: Date): Promise<PostIndexEntry[]> {
    return this.#entries(
      'list the scheduled posts',
      `SELECT entry FROM posts WHERE status = 'scheduled' AND deleted_at IS NULL AND coalesce(publish_at, '') <= $1 ${OLDEST_FIRST}`,
      [at.toISOString()],
    );
  }

  async nextScheduledAt(): Promise<Date | null> {
    const [first] = await this.#entries('find the next scheduled post', `SELECT entry FROM posts WHERE status = 'scheduled' AND deleted_at IS NULL ${OLDEST_FIRST} LIMIT 1`, []);
    return first?.publishAt ? new Date(first.publishAt) : null;
  }

  trashedBefore(cutoff: Date): Promise<PostIndexEntry[]> {
    return this.#entries('list the trash', `SELECT entry FROM posts WHERE deleted_at IS NOT NULL AND deleted_at < $1 ${OLDEST_FIRST}`, [cutoff.toISOString()]);
  }

  sameTitle(title: string, exceptId?: string): Promise<PostIndexEntry[]> {
    const base = slugify(title) || 'post';
    return this.#entries(
      'find posts of the same title',
      `SELECT entry FROM posts
       WHERE deleted_at IS NULL AND id <> $2 AND (slug = $1 OR (left(slug, length($1) + 1) = $1 || '-' AND substr(slug, length($1) + 2) ~ '^[0-9]+$'))
       ORDER BY CASE WHEN slug = $1 THEN 1 ELSE substr(slug, length($1) + 2)::numeric END`,
      [base, exceptId ?? ''],
    );
  }

  async publishedPerCategory(): Promise<Map<string, number>> {
    const { rows } = await this.#db.query<{ category_slug: string; n: string }>(
      'count the posts per category',
      "SELECT category_slug, count(*) AS n FROM posts WHERE status = 'published' AND deleted_at IS NULL GROUP BY category_slug",
    );
    return new Map(rows.map((row) => [row.category_slug, Number(row.n)]));
  }

  async counts(): Promise<PostCounts> {
    const { rows } = await this.#db.query<Record<keyof PostCounts, string>>(
      'count the posts',
      `SELECT count(*) FILTER (WHERE deleted_at IS NULL AND status = 'published') AS published,
              count(*) FILTER (WHERE deleted_at IS NULL AND status = 'draft') AS drafts,
              count(*) FILTER (WHERE deleted_at IS NULL AND status = 'scheduled') AS scheduled,
              count(*) FILTER (WHERE deleted_at IS NULL AND status = 'in_review') AS "inReview",
              count(*) FILTER (WHERE deleted_at IS NOT NULL) AS trashed
       FROM posts`,
    );
    const row = rows[0];
    return {
      published: Number(row?.published ?? 0),
      drafts: Number(row?.drafts ?? 0),
      scheduled: Number(row?.scheduled ?? 0),
      inReview: Number(row?.inReview ?? 0),
      trashed: Number(row?.trashed ?? 0),
    };
  }

  revision(): number {
    return this.#revision;
  }
}
