import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorListScope, CATEGORIES_SCOPE, categoryListScope, changeScopes, LIST_SCOPE, postScope, tagListScope } from './post-scopes';
import type { PostIndexEntry } from './records';

function entry(overrides: Partial<PostIndexEntry> = {}): PostIndexEntry {
  return {
    id: 'p1',
    seq: 1,
    slug: 'a-post',
    title: 'A post',
    excerpt: 'About it.',
    categorySlug: 'tax-benefits',
    tags: ['IUL', 'retirement'],
    author: { name: 'Jane Author' },
    status: 'published',
    publishedAt: '2026-01-02T00:00:00.000Z',
    publishAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    deletedAt: null,
    revision: 1,
    previousSlugs: [],
    ...overrides,
  } as PostIndexEntry;
}

const LISTS_OF_P1 = [LIST_SCOPE, categoryListScope('tax-benefits'), authorListScope('Jane Author'), tagListScope('iul'), tagListScope('retirement')];

describe('what a post change reaches', () => {
  it('an edit of a public post that leaves its place in the lists: the post alone (the pages showing it)', () => {
    expect(changeScopes(entry(), entry({ title: 'A better title', excerpt: 'New words.', revision: 2 }))).toEqual([postScope('p1')]);
    // Tags and authors compare as the lists match them, without regard to case.
    expect(changeScopes(entry(), entry({ tags: ['retirement', 'iul'], author: { name: 'JANE AUTHOR' } }))).toEqual([postScope('p1')]);
  });

  it('a post that becomes public, or stops being public: every list it is in, and the counts', () => {
    const draft = entry({ status: 'draft', publishedAt: null });
    for (const [before, after] of [
      [null, entry()],
      [draft, entry()],
      [entry(), draft],
      [entry(), entry({ deletedAt: '2026-02-01T00:00:00.000Z' })],
      [entry(), null],
      [entry({ status: 'scheduled', publishedAt: null, publishAt: '2026-03-01T00:00:00.000Z' }), entry()],
    ] as const) {
      expect(new Set(changeScopes(before, after))).toEqual(new Set([postScope('p1'), ...LISTS_OF_P1, CATEGORIES_SCOPE]));
    }
  });

  it('a public post moved to another category, tag or date: the lists it leaves and joins', () => {
    const moved = changeScopes(entry(), entry({ categorySlug: 'iul-strategies', tags: ['IUL'] }));
    expect(new Set(moved)).toEqual(new Set([postScope('p1'), ...LISTS_OF_P1, categoryListScope('iul-strategies'), CATEGORIES_SCOPE]));
    const redated = changeScopes(entry(), entry({ publishedAt: '2026-05-05T00:00:00.000Z' }));
    expect(new Set(redated)).toEqual(new Set([postScope('p1'), ...LISTS_OF_P1]));
  });

  it('a change to a post never public (a draft, the trash): the post alone', () => {
    const draft = entry({ status: 'draft', publishedAt: null });
    expect(changeScopes(draft, { ...draft, title: 'Still a draft', categorySlug: 'iul-strategies' })).toEqual([postScope('p1')]);
    expect(changeScopes(null, draft)).toEqual([postScope('p1')]);
    expect(changeScopes(null, null)).toEqual([]);
  });

  it('always reaches the post, and the lists whenever the post is public on one side and not the other', () => {
    const side = fc.option(
      fc.record({
        status: fc.constantFrom('published', 'draft', 'scheduled', 'in_review'),
        deleted: fc.boolean(),
        category: fc.constantFrom('tax-benefits', 'iul-strategies'),
        tags: fc.array(fc.constantFrom('a', 'B', 'c'), { maxLength: 3 }),
        title: fc.string(),
      }),
      { nil: null },
    );
    fc.assert(
      fc.property(side, side, (before, after) => {
        const make = (s: typeof before) =>
          s && entry({ status: s.status as PostIndexEntry['status'], deletedAt: s.deleted ? '2026-02-01T00:00:00.000Z' : null, categorySlug: s.category, tags: s.tags, title: s.title });
        const scopes = changeScopes(make(before), make(after));
        if (!before && !after) {
          expect(scopes).toEqual([]);
          return;
        }
        expect(scopes).toContain(postScope('p1'));
        const isPublic = (s: typeof before) => Boolean(s && s.status === 'published' && !s.deleted);
        if (isPublic(before) !== isPublic(after)) {
          expect(scopes).toContain(LIST_SCOPE);
          expect(scopes).toContain(CATEGORIES_SCOPE);
          for (const s of [before, after]) if (s && isPublic(s)) expect(scopes).toContain(categoryListScope(s.category));
        }
        if (!isPublic(before) && !isPublic(after)) expect(scopes).toEqual([postScope('p1')]);
      }),
    );
  });
});
