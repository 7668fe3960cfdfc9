import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PostIndexEntry } from '../store';
import { PostIndex } from './post-index';

const CATEGORIES = ['tax-benefits', 'estate-planning', 'uncategorized'];
const TAGS = ['Legacy', 'legacy', 'Retirement', 'IUL'];

function entry(seq: number, status: 'draft' | 'published', categorySlug: string, tags: string[]): PostIndexEntry {
  return {
    id: `p${seq}`,
    seq,
    slug: `post-${seq}`,
    title: `Post ${seq}`,
    excerpt: '',
    categorySlug,
    tags,
    author: { name: 'A' },
    isNewsArticle: false,
    trust: null,
    status,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    publishedAt: null,
    createdByKeyId: null,
    warnings: [],
    idempotency: null,
  } as PostIndexEntry;
}

/** What a list must be: every entry, newest first, filtered, then the page cut out. */
function naive(all: readonly PostIndexEntry[], query: { status: string; categorySlug?: string; tag?: string; page: number; limit: number }) {
  const matching = [...all]
    .reverse()
    .filter((e) => e.status === query.status)
    .filter((e) => query.categorySlug === undefined || e.categorySlug === query.categorySlug)
    .filter((e) => query.tag === undefined || e.tags.some((t) => t.toLowerCase() === query.tag?.toLowerCase()));
  const start = (query.page - 1) * query.limit;
  return { total: matching.length, slugs: matching.slice(start, start + query.limit).map((e) => e.slug) };
}

describe('PostIndex', () => {
  it('lists, pages, filters and counts exactly as a pass over every post would, however posts arrive', () => {
    const post = fc.record({
      status: fc.constantFrom('draft' as const, 'published' as const),
      category: fc.constantFrom(...CATEGORIES),
      tags: fc.subarray(TAGS),
    });
    const query = fc.record({
      status: fc.constantFrom('draft' as const, 'published' as const),
      categorySlug: fc.option(fc.constantFrom(...CATEGORIES, 'none'), { nil: undefined }),
      tag: fc.option(fc.constantFrom('legacy', 'LEGACY', 'iul', 'missing'), { nil: undefined }),
      page: fc.integer({ min: 1, max: 6 }),
      limit: fc.integer({ min: 1, max: 7 }),
    });
    fc.assert(
      fc.property(fc.array(fc.array(post, { maxLength: 6 }), { maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 5 }), (batches, queries) => {
        const index = new PostIndex();
        const all: PostIndexEntry[] = [];
        for (const batch of batches) {
          const entries = batch.map((p, i) => entry(all.length + i + 1, p.status, p.category, p.tags));
          index.add(entries);
          all.push(...entries);
        }
        for (const q of queries) {
          const page = index.list(q);
          expect({ total: page.total, slugs: page.entries.map((e) => e.slug) }).toEqual(naive(all, q));
        }
        const published = all.filter((e) => e.status === 'published');
        expect(index.counts()).toEqual({ published: published.length, drafts: all.length - published.length });
        const perCategory = new Map<string, number>();
        for (const e of published) perCategory.set(e.categorySlug, (perCategory.get(e.categorySlug) ?? 0) + 1);
        expect(index.publishedPerCategory()).toEqual(perCategory);
      }),
    );
  });
});
