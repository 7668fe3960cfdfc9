/**
 * A page not in the answer cache is rendered once for all the requests that ask for it at the same
 * time (decision 0025): after a new post, the visitors arriving at /blog while it renders get the
 * answer of that one render, byte for byte, and the store is read once, not once per visitor. A page
 * for one visitor (the quote form, with its one-time token) is rendered for each, as before. On
 * PostgreSQL, where a render waits for the database and other requests arrive meanwhile (on SQLite a
 * render of /blog reads the store without giving way, and the next request finds the cached page).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { redactedUrl } from '../../api/store/redacted-url';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { validPost } from '../api/support';
import { withMember } from '../support/failing';
import { freshDatabase } from '../support/postgres-cluster';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let lists = 0;

beforeAll(async () => {
  const databaseUrl = await freshDatabase(inject('postgresUrl'), 'render_once');
  server = await startTestServer({
    openStore: () => openPostgresStore(databaseUrl, redactedUrl(databaseUrl)),
    wrapStore: (store) =>
      withMember(
        store,
        'posts',
        withMember(store.posts, 'list', (...args: Parameters<typeof store.posts.list>) => {
          lists += 1;
          return store.posts.list(...args);
        }),
      ),
  });
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function together(page: string, count: number): Promise<Response[]> {
  return Promise.all(Array.from({ length: count }, () => fetch(`${server.url}${page}`, { headers: { 'accept-encoding': 'identity' } })));
}

describe('a page asked for by many visitors at once', () => {
  it('is rendered once, and every visitor gets that answer', async () => {
    const key = await server.createKey('Render once', ['blog:write']);
    for (const round of [1, 2]) {
      // A new post: every cached page is out of date.
      const created = await fetch(`${server.url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(validPost({ title: `Render once, round ${round}`, status: 'Published' })),
      });
      expect(created.status).toBe(201);
      lists = 0;
      const answers = await together('/blog', 12);
      const bodies = await Promise.all(answers.map((answer) => answer.text()));
      expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(200));
      expect(bodies[0]).toContain(`Render once, round ${round}`);
      expect(new Set(bodies).size).toBe(1);
      expect(new Set(answers.map((answer) => answer.headers.get('etag'))).size).toBe(1);
      // The blog list reads the posts once per render (its page and its categories' counts may take more
      // than one read): the same number as a single visitor's request costs, not twelve times it.
      const perRender = lists;
      lists = 0;
      await fetch(`${server.url}/blog?page=1&render-once=${round}`).then((answer) => answer.text());
      expect(perRender).toBe(lists);
      expect(perRender).toBeGreaterThan(0);
    }
  });

  it('renders a page for one visitor for each of them', async () => {
    const answers = await together('/get-quote', 4);
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(answers.map((answer) => answer.headers.get('cache-control'))).toEqual(Array(4).fill('private, no-cache'));
    const tokens = bodies.map((body) => /name="formToken" value="([^"]+)"/.exec(body)?.[1]);
    expect(tokens.every(Boolean)).toBe(true);
    expect(new Set(tokens).size).toBe(4);
  });
});
