/**
 * Scheduled publishing over real HTTP: a scheduled post stays off the site until its time, then goes
 * live without any outside scheduler (also when the server was down at that time), with its
 * scheduled time as its publication date; times are instants (offsets and daylight-saving changes
 * respected), and a time that cannot be meant is refused with the fix.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { GetPostByIdResponse, PostWriteResponse } from '../../contract/post-lifecycle';
import type { ApiErrorBody } from '../../contract/errors';
import type { ListPostsResponse } from '../../contract/blog-reader';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

let keys = 0;

async function serve(options: Parameters<typeof startTestServer>[0] = {}): Promise<{ server: TestServer; key: string }> {
  const server = await startTestServer({ api: { writesPerMinute: 0 }, ...options });
  servers.push(server);
  return { server, key: await server.createKey(`scheduler ${++keys}`, ['blog:write']) };
}

function schedule(server: TestServer, key: string, title: string, publishAt: string) {
  return call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title, status: 'scheduled', publish_at: publishAt }) });
}

async function isPublic(server: TestServer, slug: string): Promise<boolean> {
  return (await call(server, 'GET', `/api/blog/${slug}`)).status === 200;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe('scheduled posts', () => {
  it('stay off the site, lists, feeds and the sitemap until their time, then go live on their own', async () => {
    // The server's clock: held still while the posts are scheduled, then let run from the second
    // post's time. That post is due 50 ms after the held instant, so the server's own timer fires
    // within about that (no request, no outside scheduler): while the clock is held its timer finds
    // nothing due and is set again; once the clock runs, the next one publishes it.
    let base = Date.now();
    let runningSince: number | null = null;
    const now = () => new Date(runningSince === null ? base : base + (Date.now() - runningSince));
    const { server, key } = await serve({ now });
    // One post due in an hour, checked off the site whatever the machine's speed; one due at once.
    const later = new Date(now().getTime() + 60 * 60 * 1000);
    const waiting = await schedule(server, key, 'Goes live in an hour', later.toISOString().replace('Z', '+00:00'));
    expect(waiting.status).toBe(201);
    expect(waiting.json.post).toMatchObject({ status: 'scheduled', publish_at: later.toISOString() });
    expect(waiting.json.message).toContain(later.toISOString());
    const hidden = waiting.json.post.slug;
    const offSite = async () => {
      expect(await isPublic(server, hidden)).toBe(false);
      expect((await fetch(`${server.url}/blog/${hidden}`)).status).toBe(404);
      expect(await (await fetch(`${server.url}/rss.xml`)).text()).not.toContain(hidden);
      expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).not.toContain(`/blog/${hidden}`);
      expect((await call<ListPostsResponse>(server, 'GET', '/api/blog')).json.posts.map((listed) => listed.slug)).not.toContain(hidden);
    };
    await offSite();

    const at = new Date(base + 50);
    const res = await schedule(server, key, 'Goes live soon', at.toISOString().replace('Z', '+00:00'));
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe('scheduled');
    expect(await isPublic(server, res.json.post.slug)).toBe(false);
    base = at.getTime();
    runningSince = Date.now();
    const slug = res.json.post.slug;
    expect(await waitFor(() => isPublic(server, slug), 10_000)).toBe(true);
    const post = (await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${slug}`)).json.post;
    expect(post).toMatchObject({ status: 'published', published_at: at.toISOString(), publish_at: null });
    const list = await call<ListPostsResponse>(server, 'GET', '/api/blog');
    expect(list.json.posts[0]?.slug).toBe(slug);
    expect(await (await fetch(`${server.url}/rss.xml`)).text()).toContain(slug);
    expect(await (await fetch(`${server.url}/sitemap.xml`)).text()).toContain(`/blog/${slug}`);
    expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(200);
    await offSite();
  });

  it('are published when the server starts again after being down at their time', async () => {
    const dataDir = makeTempDir();
    // The servers' clock: the post is due an hour after the first one stops; the second starts later.
    let clock = Date.parse('2026-11-02T09:00:00Z');
    const first = await serve({ dataDir, now: () => new Date(clock) });
    const at = new Date(clock + 60 * 60_000);
    const slug = (await schedule(first.server, first.key, 'Due while down', at.toISOString())).json.post.slug;
    await first.server.close();
    servers.splice(servers.indexOf(first.server), 1);
    clock = at.getTime() + 5 * 60_000;

    const { server } = await serve({ dataDir, now: () => new Date(clock) });
    // Published before the first request is answered, dated at its scheduled time.
    const post = (await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${slug}`)).json.post;
    expect(post).toMatchObject({ status: 'published', published_at: at.toISOString() });
    expect(server.logs.join('\n')).toContain(`Published the scheduled post "Due while down"`);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('go live at the instant their offset names, across a daylight-saving change', async () => {
    // New York springs forward on 2026-03-08: 01:59 EST (-05:00) and 03:01 EDT (-04:00) are two minutes apart.
    let clock = Date.parse('2026-03-08T06:00:00Z');
    const { server, key } = await serve({ now: () => new Date(clock) });
    const before = await schedule(server, key, 'Before the change', '2026-03-08T01:59:00-05:00');
    const after = await schedule(server, key, 'After the change', '2026-03-08T03:01:00-04:00');
    expect(before.json.post.publish_at).toBe('2026-03-08T06:59:00.000Z');
    expect(after.json.post.publish_at).toBe('2026-03-08T07:01:00.000Z');
    // London falls back on 2026-10-25: 01:30 happens twice, an hour apart, told apart by the offset.
    const firstHalf = await schedule(server, key, 'First 01:30', '2026-10-25T01:30:00+01:00');
    const secondHalf = await schedule(server, key, 'Second 01:30', '2026-10-25T01:30:00+00:00');
    expect(firstHalf.json.post.publish_at).toBe('2026-10-25T00:30:00.000Z');
    expect(secondHalf.json.post.publish_at).toBe('2026-10-25T01:30:00.000Z');

    const tick = async (iso: string) => {
      clock = Date.parse(iso);
      await server.scheduler.stop();
      await server.scheduler.start();
    };
    await tick('2026-03-08T07:00:00Z');
    expect(await isPublic(server, before.json.post.slug)).toBe(true);
    expect(await isPublic(server, after.json.post.slug)).toBe(false);
    await tick('2026-03-08T07:01:00Z');
    expect(await isPublic(server, after.json.post.slug)).toBe(true);
    await tick('2026-10-25T01:00:00Z');
    expect(await isPublic(server, firstHalf.json.post.slug)).toBe(true);
    expect(await isPublic(server, secondHalf.json.post.slug)).toBe(false);
    await tick('2026-10-25T01:30:00Z');
    expect(await isPublic(server, secondHalf.json.post.slug)).toBe(true);
  });

  it('refuses a time that cannot be meant, saying what to send instead', async () => {
    const { server, key } = await serve();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ status: 'scheduled', publish_at: '2026-12-01T09:00:00' }, /offset/],
      [{ status: 'scheduled', publish_at: '2020-01-01T09:00:00Z' }, /must be in the future.*send status published/],
      [{ status: 'scheduled' }, /required with status scheduled/],
      [{ status: 'draft', publish_at: '2099-01-01T09:00:00Z' }, /not used with status draft/],
      [{ status: 'published', publish_at: '2099-01-01T09:00:00Z' }, /in the future: send status scheduled/],
      [{ status: 'scheduled', publish_at: 'next tuesday' }, /ISO 8601/],
    ];
    for (const [fields, message] of cases) {
      const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Badly timed', ...fields }) });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.json.errors?.[0]?.field).toBe('publish_at');
      expect(res.json.errors?.[0]?.message).toMatch(message);
    }
    expect((await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1', { key })).json.total).toBe(0);
  });

  it('a published post with a past publish_at keeps that date (a post moved from another blog)', async () => {
    const { server, key } = await serve();
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Imported', status: 'published', publishAt: '2024-02-29T08:00:00-08:00' }) });
    expect(res.status).toBe(201);
    const post = (await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${res.json.post.id}`)).json.post;
    expect(post.published_at).toBe('2024-02-29T16:00:00.000Z');
  });

  it('can be rescheduled, and unscheduled back to a draft', async () => {
    const { server, key } = await serve();
    const created = (await schedule(server, key, 'Moving target', new Date(Date.now() + 60 * 60_000).toISOString())).json.post;
    const later = new Date(Date.now() + 2 * 60 * 60_000).toISOString();
    const moved = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.id}`, { key, body: { publish_at: later }, headers: { 'if-match': created.etag } });
    expect(moved.status).toBe(200);
    expect(moved.json.changed.map((c) => c.field)).toEqual(['publish_at']);
    const draft = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.id}`, { key, body: { status: 'draft' }, headers: { 'if-match': moved.json.etag } });
    expect(draft.json.post).toMatchObject({ status: 'draft', publish_at: null });
  });
});
