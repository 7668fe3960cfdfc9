/**
 * The read side over real HTTP: published posts only, newest first, paging and filters; one post by
 * slug; categories with their counts; drafts with a blog:read key; health. Also the BlogReader the site
 * gets sees the same posts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { CategoriesResponse, GetPostResponse, HealthResponse, ListPostsResponse } from '../../contract/blog-reader';
import { BLOG_CATEGORIES } from '../../contract/categories';
import { blogReader } from '../../api/services/blog-reader';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

let server: TestServer;
let writer: string;
let reader: string;
const published: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('writer', ['blog:write']);
  reader = await server.createKey('reader', ['blog:read']);
  const posts = [
    { title: 'Alpha', category: 'Tax Benefits', tags: ['Taxes'], status: 'published' },
    { title: 'Bravo', category: 'IUL Strategies', tags: ['iul'], status: 'published' },
    { title: 'Secret Draft', category: 'Tax Benefits', tags: ['taxes'], status: 'Draft' },
    { title: 'Charlie', category: 'tax-benefits', tags: ['iul', 'TAXES'], status: 'published' },
    { title: 'Delta', category: 'Odd One', tags: [], status: 'published' },
  ];
  for (const post of posts) {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost(post) });
    if (post.status === 'published') published.unshift(res.json.post.slug);
  }
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/blog', () => {
  it('lists published posts newest first with paging fields', async () => {
    const res = await call<ListPostsResponse>(server, 'GET', '/api/blog');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, total: 4, page: 1, limit: 10 });
    expect(res.json.posts.map((p) => p.slug)).toEqual(published);
    expect(res.json.posts.every((p) => p.status === 'published')).toBe(true);
    expect(res.json.posts[0]).not.toHaveProperty('content');
  });

  it('pages with page and limit', async () => {
    const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?page=2&limit=3');
    expect(res.json).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(res.json.posts.map((p) => p.slug)).toEqual(published.slice(3));
  });

  it('filters by category (slug or name) and by tag (any case)', async () => {
    const bySlug = await call<ListPostsResponse>(server, 'GET', '/api/blog?category=tax-benefits');
    expect(bySlug.json.posts.map((p) => p.title)).toEqual(['Charlie', 'Alpha']);
    const byName = await call<ListPostsResponse>(server, 'GET', `/api/blog?category=${encodeURIComponent('Tax Benefits')}`);
    expect(byName.json.total).toBe(2);
    const byTag = await call<ListPostsResponse>(server, 'GET', '/api/blog?tag=IUL');
    expect(byTag.json.posts.map((p) => p.title)).toEqual(['Charlie', 'Bravo']);
    const both = await call<ListPostsResponse>(server, 'GET', '/api/blog?category=tax-benefits&tag=taxes');
    expect(both.json.posts.map((p) => p.title)).toEqual(['Charlie', 'Alpha']);
    const none = await call<ListPostsResponse>(server, 'GET', '/api/blog?category=nothing-like-this');
    expect(none.json).toMatchObject({ total: 0, posts: [] });
  });

  it('lists drafts only with a blog:read key', async () => {
    const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?status=draft', { key: reader });
    expect(res.status).toBe(200);
    expect(res.json.posts.map((p) => p.title)).toEqual(['Secret Draft']);
    expect(res.headers.get('cache-control')).toContain('no-store');
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await fetch(`${server.url}/api/blog`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('GET /api/blog/:slug', () => {
  it('returns a published post with its sanitised content', async () => {
    const res = await call<GetPostResponse>(server, 'GET', '/api/blog/alpha');
    expect(res.status).toBe(200);
    expect(res.json.post).toMatchObject({ slug: 'alpha', title: 'Alpha', content: validPost().content, category: { slug: 'tax-benefits' } });
  });

  it('needs no key for published posts, and any key may read them', async () => {
    expect((await call(server, 'GET', '/api/blog/alpha', { key: writer })).status).toBe(200);
    expect((await call(server, 'GET', '/api/blog', { key: writer })).status).toBe(200);
  });

  it('reports a bad key even where none is needed', async () => {
    const res = await call(server, 'GET', '/api/blog', { key: `${writer.slice(0, -1)}${writer.endsWith('a') ? 'b' : 'a'}` });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('malformed_api_key');
  });

  it('hides drafts from the public and shows them to keys that may read or write posts', async () => {
    expect((await call(server, 'GET', '/api/blog/secret-draft')).status).toBe(404);
    for (const key of [reader, writer]) {
      const res = await call<GetPostResponse>(server, 'GET', '/api/blog/secret-draft', { key });
      expect(res.status).toBe(200);
      expect(res.json.post.status).toBe('draft');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
  });
});

describe('GET /api/blog/categories', () => {
  it('lists the five categories with their published counts, and uncategorized when used', async () => {
    const res = await call<CategoriesResponse>(server, 'GET', '/api/blog/categories');
    expect(res.status).toBe(200);
    const counts = Object.fromEntries(res.json.categories.map((c) => [c.slug, c.postCount]));
    expect(counts).toEqual({
      'insurance-basics': 0,
      'iul-strategies': 1,
      'retirement-planning': 0,
      'tax-benefits': 2,
      'financial-education': 0,
      uncategorized: 1,
    });
    for (const category of BLOG_CATEGORIES) {
      expect(res.json.categories).toContainEqual({ ...category, postCount: counts[category.slug] });
    }
  });
});

describe('GET /api/health', () => {
  it('reports ok and the post counts', async () => {
    const res = await call<HealthResponse>(server, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, status: 'ok', posts: { published: 4, drafts: 1 } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the BlogReader handed to the site', () => {
  it('sees the same published posts, never a draft, and a new post once it is created', async () => {
    const blog = blogReader(server.store.posts);
    const page = await blog.listPublished({ limit: 2 });
    expect(page.posts.map((p) => p.slug)).toEqual(published.slice(0, 2));
    expect(await blog.getPublishedBySlug('secret-draft')).toBeNull();
    const before = server.store.posts.revision();
    await call(server, 'POST', '/api/blog', { key: writer, body: validPost({ title: 'Echo', status: 'published' }) });
    expect(server.store.posts.revision()).toBeGreaterThan(before);
    expect((await blog.getPublishedBySlug('echo'))?.content).toBe(validPost().content);
  });
});
