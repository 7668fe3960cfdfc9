/**
 * Posts, one JSON document per post in `posts/<id>.json`, written atomically with lowdb's file adapter.
 * On open every document is read and checked, and an in-memory index (everything but the bodies) is
 * built; lists and slug checks use the index, a post's body is read from its file when asked for.
 * A write touches one small file whatever the number of posts, so writes stay cheap as the blog grows.
 * Writes go through one queue, which makes slug choice and idempotency checks race-free.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { BlogPost, BlogPostPage, BlogPostSummary, BlogReader, ListPublishedOptions } from '../contract/blog-reader';
import { LIST_LIMITS } from '../contract/blog-reader';
import type { PostStatus } from '../contract/blog';
import { BLOG_CATEGORIES, type BlogCategory, categoryNameFor, findCategory, UNCATEGORIZED } from '../contract/categories';
import { type IdempotencyRecord, type NewPost, type PostIndexEntry, type PostRecord, postRecordSchema } from './records';
import { SerialQueue } from './serial-queue';
import { corruptFile, readDocument, StoreError, unwritable, writeDocument } from './store-error';

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

export interface CreateOptions {
  /** Picks the slug, given a test of which slugs are taken (run inside the write queue). */
  chooseSlug: (isTaken: (slug: string) => boolean) => string;
  idempotency?: Omit<IdempotencyRecord, 'expiresAt'> & { ttlMs: number };
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
  readonly #queue = new SerialQueue();
  /** Every post in creation order (oldest first). */
  readonly #entries: PostIndexEntry[] = [];
  readonly #bySlug = new Map<string, PostIndexEntry>();
  readonly #byScope = new Map<string, PostIndexEntry>();
  readonly #listeners = new Set<() => void>();
  #revision = 0;
  #nextSeq = 1;

  private constructor(dir: string, now: () => Date) {
    this.dir = dir;
    this.#now = now;
  }

  static async open(dir: string, now: () => Date): Promise<PostStore> {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      throw unwritable(dir, error);
    }
    const store = new PostStore(dir, now);
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

  isSlugTaken(slug: string): boolean {
    return this.#bySlug.has(slug);
  }

  create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    return this.#queue.run(async () => {
      if (options.idempotency) {
        const earlier = this.findIdempotent(options.idempotency.scope);
        if (earlier) {
          return earlier.idempotency?.fingerprint === options.idempotency.fingerprint
            ? { kind: 'replayed', post: earlier }
            : { kind: 'conflict' };
        }
      }
      const now = this.#now();
      const at = now.toISOString();
      const idempotency = options.idempotency;
      const record: PostRecord = {
        ...post,
        id: randomUUID(),
        seq: this.#nextSeq,
        slug: options.chooseSlug((slug) => this.#bySlug.has(slug)),
        createdAt: at,
        updatedAt: at,
        publishedAt: post.status === 'published' ? at : null,
        idempotency: idempotency
          ? { scope: idempotency.scope, fingerprint: idempotency.fingerprint, expiresAt: new Date(now.getTime() + idempotency.ttlMs).toISOString() }
          : null,
      };
      if (this.#bySlug.has(record.slug)) throw new StoreError('conflict', this.#file(record.id), `The slug "${record.slug}" is taken.`);
      await writeDocument(this.#file(record.id), record);
      const entry = withoutContent(record);
      this.#index(entry);
      this.#changed();
      return { kind: 'created', post: entry };
    });
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

  /** Resolves once every write queued so far is on disk. */
  flush(): Promise<void> {
    return this.#queue.idle();
  }
}
