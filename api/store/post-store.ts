/**
 * Posts, one JSON document per post in `posts/<id>.json`, written atomically with lowdb's file adapter.
 * On open every document is read and checked, and an in-memory index (everything but the bodies) is
 * built; lists and slug checks use the index, a post's body is read from its file when asked for.
 * A write touches one small file whatever the number of posts, so writes stay cheap as the blog grows.
 *
 * Creates are committed in groups. A create decides everything that must be race-free synchronously,
 * in arrival order, before anything is awaited: the idempotency check, the id, the order and the slug
 * (reserved until its write settles). The creates decided meanwhile go to the writer thread
 * (document-writer.ts) as one batch, each file written atomically (a temporary file, then a rename);
 * while a batch is being written the next one gathers. Each request is answered once its own file is
 * written. A post enters the index, and so the site, only once its file is written; a failed write fails
 * only its own create, leaves no file, and frees its slug and idempotency key.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { BlogPost, BlogPostPage, BlogPostSummary, BlogReader, ListPublishedOptions } from '../../contract/blog-reader';
import { LIST_LIMITS } from '../../contract/blog-reader';
import type { PostStatus } from '../../contract/blog';
import { BLOG_CATEGORIES, type BlogCategory, categoryNameFor, findCategory, UNCATEGORIZED } from '../../contract/categories';
import { type IdempotencyRecord, type NewPost, type PostIndexEntry, type PostRecord, postRecordSchema } from './records';
import { attempt } from '../threads/attempt';
import { type BatchWriter, DocumentWriterThread } from './document-writer';
import { corruptFile, readDocument, StoreError, unwritable } from './store-error';

export const POSTS_DIR = 'posts';
const READ_BATCH = 64;

export interface PostQuery {
  status: PostStatus;
  page?: number;
  limit?: number;
  /** A category slug (or name); unknown values match nothing. */
  category?: string;
  tag?: string;
}

export type CreateOutcome =
  | { kind: 'created'; post: PostIndexEntry }
  /** An unexpired Idempotency-Key with the same body: the post it created the first time. */
  | { kind: 'replayed'; post: PostIndexEntry }
  /** An unexpired Idempotency-Key used with another body. */
  | { kind: 'conflict' };

export interface PostStoreOptions {
  /** How batches of post files are written: on a writer thread unless a test wants to watch or fail writes. */
  write?: BatchWriter;
}

export interface CreateOptions {
  /** Picks the slug, given a test of which slugs are taken or reserved by a write in flight. */
  chooseSlug: (isTaken: (slug: string) => boolean) => string;
  idempotency?: Omit<IdempotencyRecord, 'expiresAt'> & { ttlMs: number };
}

/** A create decided and waiting for the batch that writes its file. */
interface PendingCreate {
  record: PostRecord;
  resolve: (entry: PostIndexEntry) => void;
  reject: (error: unknown) => void;
}

function withoutContent(record: PostRecord): PostIndexEntry {
  const { content: _content, ...entry } = record;
  return entry;
}

export function toSummary(entry: PostIndexEntry): BlogPostSummary {
  return {
    id: entry.id,
    slug: entry.slug,
    title: entry.title,
    excerpt: entry.excerpt,
    category: { slug: entry.categorySlug, name: categoryNameFor(entry.categorySlug) },
    tags: [...entry.tags],
    author: { ...entry.author },
    isNewsArticle: entry.isNewsArticle,
    trust: entry.trust,
    status: entry.status,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
    published_at: entry.publishedAt,
  };
}

export class PostStore implements BlogReader {
  readonly dir: string;
  readonly #now: () => Date;
  readonly #write: BatchWriter;
  /** Every post in creation order (oldest first). */
  readonly #entries: PostIndexEntry[] = [];
  readonly #bySlug = new Map<string, PostIndexEntry>();
  readonly #byScope = new Map<string, PostIndexEntry>();
  /** Slugs of creates whose file is being written: taken for every other create until the write settles. */
  readonly #reservedSlugs = new Set<string>();
  /** Idempotency scopes of creates whose file is not written yet, with what the write will give. */
  readonly #pendingScopes = new Map<string, { id: string; fingerprint: string; written: Promise<PostIndexEntry> }>();
  /** Creates decided and not yet sent to the writer: the next batch. */
  #batch: PendingCreate[] = [];
  /** A batch is with the writer (the next one waits for it), or one is about to be sent. */
  #committing = false;
  /** The creates not yet settled, for flush(). */
  readonly #unsettled = new Set<Promise<unknown>>();
  readonly #listeners = new Set<() => void>();
  #revision = 0;
  #nextSeq = 1;

  private constructor(dir: string, now: () => Date, write: BatchWriter) {
    this.dir = dir;
    this.#now = now;
    this.#write = write;
  }

  static async open(dir: string, now: () => Date, options: PostStoreOptions = {}): Promise<PostStore> {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      throw unwritable(dir, error);
    }
    const store = new PostStore(dir, now, options.write ?? new DocumentWriterThread().write);
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
    const records: PostRecord[] = [];
    for (let i = 0; i < names.length; i += READ_BATCH) {
      const batch = names.slice(i, i + READ_BATCH);
      records.push(...(await Promise.all(batch.map((name) => store.#readRecord(name)))));
    }
    records.sort((a, b) => a.seq - b.seq);
    for (const record of records) {
      const clash = store.#bySlug.get(record.slug);
      if (clash) throw corruptFile(store.#file(record.id), `slug "${record.slug}" is also used by ${store.#file(clash.id)}`);
      store.#index(withoutContent(record));
    }
    return store;
  }

  #file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  async #readRecord(name: string): Promise<PostRecord> {
    const file = path.join(this.dir, name);
    const record = await readDocument(file, postRecordSchema);
    if (!record) throw new StoreError('unreadable', file, `The post file ${file} vanished while the store was opening.`);
    if (`${record.id}.json` !== name) throw corruptFile(file, `its id "${record.id}" does not match the file name`);
    return record;
  }

  #index(entry: PostIndexEntry): void {
    this.#entries.push(entry);
    this.#bySlug.set(entry.slug, entry);
    if (entry.idempotency) this.#byScope.set(entry.idempotency.scope, entry);
    this.#nextSeq = Math.max(this.#nextSeq, entry.seq + 1);
  }

  #changed(): void {
    this.#revision += 1;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch {
        // A listener's failure (a cache that could not clear) must not fail the write that is already on disk.
      }
    }
  }

  /** The post an unexpired Idempotency-Key scope created, if any. */
  findIdempotent(scope: string): PostIndexEntry | undefined {
    const entry = this.#byScope.get(scope);
    if (!entry?.idempotency) return undefined;
    if (Date.parse(entry.idempotency.expiresAt) <= this.#now().getTime()) {
      this.#byScope.delete(scope);
      return undefined;
    }
    return entry;
  }

  /** True when a post has this slug or a create not yet written has reserved it. */
  isSlugTaken(slug: string): boolean {
    return this.#bySlug.has(slug) || this.#reservedSlugs.has(slug);
  }

  /**
   * Creates a post. Everything up to the write runs synchronously (nothing is awaited before it), so
   * creates are decided in the order they arrive; the promise settles when this post's own file is
   * written, or its write failed.
   */
  create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    return attempt(() => this.#create(post, options));
  }

  /** create() with what it throws not yet a rejection; not async, so a create costs no promise beyond its write's. */
  #create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    const idempotency = options.idempotency;
    if (idempotency) {
      const earlier = this.findIdempotent(idempotency.scope);
      if (earlier) {
        return Promise.resolve(
          earlier.idempotency?.fingerprint === idempotency.fingerprint ? { kind: 'replayed', post: earlier } : { kind: 'conflict' },
        );
      }
      const inFlight = this.#pendingScopes.get(idempotency.scope);
      if (inFlight) {
        if (inFlight.fingerprint !== idempotency.fingerprint) return Promise.resolve({ kind: 'conflict' });
        // The same request is about to be written: answer with its post once that is on disk. Should that
        // write fail, nothing was created, and this request gets to try as if it were the first.
        return inFlight.written.then(
          (entry): CreateOutcome => ({ kind: 'replayed', post: entry }),
          () => this.create(post, options),
        );
      }
    }
    const now = this.#now();
    const at = now.toISOString();
    // Field by field: spreading `post` and then adding fields takes V8's slow path (~12 µs a create).
    const record: PostRecord = {
      title: post.title,
      excerpt: post.excerpt,
      content: post.content,
      categorySlug: post.categorySlug,
      tags: post.tags,
      author: post.author,
      isNewsArticle: post.isNewsArticle,
      trust: post.trust,
      status: post.status,
      createdByKeyId: post.createdByKeyId,
      warnings: post.warnings,
      id: randomUUID(),
      seq: this.#nextSeq,
      slug: options.chooseSlug((slug) => this.isSlugTaken(slug)),
      createdAt: at,
      updatedAt: at,
      publishedAt: post.status === 'published' ? at : null,
      idempotency: idempotency
        ? { scope: idempotency.scope, fingerprint: idempotency.fingerprint, expiresAt: new Date(now.getTime() + idempotency.ttlMs).toISOString() }
        : null,
    };
    if (this.isSlugTaken(record.slug)) throw new StoreError('conflict', this.#file(record.id), `The slug "${record.slug}" is taken.`);
    this.#nextSeq += 1;
    this.#reservedSlugs.add(record.slug);
    const written = new Promise<PostIndexEntry>((resolve, reject) => this.#batch.push({ record, resolve, reject }));
    this.#unsettled.add(written);
    written.then(
      () => this.#unsettled.delete(written),
      () => this.#unsettled.delete(written),
    );
    if (idempotency) this.#pendingScopes.set(idempotency.scope, { id: record.id, fingerprint: idempotency.fingerprint, written });
    if (!this.#committing) {
      // The first create of a group: let the others decided in this turn of the event loop join it.
      this.#committing = true;
      setImmediate(() => void this.#commit());
    }
    return written.then((entry): CreateOutcome => ({ kind: 'created', post: entry }));
  }

  /**
   * Sends the creates decided so far to the writer as one batch, then the ones decided meanwhile, until
   * none is left. When a batch is answered, publishes the posts whose file was written, with one change
   * notification, and fails the creates whose write failed (which frees their reservations).
   */
  async #commit(): Promise<void> {
    while (this.#batch.length > 0) {
      const batch = this.#batch;
      this.#batch = [];
      let failures: Array<Error | null>;
      try {
        failures = await this.#write(batch.map(({ record }) => ({ file: this.#file(record.id), data: record })));
      } catch (error) {
        failures = batch.map(() => (error instanceof Error ? error : new Error(String(error))));
      }
      this.#publish(batch, failures);
    }
    this.#committing = false;
  }

  #publish(batch: readonly PendingCreate[], failures: ReadonlyArray<Error | null>): void {
    const published: Array<{ create: PendingCreate; entry: PostIndexEntry }> = [];
    batch.forEach((create, i) => {
      this.#release(create.record);
      const failure = failures[i];
      if (failure === null) published.push({ create, entry: withoutContent(create.record) });
      else create.reject(unwritable(this.#file(create.record.id), failure ?? new Error('the writer gave no answer')));
    });
    for (const { entry } of published) this.#index(entry);
    if (published.length > 0) this.#changed();
    for (const { create, entry } of published) create.resolve(entry);
  }

  /** Ends the reservations of a create whose write has settled. */
  #release(record: PostRecord): void {
    this.#reservedSlugs.delete(record.slug);
    const scope = record.idempotency?.scope;
    if (scope !== undefined && this.#pendingScopes.get(scope)?.id === record.id) this.#pendingScopes.delete(scope);
  }

  /** One page of posts with this status, newest first. */
  list(query: PostQuery): BlogPostPage {
    const page = query.page ?? 1;
    const limit = query.limit ?? LIST_LIMITS.defaultLimit;
    const categorySlug = query.category === undefined ? undefined : (findCategory(query.category)?.slug ?? query.category);
    const tag = query.tag?.toLowerCase();
    const matching: PostIndexEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const entry = this.#entries[i];
      if (!entry || entry.status !== query.status) continue;
      if (categorySlug !== undefined && entry.categorySlug !== categorySlug) continue;
      if (tag !== undefined && !entry.tags.some((t) => t.toLowerCase() === tag)) continue;
      matching.push(entry);
    }
    const start = (page - 1) * limit;
    return { posts: matching.slice(start, start + limit).map(toSummary), total: matching.length, page, limit };
  }

  /** The whole post with this slug, or null; drafts only when `includeDrafts`. */
  async getBySlug(slug: string, options: { includeDrafts: boolean }): Promise<BlogPost | null> {
    const entry = this.#bySlug.get(slug);
    if (!entry || (entry.status !== 'published' && !options.includeDrafts)) return null;
    const record = await readDocument(this.#file(entry.id), postRecordSchema);
    if (!record) throw new StoreError('unreadable', this.#file(entry.id), `The post file ${this.#file(entry.id)} is missing.`);
    return { ...toSummary(entry), content: record.content };
  }

  counts(): { published: number; drafts: number } {
    let published = 0;
    for (const entry of this.#entries) if (entry.status === 'published') published += 1;
    return { published, drafts: this.#entries.length - published };
  }

  // BlogReader: what the site renders from. Drafts never come out of these.

  async listPublished(options: ListPublishedOptions = {}): Promise<BlogPostPage> {
    return this.list({ ...options, status: 'published' });
  }

  getPublishedBySlug(slug: string): Promise<BlogPost | null> {
    return this.getBySlug(slug, { includeDrafts: false });
  }

  async categoriesWithCounts(): Promise<BlogCategory[]> {
    const counts = new Map<string, number>();
    for (const entry of this.#entries) {
      if (entry.status === 'published') counts.set(entry.categorySlug, (counts.get(entry.categorySlug) ?? 0) + 1);
    }
    const categories: BlogCategory[] = BLOG_CATEGORIES.map((category) => ({ ...category, postCount: counts.get(category.slug) ?? 0 }));
    const uncategorized = counts.get(UNCATEGORIZED.slug) ?? 0;
    if (uncategorized > 0) {
      categories.push({
        id: '0',
        ...UNCATEGORIZED,
        description: 'Posts whose category is not one of the built-in ones.',
        postCount: uncategorized,
        createdAt: BLOG_CATEGORIES[0].createdAt,
      });
    }
    return categories;
  }

  revision(): number {
    return this.#revision;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once every create decided so far has settled (its file written, or failed). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.#unsettled]);
  }
}
