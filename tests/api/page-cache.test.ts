/**
 * The server keeps rendered pages until a change reaches what they were made from (decision 0031): a
 * page kept is answered without reading the store, so a page that reads the store again was rendered
 * again. After an edit of an old post, exactly the pages that show it are rendered again (every one of
 * them shows the edit) and every other page is still kept; after a new post, the lists it joins show it
 * and every post page and content page is still kept; a post taken down is gone from every page at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOG_CATEGORIES } from '../../contract/categories';
import type { Store } from '../../api/store/store';
import { startTestServer, type TestServer } from '../support/server';
import type { CreatePostResponse } from '../../contract/blog';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { call, validPost } from './support';

/** The posts' reads a page's loaders make; a page answered from the cache makes none. */
const READS = new Set(['list', 'lookupSlug', 'getById', 'publishedPerCategory']);
let reads = 0;

function countingReads(store: Store): Store {
  const posts = new Proxy(store.posts, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== 'function') return member;
      const bound = (member as (...args: unknown[]) => unknown).bind(target);
      if (!READS.has(String(property))) return bound;
      return (...args: unknown[]) => {
        reads += 1;
        return bound(...args);
      };
    },
  });
  return new Proxy(store, { get: (target, property) => (property === 'posts' ? posts : Reflect.get(target, property, target)) });
}

let server: TestServer;
let key: string;
const created: Array<{ id: string; slug: string; etag: string; category: string }> = [];

beforeAll(async () => {
  server = await startTestServer({ wrapStore: countingReads });
  key = await server.createKey('Page cache', ['blog:write']);
  // 30 posts over the five categories, oldest first: three pages of /blog, more than the feed holds.
  for (let n = 1; n <= 30; n += 1) {
    const category = BLOG_CATEGORIES[n % BLOG_CATEGORIES.length] ?? BLOG_CATEGORIES[0];
    const answer = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key,
      body: validPost({ title: `Cache study number ${n}`, status: 'Published', category: category.name, tags: [`study-${n}`] }),
    });
    expect(answer.status).toBe(201);
    const { id, slug, etag } = answer.json.post;
    created.push({ id, slug, etag, category: category.slug });
  }
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Every page of the site a crawler finds (the sitemap's URLs and the list pages), with the feeds. */
async function sitePages(): Promise<string[]> {
  const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '/').pathname);
  const lists = [2, 3].map((page) => `/blog?page=${page}`);
  return [...new Set([...paths, ...lists, '/rss.xml', '/sitemap.xml'])];
}

/** Asks for each page in turn: its text, and whether it was rendered (read the posts) for this request. */
async function visit(paths: readonly string[]): Promise<Map<string, { text: string; rendered: boolean; status: number }>> {
  const seen = new Map<string, { text: string; rendered: boolean; status: number }>();
  for (const path of paths) {
    const before = reads;
    const answer = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    seen.set(path, { text: await answer.text(), rendered: reads !== before, status: answer.status });
  }
  return seen;
}

function rendered(seen: Map<string, { rendered: boolean }>): string[] {
  return [...seen].filter(([, page]) => page.rendered).map(([path]) => path);
}

describe('the rendered pages kept after a change', () => {
  it('are all kept while nothing changes', async () => {
    const pages = await sitePages();
    expect(pages.length).toBeGreaterThan(45);
    await visit(pages);
    expect(rendered(await visit(pages))).toEqual([]);
  });

  it('after an edit of an old post: the pages that show it, and only those, are rendered again, showing the edit', async () => {
    const pages = await sitePages();
    await visit(pages);
    const oldest = created[0];
    if (!oldest) throw new Error('the posts were not made');
    const edited = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${oldest.id}`, { key, headers: { 'if-match': oldest.etag }, body: { title: 'Cache study, retitled' } });
    expect(edited.status).toBe(200);

    const after = await visit(pages);
    // Its page, the /blog page and the category page that list it, and the sitemap (its address and date).
    const showing = [...after].filter(([, page]) => page.text.includes('Cache study, retitled') || page.text.includes(`/blog/${oldest.slug}<`)).map(([path]) => path);
    expect(showing).toEqual(expect.arrayContaining([`/blog/${oldest.slug}`, '/blog?page=3', `/blog/category/${oldest.category}`, '/sitemap.xml']));
    expect(rendered(after).sort()).toEqual(showing.sort());
    // No page still shows the old title.
    expect([...after].filter(([, page]) => page.text.includes('Cache study number 1<') || page.text.includes('Cache study number 1"'))).toEqual([]);
    oldest.etag = edited.json.etag;
  });

  it('after a new post: the lists it joins show it, and every post page and content page is still kept', async () => {
    const pages = await sitePages();
    await visit(pages);
    const category = BLOG_CATEGORIES[0];
    const answer = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Cache study, the newest', status: 'Published', category: category.name }) });
    expect(answer.status).toBe(201);
    const { slug } = answer.json.post;

    const after = await visit(pages);
    for (const list of ['/', '/blog', `/blog/category/${category.slug}`, '/rss.xml', '/sitemap.xml']) {
      expect(after.get(list)?.text, list).toContain(slug);
    }
    const kept = pages.filter((path) => !path.startsWith('/blog/category/') && !path.startsWith('/blog?') && !['/', '/blog', '/rss.xml', '/sitemap.xml'].includes(path));
    expect(kept.length).toBeGreaterThan(35);
    expect(kept.filter((path) => after.get(path)?.rendered !== false)).toEqual([]);
  });

  it('after a post is taken down: no page shows it any more', async () => {
    const pages = await sitePages();
    const target = created[14];
    if (!target) throw new Error('the posts were not made');
    await visit(pages);
    const down = await call(server, 'PATCH', `/api/blog/${target.id}`, { key, headers: { 'if-match': target.etag }, body: { status: 'Draft' } });
    expect(down.status).toBe(200);
    const after = await visit(pages);
    expect(after.get(`/blog/${target.slug}`)?.status).toBe(404);
    expect([...after].filter(([, page]) => page.status === 200 && page.text.includes(`/blog/${target.slug}`)).map(([path]) => path)).toEqual([]);
  });
});
