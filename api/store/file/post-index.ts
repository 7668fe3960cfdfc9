/**
 * The in-memory index of the stored posts: every field but the body, in creation order. Lists,
 * counts, slug look-ups and the site's pages are answered from it; bodies stay on disk. Only posts
 * that are durable enter it, so nothing is listed that a crash could lose.
 */
import type { PostCounts, PostIndexEntry, PostPage, PostQuery } from '../store';

const DEFAULT_LIMIT = 10;

/** The key of one of the index's lists: a status, and a category slug or a lower-cased tag. */
function listKey(status: string, kind: '' | 'category' | 'tag' = '', value = ''): string {
  return `${status}\0${kind}\0${value}`;
}

function push(lists: Map<string, PostIndexEntry[]>, key: string, entry: PostIndexEntry): void {
  const list = lists.get(key);
  if (list) list.push(entry);
  else lists.set(key, [entry]);
}

export class PostIndex {
  /** Oldest first (ascending `seq`): a post is added only after every post decided before it. */
  readonly #entries: PostIndexEntry[] = [];
  readonly #bySlug = new Map<string, PostIndexEntry>();
  /**
   * The same entries, oldest first, per status, per status and category, and per status and tag, so
   * a page of a list and its total cost the page, not a pass over every post (100,000 posts:
   * docs/benchmarks.md, reads).
   */
  readonly #lists = new Map<string, PostIndexEntry[]>();
  #revision = 0;

  /** Adds posts loaded or written together, moving the revision once. */
  add(entries: readonly PostIndexEntry[]): void {
    if (entries.length === 0) return;
    for (const entry of entries) {
      this.#entries.push(entry);
      this.#bySlug.set(entry.slug, entry);
      push(this.#lists, listKey(entry.status), entry);
      push(this.#lists, listKey(entry.status, 'category', entry.categorySlug), entry);
      for (const tag of new Set(entry.tags.map((t) => t.toLowerCase()))) push(this.#lists, listKey(entry.status, 'tag', tag), entry);
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
    const byCategory = query.categorySlug === undefined ? undefined : (this.#lists.get(listKey(query.status, 'category', query.categorySlug)) ?? []);
    const byTag = tag === undefined ? undefined : (this.#lists.get(listKey(query.status, 'tag', tag)) ?? []);
    let matching: readonly PostIndexEntry[];
    if (byCategory && byTag) {
      // Both: the shorter list, filtered by the other condition.
      const [shorter, keep] = byCategory.length <= byTag.length ? [byCategory, (e: PostIndexEntry) => e.tags.some((t) => t.toLowerCase() === tag)] : [byTag, (e: PostIndexEntry) => e.categorySlug === query.categorySlug];
      matching = shorter.filter(keep);
    } else {
      matching = byCategory ?? byTag ?? this.#lists.get(listKey(query.status)) ?? [];
    }
    // Newest first: the page is counted from the end of the list.
    const entries: PostIndexEntry[] = [];
    for (let i = matching.length - 1 - start; i >= 0 && entries.length < limit; i--) {
      const entry = matching[i];
      if (entry) entries.push(entry);
    }
    return { entries, total: matching.length, page, limit };
  }

  publishedPerCategory(): Map<string, number> {
    const counts = new Map<string, number>();
    const prefix = listKey('published', 'category');
    for (const [key, list] of this.#lists) {
      if (key.startsWith(prefix)) counts.set(key.slice(prefix.length), list.length);
    }
    return counts;
  }

  counts(): PostCounts {
    return { published: this.#lists.get(listKey('published'))?.length ?? 0, drafts: this.#lists.get(listKey('draft'))?.length ?? 0 };
  }
}
