/**
 * The in-memory index of the stored posts: every field but the body, in creation order. Lists,
 * counts, slug look-ups and the site's pages are answered from it; bodies stay on disk. Only posts
 * that are durable enter it, so nothing is listed that a crash could lose.
 */
import type { PostCounts, PostIndexEntry, PostPage, PostQuery } from '../store';

const DEFAULT_LIMIT = 10;

export class PostIndex {
  /** Oldest first (ascending `seq`): a post is added only after every post decided before it. */
  readonly #entries: PostIndexEntry[] = [];
  readonly #bySlug = new Map<string, PostIndexEntry>();
  #revision = 0;

  /** Adds posts loaded or written together, moving the revision once. */
  add(entries: readonly PostIndexEntry[]): void {
    if (entries.length === 0) return;
    for (const entry of entries) {
      this.#entries.push(entry);
      this.#bySlug.set(entry.slug, entry);
    }
    this.#revision += 1;
  }

  bySlug(slug: string): PostIndexEntry | undefined {
    return this.#bySlug.get(slug);
  }

  hasSlug(slug: string): boolean {
    return this.#bySlug.has(slug);
  }

  /** One past the highest `seq` stored. */
  nextSeq(): number {
    return (this.#entries.at(-1)?.seq ?? 0) + 1;
  }

  revision(): number {
    return this.#revision;
  }

  all(): readonly PostIndexEntry[] {
    return this.#entries;
  }

  list(query: PostQuery): PostPage {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const tag = query.tag?.toLowerCase();
    const start = (page - 1) * limit;
    const entries: PostIndexEntry[] = [];
    let total = 0;
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      const entry = this.#entries[i];
      if (!entry || entry.status !== query.status) continue;
      if (query.categorySlug !== undefined && entry.categorySlug !== query.categorySlug) continue;
      if (tag !== undefined && !entry.tags.some((t) => t.toLowerCase() === tag)) continue;
      if (total >= start && entries.length < limit) entries.push(entry);
      total += 1;
    }
    return { entries, total, page, limit };
  }

  publishedPerCategory(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.#entries) {
      if (entry.status === 'published') counts.set(entry.categorySlug, (counts.get(entry.categorySlug) ?? 0) + 1);
    }
    return counts;
  }

  counts(): PostCounts {
    let published = 0;
    let drafts = 0;
    for (const entry of this.#entries) {
      if (entry.status === 'published') published += 1;
      else drafts += 1;
    }
    return { published, drafts };
  }
}
