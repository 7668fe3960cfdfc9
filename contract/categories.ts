/**
 * The five built-in blog categories of SPEC section 3 and the mapping from whatever an integrator sends
 * as `category` (a name or a slug, any case) to a category slug; anything unknown is `uncategorized`.
 */
import { distance } from 'fastest-levenshtein';
import { slugify } from './slug';

export interface BlogCategory {
  id: string;
  name: string;
  slug: string;
  description: string;
  /** In BLOG_CATEGORIES: the figure SPEC section 3 lists. From a BlogReader: published posts now in it. */
  postCount: number;
  createdAt: string;
}

const CREATED_AT = '2024-01-15T00:00:00.000Z';

export const BLOG_CATEGORIES = [
  {
    id: '1',
    name: 'Insurance Basics',
    slug: 'insurance-basics',
    description: 'How life insurance works: policy types, premiums, cash value and death benefits explained plainly.',
    postCount: 8,
    createdAt: CREATED_AT,
  },
  {
    id: '2',
    name: 'IUL Strategies',
    slug: 'iul-strategies',
    description: 'Designing and funding indexed universal life policies: caps, floors, riders and maximum funding.',
    postCount: 12,
    createdAt: CREATED_AT,
  },
  {
    id: '3',
    name: 'Retirement Planning',
    slug: 'retirement-planning',
    description: 'Building tax-free retirement income and comparing IUL with 401(k), IRA and Roth accounts.',
    postCount: 6,
    createdAt: CREATED_AT,
  },
  {
    id: '4',
    name: 'Tax Benefits',
    slug: 'tax-benefits',
    description: 'Tax-free growth, tax-free policy loans and how the tax code treats life insurance.',
    postCount: 5,
    createdAt: CREATED_AT,
  },
  {
    id: '5',
    name: 'Financial Education',
    slug: 'financial-education',
    description: 'Compound growth, national debt, future tax rates and other money lessons for families.',
    postCount: 10,
    createdAt: CREATED_AT,
  },
] as const satisfies readonly BlogCategory[];

export const UNCATEGORIZED = { slug: 'uncategorized', name: 'Uncategorized' } as const;

export type BuiltInCategorySlug = (typeof BLOG_CATEGORIES)[number]['slug'];
export type CategorySlug = BuiltInCategorySlug | typeof UNCATEGORIZED.slug;

/** Each built-in category under its slug and under its slugified name (worked out once, not per post). */
const CATEGORY_BY_KEY: ReadonlyMap<string, (typeof BLOG_CATEGORIES)[number]> = new Map(
  BLOG_CATEGORIES.flatMap((category) => [
    [slugify(category.name), category],
    [category.slug, category],
  ]),
);

/** The built-in category a name or slug refers to (case, spacing and punctuation ignored), if any. */
export function findCategory(nameOrSlug: string): (typeof BLOG_CATEGORIES)[number] | undefined {
  return CATEGORY_BY_KEY.get(slugify(nameOrSlug));
}

/** Maps a category name or slug to its slug; anything not in the built-in list maps to `uncategorized`. */
export function categorySlugFor(nameOrSlug: string): CategorySlug {
  return findCategory(nameOrSlug)?.slug ?? UNCATEGORIZED.slug;
}

/** Display name of a category slug (`Uncategorized` for anything unknown). */
export function categoryNameFor(slug: string): string {
  return BLOG_CATEGORIES.find((category) => category.slug === slug)?.name ?? UNCATEGORIZED.name;
}

/** Every slug a post can carry, for filters. */
export const CATEGORY_SLUGS: readonly CategorySlug[] = [...BLOG_CATEGORIES.map((c) => c.slug), UNCATEGORIZED.slug];

/** The built-in category closest in spelling to an unknown one ("Tax Benefit" → Tax Benefits), if any is near. */
export function closestCategory(nameOrSlug: string): (typeof BLOG_CATEGORIES)[number] | undefined {
  const key = slugify(nameOrSlug);
  if (!key) return undefined;
  let best: { category: (typeof BLOG_CATEGORIES)[number]; distance: number } | undefined;
  for (const [known, category] of CATEGORY_BY_KEY) {
    const d = distance(key, known);
    if (!best || d < best.distance) best = { category, distance: d };
  }
  return best && best.distance <= Math.max(2, Math.floor(key.length / 3)) ? best.category : undefined;
}

/**
 * What a post's author is told when its category is not a built-in one (null when it is): the post is
 * filed under uncategorized, with the closest built-in category to use instead.
 */
export function unknownCategoryWarning(nameOrSlug: string): string | null {
  if (findCategory(nameOrSlug) || slugify(nameOrSlug) === UNCATEGORIZED.slug) return null;
  const near = closestCategory(nameOrSlug);
  const hint = near ? ` Did you mean "${near.name}"?` : ` The built-in ones are ${BLOG_CATEGORIES.map((c) => `"${c.name}"`).join(', ')}.`;
  return `Category "${nameOrSlug}" is not a built-in category: the post was filed under ${UNCATEGORIZED.slug}.${hint}`;
}
