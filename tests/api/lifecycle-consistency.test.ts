/**
 * Property: whatever sequence of creates, updates, unpublishes, deletes and restores authors make over
 * HTTP, every place that shows posts agrees with what is stored: the API's list, each post's own
 * answer, the RSS feed, the sitemap and the category counts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { CategoriesResponse, ListPostsResponse } from '../../contract/blog-reader';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const CATEGORIES = ['tax-benefits', 'iul-strategies', 'retirement-planning'] as const;
const TITLES = ['Tax-free income', 'Policy loans explained', 'Why max funding matters'] as const;

type Op =
  | { kind: 'create'; title: (typeof TITLES)[number]; category: (typeof CATEGORIES)[number]; published: boolean }
  | { kind: 'update'; pick: number; category: (typeof CATEGORIES)[number]; retitle: boolean }
  | { kind: 'unpublish' | 'publish' | 'delete' | 'restore'; pick: number };

interface Model {
  id: string;
  slug: string;
  etag: string;
  category: string;
  published: boolean;
  trashed: boolean;
}

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), title: fc.constantFrom(...TITLES), category: fc.constantFrom(...CATEGORIES), published: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), category: fc.constantFrom(...CATEGORIES), retitle: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('unpublish' as const, 'publish' as const, 'delete' as const, 'restore' as const), pick: fc.nat() }) },
);

async function apply(server: TestServer, key: string, posts: Model[], step: Op, n: number): Promise<void> {
  if (step.kind === 'create') {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key,
      body: validPost({ title: step.title, category: step.category, status: step.published ? 'published' : 'draft' }),
    });
    expect(res.status).toBe(201);
    posts.push({ id: res.json.post.id, slug: res.json.post.slug, etag: res.json.post.etag, category: step.category, published: step.published, trashed: false });
    return;
  }
  const post = posts[step.pick % Math.max(posts.length, 1)];
  if (!post) return;
  const write = (method: string, path: string, body?: unknown) =>
    call<PostWriteResponse>(server, method, path, { key, ...(body === undefined ? {} : { body }), headers: { 'if-match': post.etag } });
  let res;
  switch (step.kind) {
    case 'update':
      res = await write('PATCH', `/api/blog/${post.id}`, { category: step.category, ...(step.retitle ? { title: `Edit ${n}` } : {}) });
      if (res.status === 200) post.category = step.category;
      break;
    case 'unpublish':
    case 'publish':
      res = await write('PATCH', `/api/blog/${post.id}`, { status: step.kind === 'publish' ? 'published' : 'draft' });
      if (res.status === 200) post.published = step.kind === 'publish';
      break;
    case 'delete':
      res = await write('DELETE', `/api/blog/${post.id}`);
      post.trashed = true;
      break;
    case 'restore':
      res = await write('POST', `/api/blog/${post.id}/restore`);
      if (res.status === 200) post.trashed = false;
      break;
  }
  // A change to a post in the trash is 410, a restore of one not in it 409: nothing else fails.
  expect([200, 409, 410]).toContain(res.status);
  if (res.status === 200) post.etag = res.json.etag;
}

async function check(server: TestServer, posts: readonly Model[]): Promise<void> {
  const live = posts.filter((p) => p.published && !p.trashed);
  const expected = live.map((p) => p.slug).sort();
  const list = await call<ListPostsResponse>(server, 'GET', '/api/blog?limit=100');
  expect(list.json.posts.map((p) => p.slug).sort()).toEqual(expected);
  expect(list.json.total).toBe(live.length);
  const rss = await (await fetch(`${server.url}/rss.xml`)).text();
  expect([...rss.matchAll(/<item>[\s\S]*?<link>[^<]*\/blog\/([^<]+)<\/link>/g)].map((m) => m[1]).sort()).toEqual(expected);
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  expect([...sitemap.matchAll(/<loc>[^<]*\/blog\/(?!category\/)([^<]+)<\/loc>/g)].map((m) => m[1]).sort()).toEqual(expected);
  const categories = await call<CategoriesResponse>(server, 'GET', '/api/blog/categories');
  for (const slug of CATEGORIES) {
    expect(categories.json.categories.find((c) => c.slug === slug)?.postCount).toBe(live.filter((p) => p.category === slug).length);
  }
  for (const post of posts) {
    const status = (await fetch(`${server.url}/api/blog/${post.slug}`)).status;
    // A deleted post that was public is gone (410); a draft never was public (404).
    expect(status).toBe(post.published ? (post.trashed ? 410 : 200) : 404);
  }
}

describe('lists, feeds, the sitemap and counts', () => {
  it('agree with the store after any sequence of creates, updates, unpublishes, deletes and restores', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const server = await startTestServer({ api: { writesPerMinute: 0 } });
        try {
          const key = await server.createKey('author', ['blog:write']);
          const posts: Model[] = [];
          for (const [n, step] of ops.entries()) await apply(server, key, posts, step, n);
          await check(server, posts);
        } finally {
          await server.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});
