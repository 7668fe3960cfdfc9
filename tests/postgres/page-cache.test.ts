/**
 * Two app servers on one PostgreSQL database: a change made through one reaches the other's kept pages
 * through the notification, which names what the change reached (decision 0031). The other server
 * renders again the pages that show the changed post, at once, and keeps every other page.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { redactedUrl } from '../../api/store/redacted-url';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import type { Store } from '../../api/store/store';
import { call, validPost } from '../api/support';
import { withMember } from '../support/failing';
import { freshDatabase } from '../support/postgres-cluster';
import { startTestServer, type TestServer } from '../support/server';

let a: TestServer;
let b: TestServer;
let readsOnB = 0;

function countingLookups(store: Store): Store {
  return withMember(
    store,
    'posts',
    withMember(store.posts, 'lookupSlug', (...args: Parameters<Store['posts']['lookupSlug']>) => {
      readsOnB += 1;
      return store.posts.lookupSlug(...args);
    }),
  );
}

beforeAll(async () => {
  const databaseUrl = await freshDatabase(inject('postgresUrl'), 'page_cache');
  const open = () => openPostgresStore(databaseUrl, redactedUrl(databaseUrl));
  a = await startTestServer({ openStore: open });
  b = await startTestServer({ openStore: open, wrapStore: countingLookups });
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

async function pageOnB(slug: string): Promise<{ text: string; rendered: boolean }> {
  const before = readsOnB;
  const text = await (await fetch(`${b.url}/blog/${slug}`)).text();
  return { text, rendered: readsOnB !== before };
}

describe('pages kept by another server', () => {
  it('are rendered again when a change made through the first server reaches them, and kept otherwise', async () => {
    const key = await a.createKey('Two servers', ['blog:write']);
    const posts: CreatePostResponse['post'][] = [];
    const etags: string[] = [];
    for (const n of [1, 2, 3]) {
      const created = await call<CreatePostResponse>(a, 'POST', '/api/blog', { key, body: validPost({ title: `Shared page ${n}`, status: 'Published' }) });
      expect(created.status).toBe(201);
      posts.push(created.json.post);
      etags.push(created.json.post.etag);
    }
    for (const post of posts) await pageOnB(post.slug);
    for (const post of posts) expect((await pageOnB(post.slug)).rendered).toBe(false);

    const [first, ...others] = posts;
    if (!first) throw new Error('no post');
    const edited = await call<PostWriteResponse>(a, 'PATCH', `/api/blog/${first.id}`, { key, headers: { 'if-match': etags[0] ?? '' }, body: { title: 'Shared page, retitled on A' } });
    expect(edited.status).toBe(200);

    // The notification reaches B within moments; its page then shows the new title.
    await expect.poll(async () => (await pageOnB(first.slug)).text, { timeout: 10_000 }).toContain('Shared page, retitled on A');
    for (const post of others) expect((await pageOnB(post.slug)).rendered, post.slug).toBe(false);
  });
});
