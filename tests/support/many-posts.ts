/**
 * Many posts for the staff area's list tests, written straight into the server's store (one store call
 * each, no HTTP): 500 of them take a second or two, where 500 API calls would take far longer.
 * Authors, categories and statuses rotate so every filter has something to find; every 50th post says
 * "risk-free" and "guaranteed returns", so the compliance rules find something in exactly those.
 */
import { BLOG_CATEGORIES } from '../../contract/categories';
import type { Store } from '../../api/store/store';
import { newPost } from './store-contract';

export const SEED_AUTHORS = ['Avery Author', 'Blake Writer', 'Casey Scribe', 'Drew Penman'] as const;
export const RISKY_CONTENT = '<h2>The short answer</h2>\n<p>This policy is <strong>risk-free</strong> and pays guaranteed returns every year.</p>';

export interface SeededPost {
  id: string;
  slug: string;
  title: string;
  author: string;
  categorySlug: string;
  status: 'published' | 'draft';
  risky: boolean;
}

/** The i-th post's title: `${prefix} note 0007`, or the one needle among them. */
export function seededTitle(prefix: string, i: number, needle: string | null): string {
  return needle !== null && i === 137 ? needle : `${prefix} note ${String(i).padStart(4, '0')}`;
}

export async function seedPosts(store: Store, count: number, prefix: string, needle: string | null = null): Promise<SeededPost[]> {
  const seeded: SeededPost[] = [];
  for (let i = 0; i < count; i++) {
    const title = seededTitle(prefix, i, needle);
    const author = SEED_AUTHORS[i % SEED_AUTHORS.length] ?? 'Avery Author';
    const categorySlug = BLOG_CATEGORIES[i % BLOG_CATEGORIES.length]?.slug ?? 'tax-benefits';
    const status = i % 7 === 3 ? 'draft' : 'published';
    const risky = i % 50 === 25;
    const outcome = await store.posts.create(
      newPost(title, { author: { name: author }, categorySlug, status, ...(risky ? { content: RISKY_CONTENT } : {}) }),
      { slugBase: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') },
    );
    if (outcome.kind !== 'created') throw new Error(`post ${title} was not created (${outcome.kind})`);
    seeded.push({ id: outcome.post.id, slug: outcome.post.slug, title, author, categorySlug, status, risky });
  }
  return seeded;
}
