/**
 * 200 concurrent valid POSTs produce 200 posts with 200 distinct slugs, and every one of them is still
 * there after the store is reopened and after a new server starts on the same data. Requests sent twice
 * at once with one Idempotency-Key create one post.
 */
import { rmSync } from 'node:fs';
import { Agent } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { ListPostsResponse } from '../../contract/blog-reader';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const COUNT = 200;
const dataDir = makeTempDir('iul-concurrency-');
let server: TestServer;
const agent = new Agent({ connections: 64 });

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
  await agent.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('creates one post per Idempotency-Key when every request is sent twice at once', async () => {
  const key = await server.createKey('idempotent');
  const KEYS = 50;
  const responses = await Promise.all(
    Array.from({ length: KEYS * 2 }, async (_, i) => {
      const n = i % KEYS;
      const response = await fetch(`${server.url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `twice-${n}` },
        body: JSON.stringify(validPost({ title: n % 2 === 0 ? 'Twice Sent' : `Twice Sent ${n}` })),
        dispatcher: agent,
      } as RequestInit);
      return { n, status: response.status, replayed: response.headers.get('idempotency-replayed'), body: (await response.json()) as CreatePostResponse };
    }),
  );
  expect(responses.map((r) => r.status)).toEqual(Array.from({ length: KEYS * 2 }, () => 201));
  for (let n = 0; n < KEYS; n++) {
    const pair = responses.filter((r) => r.n === n);
    expect(new Set(pair.map((r) => r.body.post.id)).size).toBe(1);
    expect(pair.filter((r) => r.replayed === 'true')).toHaveLength(1);
  }
  expect(new Set(responses.map((r) => r.body.post.slug)).size).toBe(KEYS);
  const reopened = await openSqliteStore(dataDir);
  expect((await reopened.posts.counts()).drafts).toBe(KEYS);
});

it(`keeps all of ${COUNT} concurrent posts, with distinct slugs, across a restart`, async () => {
  const key = await server.createKey('bulk');
  const responses = await Promise.all(
    Array.from({ length: COUNT }, async (_, i) => {
      const response = await fetch(`${server.url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        // Half share one title, so the slug race is real; the rest differ.
        body: JSON.stringify(validPost({ title: i % 2 === 0 ? 'Concurrent Post' : `Concurrent Post ${i}`, status: 'published' })),
        dispatcher: agent,
      } as RequestInit);
      return { status: response.status, body: (await response.json()) as CreatePostResponse };
    }),
  );
  expect(responses.map((r) => r.status)).toEqual(Array.from({ length: COUNT }, () => 201));
  const slugs = new Set(responses.map((r) => r.body.post.slug));
  const ids = new Set(responses.map((r) => r.body.post.id));
  expect(slugs.size).toBe(COUNT);
  expect(ids.size).toBe(COUNT);

  await server.close();
  const reopened = await openSqliteStore(dataDir);
  const listed = await reopened.posts.list({ status: 'published', limit: COUNT + 10 });
  expect(listed.total).toBe(COUNT);
  expect(new Set(listed.entries.map((p) => p.slug))).toEqual(slugs);

  server = await startTestServer({ dataDir });
  const seen = new Set<string>();
  for (let page = 1; page <= 2; page++) {
    const res = await call<ListPostsResponse>(server, 'GET', `/api/blog?limit=100&page=${page}`);
    expect(res.json.total).toBe(COUNT);
    for (const post of res.json.posts) seen.add(post.slug);
  }
  expect(seen).toEqual(slugs);
});
