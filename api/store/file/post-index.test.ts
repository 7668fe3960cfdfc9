import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostIndexEntry } from '../store';
import { PostIndex } from './post-index';

const CATEGORIES = ['tax-benefits', 'estate-planning', 'uncategorized'];
const TAGS = ['Legacy', 'legacy', 'Retirement', 'IUL'];

const STATUSES = ['draft', 'scheduled', 'published', 'in_review'] as const;
const AUTHORS = ['Jane Author', 'jane author', 'Sam Writer'];
const OWNERS = ['acme', 'globex', null];

interface Shape {
  status: (typeof STATUSES)[number];
  category: string;
  tags: string[];
  author: string;
  owner: string | null;
  trashed: boolean;
  /** Minutes after the epoch the post went (or goes) public; null: never. */
  at: number | null;
}

function entry(seq: number, shape: Shape): PostIndexEntry {
  const minute = (m: number) => new Date(Date.UTC(2026, 0, 1) + m * 60_000).toISOString();
  return {
    id: `p${seq}`,
    seq,
    slug: `post-${seq}`,
    title: `Post ${seq}`,
    excerpt: '',
    categorySlug: shape.category,
    tags: shape.tags,
    author: { name: shape.author },
    isNewsArticle: false,
    trust: null,
    coverImage: null,
    status: shape.status,
    review: null,
    complianceAccept: [],
    createdAt: minute(seq),
    updatedAt: minute(seq),
    publishedAt: shape.status === 'published' && shape.at !== null ? minute(shape.at) : null,
    publishAt: shape.status === 'scheduled' && shape.at !== null ? minute(shape.at) : null,
    revision: 1,
    deletedAt: shape.trashed ? minute(seq) : null,
    previousSlugs: [],
    owner: shape.owner,
    createdByKeyId: null,
    updatedByKeyId: null,
    warnings: [],
    idempotency: null,
  };
}

type Query = { status: 'draft' | 'scheduled' | 'published' | 'in_review' | 'trashed' | 'any'; categorySlug?: string; tag?: string; author?: string; owner?: string; page: number; limit: number };

/** What a list must be: every entry filtered, newest first (by when it went public, else was made), then the page cut out. */
function naive(all: readonly PostIndexEntry[], query: Query) {
  const key = (e: PostIndexEntry) => e.publishedAt ?? e.publishAt ?? e.createdAt;
  const matching = [...all]
    .filter((e) => (query.status === 'trashed' ? e.deletedAt !== null : e.deletedAt === null && (query.status === 'any' || e.status === query.status)))
    .filter((e) => query.categorySlug === undefined || e.categorySlug === query.categorySlug)
    .filter((e) => query.tag === undefined || e.tags.some((t) => t.toLowerCase() === query.tag?.toLowerCase()))
    .filter((e) => query.author === undefined || e.author.name.toLowerCase() === query.author.toLowerCase())
    .filter((e) => query.owner === undefined || e.owner === query.owner)
    .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : b.seq - a.seq));
  const start = (query.page - 1) * query.limit;
  return { total: matching.length, slugs: matching.slice(start, start + query.limit).map((e) => e.slug) };
}

describe('PostIndex', () => {
  it('lists, pages, filters and counts exactly as a pass over every post would, however posts arrive, change and leave', () => {
    const shape: fc.Arbitrary<Shape> = fc.record({
      status: fc.constantFrom(...STATUSES),
      category: fc.constantFrom(...CATEGORIES),
      tags: fc.subarray(TAGS),
      author: fc.constantFrom(...AUTHORS),
      owner: fc.constantFrom(...OWNERS),
      trashed: fc.boolean(),
      at: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
    });
    const step = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), shapes: fc.array(shape, { maxLength: 70 }) }),
      fc.record({ kind: fc.constant('change' as const), pick: fc.nat(), shape }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    const query: fc.Arbitrary<Query> = fc.record(
      {
        status: fc.constantFrom('draft' as const, 'scheduled' as const, 'published' as const, 'in_review' as const, 'trashed' as const, 'any' as const),
        categorySlug: fc.constantFrom(...CATEGORIES, 'none'),
        tag: fc.constantFrom('legacy', 'LEGACY', 'iul', 'missing'),
        author: fc.constantFrom('JANE AUTHOR', 'sam writer', 'nobody'),
        owner: fc.constantFrom('acme', 'globex'),
        page: fc.integer({ min: 1, max: 6 }),
        limit: fc.integer({ min: 1, max: 7 }),
      },
      { requiredKeys: ['status', 'page', 'limit'] },
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 10 }), fc.array(query, { minLength: 1, maxLength: 6 }), (steps, queries) => {
        const index = new PostIndex();
        const stored = new Map<string, PostIndexEntry>();
        let seq = 0;
        for (const s of steps) {
          const ids = [...stored.keys()];
          if (s.kind === 'add') {
            const entries = s.shapes.map((sh) => entry(++seq, sh));
            index.add(entries);
            for (const e of entries) stored.set(e.id, e);
          } else if (ids.length > 0) {
            const id = ids[s.pick % ids.length] ?? '';
            const old = stored.get(id);
            if (!old) continue;
            if (s.kind === 'change') {
              const changed = { ...entry(old.seq, s.shape), revision: old.revision + 1 };
              index.replace(changed);
              stored.set(id, changed);
            } else {
              index.remove(id);
              stored.delete(id);
            }
          }
        }
        const all = [...stored.values()];
        for (const q of queries) {
          const page = index.list(q);
          expect({ total: page.total, slugs: page.entries.map((e) => e.slug) }).toEqual(naive(all, q));
        }
        const live = all.filter((e) => e.deletedAt === null);
        const count = (status: string) => live.filter((e) => e.status === status).length;
        expect(index.counts()).toEqual({ published: count('published'), drafts: count('draft'), scheduled: count('scheduled'), inReview: count('in_review'), trashed: all.length - live.length });
        const perCategory = new Map<string, number>();
        for (const e of live.filter((e) => e.status === 'published')) perCategory.set(e.categorySlug, (perCategory.get(e.categorySlug) ?? 0) + 1);
        expect(index.publishedPerCategory()).toEqual(perCategory);
        for (const e of all) expect(index.bySlug(e.slug)?.id).toBe(e.id);
      }),
    );
  });
});
