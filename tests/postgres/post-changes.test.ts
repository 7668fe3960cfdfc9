/**
 * Post changes on PostgreSQL without a shared counter (decision 0036): a create or an edit writes no
 * row of store_meta (so concurrent writes do not queue on one row), new posts are numbered by the
 * sequence `post_seq` (also on a database that numbered them from store_meta before migration 0009),
 * and each server counts the changes it learns of itself. Two app servers taking interleaved,
 * concurrent edits on both while visitors read pages on both end with every kept page showing what is
 * stored: none stays cached with what a change replaced. A listener that lost its connection drops
 * every kept page once it listens again, so an edit made while it was away is not missed.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { redactedUrl } from '../../api/store/redacted-url';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import type { PostRecord, Store } from '../../api/store/store';
import { call, validPost } from '../api/support';
import { withMember } from '../support/failing';
import { freshDatabase } from '../support/postgres-cluster';
import { newPost } from '../support/store-contract';
import { startTestServer, type TestServer } from '../support/server';

/** Counts the page renders of a server by the slug lookups its post pages make (a kept page makes none). */
function counting(counter: { reads: number }): (store: Store) => Store {
  return (store) =>
    withMember(
      store,
      'posts',
      withMember(store.posts, 'lookupSlug', (...args: Parameters<Store['posts']['lookupSlug']>) => {
        counter.reads += 1;
        return store.posts.lookupSlug(...args);
      }),
    );
}

async function onDatabase<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('two servers taking concurrent edits on one PostgreSQL database', () => {
  let databaseUrl: string;
  let a: TestServer;
  let b: TestServer;
  const readsOn = new Map<string, { reads: number }>();
  /** What the stores said on their own (the listeners reconnecting). */
  const said: string[] = [];

  beforeAll(async () => {
    databaseUrl = await freshDatabase(inject('postgresUrl'), 'post_changes');
    const open = () => openPostgresStore(databaseUrl, redactedUrl(databaseUrl), { log: (line) => said.push(line) });
    const onA = { reads: 0 };
    const onB = { reads: 0 };
    a = await startTestServer({ openStore: open, wrapStore: counting(onA) });
    b = await startTestServer({ openStore: open, wrapStore: counting(onB) });
    readsOn.set(a.url, onA);
    readsOn.set(b.url, onB);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  async function page(server: TestServer, path: string): Promise<{ text: string; rendered: boolean }> {
    const counter = readsOn.get(server.url) ?? { reads: 0 };
    const before = counter.reads;
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBe(200);
    return { text: await res.text(), rendered: counter.reads !== before };
  }

  it('writes no row of store_meta: creates and edits on both servers go through while another transaction holds all of them', async () => {
    const key = await a.createKey('No hot row', ['blog:write']);
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT name FROM store_meta FOR UPDATE');
      const created = await Promise.all(
        [a, b, a, b].map((server, n) => call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: `Held meta ${n}`, status: 'published' }) })),
      );
      expect(created.map((res) => res.status)).toEqual([201, 201, 201, 201]);
      const first = created[0]?.json.post;
      if (!first) throw new Error('no post');
      const edited = await call<PostWriteResponse>(b, 'PATCH', `/api/blog/${first.id}`, { key, headers: { 'if-match': first.etag }, body: { title: 'Held meta, edited' } });
      expect(edited.status).toBe(200);
      // Numbered by the sequence: four different numbers, none from store_meta (which has no 'post_seq' row any more).
      const seqs = await Promise.all(created.map(async (res) => (await a.store.posts.getById(res.json.post.id))?.seq));
      expect(new Set(seqs).size).toBe(4);
      const meta = await holder.query<{ name: string }>("SELECT name FROM store_meta WHERE name IN ('post_seq', 'posts_revision') ORDER BY name");
      expect(meta.rows.map((row) => row.name)).toEqual(['posts_revision']);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
  });

  it('ends with every page on both servers showing the stored titles after interleaved edits through both, read while they ran', async () => {
    const key = await a.createKey('Interleaved', ['blog:write']);
    const servers = [a, b];
    const posts: Array<{ id: string; slug: string; etag: string; title: string }> = [];
    for (let n = 0; n < 6; n++) {
      const created = await call<CreatePostResponse>(servers[n % 2] ?? a, 'POST', '/api/blog', { key, body: validPost({ title: `Interleaved ${n}`, status: 'published' }) });
      expect(created.status).toBe(201);
      posts.push({ id: created.json.post.id, slug: created.json.post.slug, etag: created.json.post.etag, title: `Interleaved ${n}` });
    }
    const paths = ['/blog', ...posts.map((post) => `/blog/${post.slug}`)];
    // Every page kept on both servers before the edits.
    for (const server of servers) for (const path of paths) await page(server, path);
    for (const server of servers) for (const post of posts) expect((await page(server, `/blog/${post.slug}`)).rendered, `${server.url} ${post.slug}`).toBe(false);

    // Each post edited four times, in turn through A and B (each chain waits for its own last answer,
    // for its ETag); the six chains run at once, and visitors ask both servers for every page meanwhile.
    let editing = true;
    const edits = posts.map(async (post, n) => {
      for (let round = 1; round <= 4; round++) {
        const title = `Interleaved ${n}, edit ${round}`;
        const edited = await call<PostWriteResponse>(servers[(n + round) % 2] ?? a, 'PATCH', `/api/blog/${post.id}`, { key, headers: { 'if-match': post.etag }, body: { title } });
        expect(edited.status, title).toBe(200);
        post.etag = edited.json.etag;
        post.title = title;
      }
    });
    const visitors = servers.map(async (server) => {
      let asked = 0;
      while (editing || asked < paths.length) {
        await page(server, paths[asked % paths.length] ?? '/blog');
        asked += 1;
      }
    });
    await Promise.all(edits);
    editing = false;
    await Promise.all(visitors);

    // Every page comes to show the last title of each post on both servers (a page kept with an earlier
    // title would stay so and fail here), and none shows a title that an edit replaced.
    for (const server of servers) {
      for (const post of posts) {
        await expect.poll(async () => (await page(server, `/blog/${post.slug}`)).text, { timeout: 10_000 }).toContain(post.title);
      }
      await expect
        .poll(async () => {
          const list = (await page(server, '/blog')).text;
          return posts.filter((post) => !list.includes(post.title)).map((post) => post.title);
        }, { timeout: 10_000 })
        .toEqual([]);
      const list = (await page(server, '/blog')).text;
      for (const [n] of posts.entries()) for (const round of [1, 2, 3]) expect(list).not.toContain(`Interleaved ${n}, edit ${round}<`);
    }
    // And pages are kept again: asked once more, none is rendered.
    for (const server of servers) for (const post of posts) expect((await page(server, `/blog/${post.slug}`)).rendered, `${server.url} ${post.slug}`).toBe(false);
  });

  it('drops every kept page once a listener that lost its connection listens again (the changes made meanwhile were not heard)', async () => {
    const key = await a.createKey('Reconnect', ['blog:write']);
    const made = await Promise.all(
      ['Heard after reconnecting', 'Untouched while away'].map((title) => call<CreatePostResponse>(a, 'POST', '/api/blog', { key, body: validPost({ title, status: 'published' }) })),
    );
    const [changed, untouched] = made.map((res) => res.json.post);
    if (!changed || !untouched) throw new Error('no post');
    for (const post of [changed, untouched]) await page(b, `/blog/${post.slug}`);
    for (const post of [changed, untouched]) expect((await page(b, `/blog/${post.slug}`)).rendered).toBe(false);

    const reconnectedBefore = said.filter((line) => line.startsWith('Following post changes from other instances again')).length;
    // Both servers' listeners lose their connection; an edit is made through A right away.
    const ended = await onDatabase(databaseUrl, (client) =>
      client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN iul_posts_changed' AND pid <> pg_backend_pid()"),
    );
    expect(ended.rowCount).toBe(2);
    const edited = await call<PostWriteResponse>(a, 'PATCH', `/api/blog/${changed.id}`, { key, headers: { 'if-match': changed.etag }, body: { title: 'Heard after reconnecting, edited' } });
    expect(edited.status).toBe(200);
    await expect.poll(() => said.filter((line) => line.startsWith('Following post changes from other instances again')).length, { timeout: 20_000 }).toBe(reconnectedBefore + 2);

    // Whether or not B heard the edit, it shows it; and the page no change reached is rendered again once
    // (B cannot know what changed while it was not listening), then kept.
    await expect.poll(async () => (await page(b, `/blog/${changed.slug}`)).text, { timeout: 10_000 }).toContain('Heard after reconnecting, edited');
    expect((await page(b, `/blog/${untouched.slug}`)).rendered).toBe(true);
    expect((await page(b, `/blog/${untouched.slug}`)).rendered).toBe(false);
  });
});

describe('migration 0009 on a database that numbered posts from store_meta', () => {
  it('numbers the next post after every earlier one and leaves no row to number from', async () => {
    const url = await freshDatabase(inject('postgresUrl'), 'post_seq_upgrade');
    const open = () => openPostgresStore(url, redactedUrl(url));
    const first = await open();
    try {
      for (const n of [1, 2, 3]) expect((await first.posts.create(newPost(`Before ${n}`), { slugBase: `before-${n}` })).kind).toBe('created');
      // One went live under an approval: migration 0011 reads its expiry from the record.
      const approved = (await first.posts.getBySlug('before-2')) as PostRecord;
      const approval = { code: 'C-2', by: 'Rita Reviewer', at: '2026-01-01T00:00:00.000Z', expiresAt: '2026-12-01T00:00:00.000Z' };
      expect((await first.posts.save({ ...approved, approval }, { expectedRevision: approved.revision, changed: ['approval'] })).kind).toBe('saved');
    } finally {
      await first.close();
    }
    // As the store was before 0009: numbered up to 41 (posts since removed) in store_meta, no sequence,
    // and none of the later migrations (0010-vitals: its tables; 0011-post-approvals: its column) applied,
    // as migrations apply in order.
    await onDatabase(url, async (client) => {
      await client.query('DROP SEQUENCE post_seq');
      await client.query("INSERT INTO store_meta (name, value) VALUES ('post_seq', '41')");
      await client.query('DROP TABLE analytics_vitals, analytics_vitals_daily');
      await client.query('ALTER TABLE posts DROP COLUMN approval_expires_at');
      await client.query("DELETE FROM schema_migrations WHERE name >= '0009'");
    });
    const upgraded = await open();
    try {
      const created = await upgraded.posts.create(newPost('After the upgrade'), { slugBase: 'after-the-upgrade' });
      if (created.kind !== 'created') throw new Error(created.kind);
      expect(created.post.seq).toBe(42);
      const rows = await onDatabase(url, (client) => client.query("SELECT name FROM store_meta WHERE name = 'post_seq'"));
      expect(rows.rowCount).toBe(0);
      expect((await upgraded.posts.approved()).map((entry) => [entry.slug, entry.approval?.expiresAt])).toEqual([['before-2', '2026-12-01T00:00:00.000Z']]);
    } finally {
      await upgraded.close();
    }
  });
});
