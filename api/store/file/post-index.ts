/**
 * The in-memory index of the stored posts: every field but the body. Lists, counts, slug look-ups
 * and the site's pages are answered from it; bodies stay on disk. Only posts that are durable enter
 * it (a change replaces an entry only once it is on disk), so nothing is listed that a crash could
 * lose.
 */
import type { PostCounts, PostIndexEntry, PostPage, PostQuery } from '../store';

const DEFAULT_LIMIT = 10;

type Kind = '' | 'category' | 'tag' | 'owner';

/** The key of one of the index's lists: a state (a status, `trashed`, or `any` for all but the trash) and one filter. */
function listKey(state: string, kind: Kind = '', value = ''): string {
  return `${state}\0${kind}\0${value}`;
}

/** Where a post stands for lists: in the trash, or its status. */
function stateOf(entry: PostIndexEntry): string {
  return entry.deletedAt ? 'trashed' : entry.status;
}

/**
 * Lists are ordered by when a post went (or goes) public, else when it was made, then by creation
 * order: a scheduled post that goes live joins the top of the published list, a backdated import
 * its place in time.
 */
function sortKey(entry: PostIndexEntry): string {
  return entry.publishedAt ?? entry.publishAt ?? entry.createdAt;
}

function compare(a: PostIndexEntry, b: PostIndexEntry): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : a.seq - b.seq;
}

/** The first position in `list` whose entry does not sort before `entry`. */
function position(list: readonly PostIndexEntry[], entry: PostIndexEntry): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const at = list[mid];
    if (at && compare(at, entry) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Every list an entry belongs to: its state's, and its state's per category, per tag and per owner;
 * and, for `?mine=1` across statuses, its owner's among every post not in the trash. Authors have no
 * lists of their own: an author filter narrows another list (a page of a public list is cached).
 */
function keysOf(entry: PostIndexEntry): string[] {
  const state = stateOf(entry);
  const keys = [listKey(state), listKey(state, 'category', entry.categorySlug)];
  for (const tag of new Set(entry.tags.map((t) => t.toLowerCase()))) keys.push(listKey(state, 'tag', tag));
  if (entry.owner) {
    keys.push(listKey(state, 'owner', entry.owner));
    if (state !== 'trashed') keys.push(listKey('any', 'owner', entry.owner));
  }
  return keys;
}

function matches(entry: PostIndexEntry, query: PostQuery): boolean {
  if (query.categorySlug !== undefined && entry.categorySlug !== query.categorySlug) return false;
  if (query.tag !== undefined && !entry.tags.some((t) => t.toLowerCase() === query.tag?.toLowerCase())) return false;
  if (query.author !== undefined && entry.author.name.toLowerCase() !== query.author.toLowerCase()) return false;
  if (query.owner !== undefined && entry.owner !== query.owner) return false;
  return true;
}

export class PostIndex {
  /** By id, in creation order (a Map keeps the order of first insertion when an entry is replaced). */
  readonly #byId = new Map<string, PostIndexEntry>();
  readonly #bySlug = new Map<string, PostIndexEntry>();
  /** Slugs posts had before, with the id of the post that had each. */
  readonly #previousSlugs = new Map<string, string>();
  /**
   * The entries per state, and per state and one filter (category, tag, author, owner), each sorted
   * oldest first, so a page of a list and its total cost the page, not a pass over every post
   * (100,000 posts: docs/benchmarks.md, reads).
   */
  readonly #lists = new Map<string, PostIndexEntry[]>();
  #maxSeq = 0;
  #revision = 0;

  /** Adds posts loaded or written together, moving the revision once. */
  add(entries: readonly PostIndexEntry[]): void {
    if (entries.length === 0) return;
    // Many at once (start-up): append, then sort the lists, unless the entries came in list order (as
    // posts usually load: in creation order, published when created), which keeps every list in order.
    const bulk = entries.length > 64;
    const inOrder = bulk && isSorted(entries);
    const touched = new Set<PostIndexEntry[]>();
    for (const entry of entries) {
      this.#enter(entry);
      for (const key of keysOf(entry)) {
        let list = this.#lists.get(key);
        if (!list) this.#lists.set(key, (list = []));
        if (bulk) {
          list.push(entry);
          if (!inOrder) touched.add(list);
        } else {
          insert(list, entry);
        }
      }
    }
    // Posts load in creation order, which is usually their list order too: sort only what is not.
    for (const list of touched) if (!isSorted(list)) list.sort(compare);
    this.#revision += 1;
  }

  /** Puts a changed post in place of its stored version (same id). */
  replace(entry: PostIndexEntry): void {
    const old = this.#byId.get(entry.id);
    if (old) this.#leave(old);
    this.#enter(entry);
    for (const key of keysOf(entry)) {
      let list = this.#lists.get(key);
      if (!list) this.#lists.set(key, (list = []));
      insert(list, entry);
    }
    this.#revision += 1;
  }

  /** Forgets a post (purged); its slugs are free again. */
  remove(id: string): void {
    const old = this.#byId.get(id);
    if (!old) return;
    this.#leave(old);
    this.#byId.delete(id);
    this.#revision += 1;
  }

  #enter(entry: PostIndexEntry): void {
    this.#byId.set(entry.id, entry);
    this.#bySlug.set(entry.slug, entry);
    for (const slug of entry.previousSlugs) this.#previousSlugs.set(slug, entry.id);
    this.#maxSeq = Math.max(this.#maxSeq, entry.seq);
  }

  /** Takes an entry out of every list and look-up (it stays in #byId until replaced or removed). */
  #leave(entry: PostIndexEntry): void {
    if (this.#bySlug.get(entry.slug) === entry) this.#bySlug.delete(entry.slug);
    for (const slug of entry.previousSlugs) if (this.#previousSlugs.get(slug) === entry.id) this.#previousSlugs.delete(slug);
    for (const key of keysOf(entry)) {
      const list = this.#lists.get(key);
      if (!list) continue;
      const at = position(list, entry);
      if (list[at]?.id === entry.id) list.splice(at, 1);
      if (list.length === 0) this.#lists.delete(key);
    }
  }

  byId(id: string): PostIndexEntry | undefined {
    return this.#byId.get(id);
  }

  bySlug(slug: string): PostIndexEntry | undefined {
    return this.#bySlug.get(slug);
  }

  /** The post that had this slug before, if any post did. */
  byPreviousSlug(slug: string): PostIndexEntry | undefined {
    const id = this.#previousSlugs.get(slug);
    return id === undefined ? undefined : this.#byId.get(id);
  }

  /** True when a post has this slug now or had it before (an old slug keeps redirecting). */
  hasSlug(slug: string): boolean {
    return this.#bySlug.has(slug) || this.#previousSlugs.has(slug);
  }

  /**
   * Posts whose slug was made from the same base: `base`, `base-2`, `base-3` ... (a title made into a
   * slug ignores case, spacing and punctuation, so these are the posts with the same title). Stops
   * after three numbers in a row that no post has.
   */
  withSlugBase(base: string): PostIndexEntry[] {
    const found: PostIndexEntry[] = [];
    let misses = 0;
    for (let n = 1; misses < 3 && n < 10_000; n++) {
      const entry = this.#bySlug.get(n === 1 ? base : `${base}-${n}`);
      if (entry) {
        found.push(entry);
        misses = 0;
      } else if (n > 1) {
        misses++;
      }
    }
    return found;
  }

  /** One past the highest `seq` stored. */
  nextSeq(): number {
    return this.#maxSeq + 1;
  }

  revision(): number {
    return this.#revision;
  }

  /** Every stored post, in creation order. */
  all(): PostIndexEntry[] {
    return [...this.#byId.values()];
  }

  /** A state's whole list, oldest first. */
  listOf(state: string): readonly PostIndexEntry[] {
    return this.#lists.get(listKey(state)) ?? [];
  }

  list(query: PostQuery): PostPage {
    const page = query.page ?? 1;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const start = (page - 1) * limit;
    const matching = this.#matching(query);
    // Newest first: the page is counted from the end of the list.
    const entries: PostIndexEntry[] = [];
    for (let i = matching.length - 1 - start; i >= 0 && entries.length < limit; i--) {
      const entry = matching[i];
      if (entry) entries.push(entry);
    }
    return { entries, total: matching.length, page, limit };
  }

  /** Every entry a query matches, oldest first: the shortest list that holds them, filtered by the rest. */
  #matching(query: PostQuery): readonly PostIndexEntry[] {
    const lists: (readonly PostIndexEntry[])[] = [];
    const pick = (kind: Kind, value: string | undefined) => {
      if (value !== undefined) lists.push(this.#lists.get(listKey(query.status, kind, value)) ?? []);
    };
    if (query.status === 'any') {
      pick('owner', query.owner);
      if (lists.length === 0) lists.push([...this.listOf('draft'), ...this.listOf('scheduled'), ...this.listOf('in_review'), ...this.listOf('published')].sort(compare));
    } else {
      pick('category', query.categorySlug);
      pick('tag', query.tag?.toLowerCase());
      pick('owner', query.owner);
      if (lists.length === 0) lists.push(this.listOf(query.status));
    }
    const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a));
    const narrowed = lists.length > 1 || query.author !== undefined || (query.status === 'any' && (query.categorySlug !== undefined || query.tag !== undefined));
    return narrowed ? shortest.filter((entry) => matches(entry, query)) : shortest;
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
    const size = (state: string) => this.#lists.get(listKey(state))?.length ?? 0;
    return { published: size('published'), drafts: size('draft'), scheduled: size('scheduled'), inReview: size('in_review'), trashed: size('trashed') };
  }
}

function isSorted(list: readonly PostIndexEntry[]): boolean {
  for (let i = 1; i < list.length; i++) {
    const a = list[i - 1];
    const b = list[i];
    if (a && b && compare(a, b) > 0) return false;
  }
  return true;
}

function insert(list: PostIndexEntry[], entry: PostIndexEntry): void {
  const last = list.at(-1);
  if (!last || compare(last, entry) <= 0) list.push(entry);
  else list.splice(position(list, entry), 0, entry);
}

