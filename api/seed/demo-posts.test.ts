import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOG_CATEGORIES, categorySlugFor } from '../../contract/categories';
import { blogReader } from '../services/blog-reader';
import { openSqliteStore } from '../store/sql/sql-store';
import { loadDemoPosts, seedDemoPosts } from './demo-posts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'seed-test-'));
  dirs.push(dir);
  return dir;
}

describe('demo posts', () => {
  const posts = loadDemoPosts();

  it('have per-category counts equal to the table of SPEC section 3', () => {
    const counts = new Map<string, number>();
    for (const post of posts) counts.set(categorySlugFor(post.data.category), (counts.get(categorySlugFor(post.data.category)) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(BLOG_CATEGORIES.map((c) => [c.slug, c.postCount])));
  });

  it('are real articles of at least 250 words, published, with unique titles and an author', () => {
    const titles = new Set<string>();
    for (const post of posts) {
      const words = post.data.content.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length;
      expect(words, post.file).toBeGreaterThanOrEqual(250);
      expect(post.data.status, post.file).toBe('published');
      expect(post.data.author.name.length, post.file).toBeGreaterThan(2);
      titles.add(post.data.title.toLowerCase());
    }
    expect(titles.size).toBe(posts.length);
  });

  it('never contradict the figures the site quotes', () => {
    const text = posts.map((p) => p.data.content).join('\n');
    // Figures that must not appear in a different form than the site's.
    expect(text).not.toMatch(/RMDs? (?:at|age) 7[0-25-9]\b/);
    expect(text).not.toMatch(/\$838,0(?!17)\d\d/);
    expect(text).not.toMatch(/guaranteed (?:tax-free )?income of/i);
  });

  it('load into an empty data directory with their own dates, newest first, and never on top of posts', async () => {
    const dataDir = tempDir();
    const seeding = await openSqliteStore(dataDir);
    const first = await seedDemoPosts(seeding);
    expect(first).toEqual({ seeded: true, count: 41 });
    await seeding.close();
    const reopened = await openSqliteStore(dataDir);
    const store = blogReader(reopened.posts);
    const page = await store.listPublished({ limit: 100 });
    expect(page.total).toBe(41);
    const dates = page.posts.map((p) => p.published_at ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(dates.at(-1)?.startsWith('2024')).toBe(true);
    const categories = await store.categoriesWithCounts();
    expect(categories.map((c) => c.postCount)).toEqual([8, 12, 6, 5, 10]);

    const again = await seedDemoPosts(reopened);
    expect(again).toMatchObject({ seeded: false, reason: expect.stringContaining('already holds 41 posts') });
    await reopened.close();
  });
});
