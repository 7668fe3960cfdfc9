/**
 * The server answers correctly from its listening line on (decision 0040): the site's build loads after
 * the server listens, so the requests here are all sent the moment the "Site and API on" line arrives,
 * before that load can have finished: a page (the home page, a post, the blog list, a category, the feed)
 * waits for the build and comes back whole; the API and the health check answer from the store.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStore } from '../../api/store/open-store';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { makeTempDir, seedDemoDataDir } from '../support/server';
import { exited, startServerProcess } from '../support/server-process';

const dataDir = makeTempDir('iul-first-answer-');
let newest = { slug: '', title: '', categorySlug: '' };
let published = 0;

beforeAll(async () => {
  await seedDemoDataDir(dataDir);
  const store = await openStore({ kind: 'sqlite', dataDir });
  try {
    const { entries, total } = await store.posts.list({ status: 'published', limit: 1 });
    const post = entries[0];
    if (!post) throw new Error('the demo articles hold no published post');
    newest = { slug: post.slug, title: post.title, categorySlug: post.categorySlug };
    published = total;
  } finally {
    await store.close();
  }
}, 60_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  body: string;
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

it('answers a page, a post, the blog list, a category, the feed, the API and the health check sent at its listening line', async () => {
  const server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false' });
  try {
    // All at once, the moment the listening line is read: none waits for another.
    const [home, post, list, category, feed, api, health] = await Promise.all([
      get(`${server.url}/`),
      get(`${server.url}/blog/${newest.slug}`),
      get(`${server.url}/blog`),
      get(`${server.url}/blog/category/${newest.categorySlug}`),
      get(`${server.url}/rss.xml`),
      get(`${server.url}/api/blog?limit=1`),
      get(`${server.url}/api/health`),
    ]);

    expect(home.status).toBe(200);
    expect(home.type).toBe('text/html; charset=utf-8');
    expect(home.body).toMatch(/^<!DOCTYPE html>/i);
    expect(home.body).toContain(escapeHtml(DEFAULT_SITE_CONFIG.agencyName));
    expect(home.body).toMatch(/<\/html>\s*$/);

    expect(post.status).toBe(200);
    expect(post.type).toBe('text/html; charset=utf-8');
    expect(post.body).toContain(`<h1`);
    expect(post.body).toContain(escapeHtml(newest.title));

    expect(list.status).toBe(200);
    expect(list.body).toContain(`href="/blog/${newest.slug}"`);
    expect(category.status).toBe(200);
    expect(category.body).toContain(`href="/blog/${newest.slug}"`);

    expect(feed.status).toBe(200);
    expect(feed.type).toMatch(/^application\/rss\+xml/);
    expect(feed.body).toContain(`/blog/${newest.slug}</link>`);

    expect(api.status).toBe(200);
    expect(api.type).toBe('application/json; charset=utf-8');
    const answer = JSON.parse(api.body) as { success: boolean; posts: Array<{ slug: string }> };
    expect(answer.success).toBe(true);
    expect(answer.posts.map((p) => p.slug)).toEqual([newest.slug]);

    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ success: true, status: 'ok', posts: { published } });

    // A page asked again is the same page (the first one was not an error page that happened to say 200).
    const again = await get(`${server.url}/blog/${newest.slug}`);
    expect(again.status).toBe(200);
    expect(again.body).toBe(post.body);
    expect(server.output()).not.toMatch(/could not start|Error/);
  } finally {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
}, 120_000);
