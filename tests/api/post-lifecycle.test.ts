/**
 * A post's life after its create, over real HTTP: read by id or slug with an ETag, PATCH (merge) and
 * PUT (replace) with If-Match (428 without, 412 when stale with what changed), unpublish, the trash
 * (410, restore, purge after 30 days), revisions and revert, slug changes (301), ownership and
 * blog:admin, ?mine=1, the author filter, unknown query parameters and the possible-duplicate warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { CategoriesResponse, ListPostsResponse } from '../../contract/blog-reader';
import type { ApiErrorBody } from '../../contract/errors';
import { API_KEY_ID_LENGTH, API_KEY_PREFIX } from '../../contract/keys';
import type { GetPostByIdResponse, PostWriteResponse, PreconditionFailedDetails, RevisionsResponse } from '../../contract/post-lifecycle';
import { startTestServer, type TestServer } from '../support/server';
import { rawRequest } from './raw-request';
import { call, validPost } from './support';

let server: TestServer;
let acme: string;
let acmeToo: string;
let globex: string;
let admin: string;
let reader: string;
let clock = Date.parse('2026-05-01T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 }, now: () => new Date(clock) });
  acme = await server.createKey('acme-cms', ['blog:write'], 'acme');
  acmeToo = await server.createKey('acme-cli', ['blog:write'], 'acme');
  globex = await server.createKey('globex', ['blog:write']);
  admin = await server.createKey('editor-in-chief', ['blog:admin']);
  reader = await server.createKey('reader', ['blog:read']);
});

afterAll(async () => {
  await server.close();
});

async function create(overrides: Record<string, unknown> = {}, key = acme): Promise<CreatePostResponse['post']> {
  const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ status: 'published', ...overrides }) });
  expect(res.status).toBe(201);
  return res.json.post;
}

async function read(idOrSlug: string, key?: string) {
  return call<GetPostByIdResponse>(server, 'GET', `/api/blog/${idOrSlug}`, key ? { key } : {});
}

/** The public id a key is named by in the audit log and a revision's `made_by` (`key:<id>`). */
function keyId(key: string): string {
  return key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_ID_LENGTH);
}

function patch(id: string, body: unknown, etag: string | undefined, key = acme) {
  return call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, { key, body, headers: etag ? { 'if-match': etag } : {} });
}

/** A request that does not follow redirects. */
async function raw(path: string, init: RequestInit = {}) {
  return fetch(`${server.url}${path}`, { ...init, redirect: 'manual' });
}

async function publicSlugs(): Promise<string[]> {
  const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?limit=100');
  return res.json.posts.map((post) => post.slug);
}

describe('GET /api/blog/:idOrSlug', () => {
  it('answers one post by id and by slug with the same ETag, which a conditional GET honours', async () => {
    const post = await create({ title: 'Readable by id' });
    const byId = await read(post.id);
    const bySlug = await read(post.slug);
    expect(byId.status).toBe(200);
    expect(byId.json.post).toMatchObject({ id: post.id, slug: 'readable-by-id', revision: 1 });
    expect(byId.headers.get('etag')).toBe(post.etag);
    expect(byId.json.etag).toBe(post.etag);
    expect(bySlug.headers.get('etag')).toBe(post.etag);
    // Raw HTTP: fetch adds Cache-Control: no-cache to a request with If-None-Match.
    const again = await rawRequest(server.url, `GET /api/blog/${post.id} HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: ${post.etag}\r\nConnection: close\r\n\r\n`);
    expect(again.status).toBe(304);
  });

  it('shows drafts and scheduled posts only to keys that may read them', async () => {
    const draft = await create({ title: 'Hidden draft', status: 'draft' });
    expect((await read(draft.id)).status).toBe(404);
    expect((await read(draft.id, reader)).json.post.status).toBe('draft');
    expect((await read(draft.id, globex)).status).toBe(200);
  });
});

describe('PATCH /api/blog/:id', () => {
  it('is 428 without If-Match, naming the current ETag, and changes nothing', async () => {
    const post = await create({ title: 'Needs a version' });
    const res = await patch(post.id, { title: 'Changed blindly' }, undefined);
    expect(res.status).toBe(428);
    const error = res.json as unknown as ApiErrorBody;
    expect(error.code).toBe('precondition_required');
    expect(error.guidance.join(' ')).toContain(post.etag);
    expect((await read(post.id)).json.post.title).toBe('Needs a version');
  });

  it('merges: omitted fields stay, tags are replaced whole, author merges, null removes, and it answers what changed', async () => {
    const post = await create({ title: 'Merge rules', tags: ['iul', 'retirement'] });
    const res = await patch(post.id, { excerpt: 'A sharper excerpt.', tags: ['estate'], author: { bio: null, credentials: 'CFP' } }, post.etag);
    expect(res.status).toBe(200);
    expect(res.json.etag).toBe(`"${post.id.split('-')[0]}-r2"`);
    expect(res.headers.get('etag')).toBe(res.json.etag);
    expect(res.json.changed.map((change) => change.field).sort()).toEqual(['author.bio', 'author.credentials', 'excerpt', 'tags']);
    expect(res.json.changed).toContainEqual({ field: 'tags', before: ['iul', 'retirement'], after: ['estate'] });
    const back = (await read(post.id)).json.post;
    expect(back).toMatchObject({ title: 'Merge rules', excerpt: 'A sharper excerpt.', tags: ['estate'], author: { name: 'Jane Author', credentials: 'CFP' }, revision: 2 });
    expect(back.author.bio).toBeUndefined();
    expect(back.content).toBe(validPost().content);
  });

  it('sanitises and validates like a create, returning the warnings, and refuses a required field removed', async () => {
    const post = await create({ title: 'Cleaned on update' });
    const res = await patch(post.id, { content: '<p>Safe</p><script>alert(1)</script>', mood: 'happy' }, post.etag);
    expect(res.status).toBe(200);
    expect(res.json.warnings.join('\n')).toMatch(/script/i);
    expect(res.json.warnings).toContain('Ignored unknown field "mood"');
    expect((await read(post.id)).json.post.content).toBe('<p>Safe</p>');
    const bad = await patch(post.id, { title: null }, res.json.etag);
    expect(bad.status).toBe(400);
    expect((bad.json as unknown as ApiErrorBody).errors?.map((e) => e.field)).toEqual(['title']);
  });

  it('applies a change made from an older ETag on top when nobody else changed its fields, saying what happened since', async () => {
    const post = await create({ title: 'Two editors' });
    const first = await patch(post.id, { title: 'Two editors, first change', excerpt: 'Changed by the first editor.' }, post.etag, acme);
    expect(first.status).toBe(200);
    const second = await patch(post.id, { tags: ['second'] }, post.etag, acmeToo);
    expect(second.status, JSON.stringify(second.json)).toBe(200);
    expect(second.json.changed.map((change) => change.field)).toEqual(['tags']);
    expect(second.json.since).toEqual({ revision: 1, note: expect.stringMatching(new RegExp(`^Since revision 1: changed title, excerpt \\(key:${keyId(acme)}, \\d{4}-`)) as unknown });
    expect(second.json.message).toContain('Since revision 1: changed title, excerpt');
    const now = (await read(post.id)).json.post;
    expect(now).toMatchObject({ title: 'Two editors, first change', excerpt: 'Changed by the first editor.', tags: ['second'], revision: 3 });
  });

  it('is 412 when a field the change makes from an older ETag was changed since, naming the field, who and when', async () => {
    const post = await create({ title: 'Two editors again' });
    const first = await patch(post.id, { title: 'Two editors, first change', excerpt: 'Changed by the first editor.' }, post.etag, acme);
    expect(first.status).toBe(200);
    const second = await patch(post.id, { title: 'Two editors, second change', tags: ['second'] }, post.etag, acmeToo);
    expect(second.status).toBe(412);
    const body = second.json as unknown as ApiErrorBody & PreconditionFailedDetails;
    expect(body.code).toBe('precondition_failed');
    expect(body).toMatchObject({ current_etag: first.json.etag, current_revision: 2, your_revision: 1 });
    expect(body.changes).toEqual([
      { field: 'title', before: 'Two editors again', after: 'Two editors, first change' },
      { field: 'excerpt', before: validPost().excerpt, after: 'Changed by the first editor.' },
    ]);
    const stored = await server.store.posts.getById(post.id);
    expect(body.conflicts).toEqual([{ field: 'title', by: `key:${keyId(acme)}`, at: stored?.updatedAt, revision: 2 }]);
    expect(body.message).toContain(`title (changed by key:${keyId(acme)} at ${stored?.updatedAt ?? ''}, revision 2)`);
    expect(second.headers.get('etag')).toBe(first.json.etag);
    expect((await read(post.id)).json.post.tags).toEqual(['iul', 'retirement']);
    // With the current version it goes through.
    expect((await patch(post.id, { title: 'Two editors, second change' }, body.current_etag, acmeToo)).status).toBe(200);
  });

  it('is allowed from a browser page on another origin: the preflight lets PATCH and If-Match through and ETag is readable', async () => {
    const preflight = await raw('/api/blog/any-post', {
      method: 'OPTIONS',
      headers: { origin: 'https://cms.example', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'authorization, content-type, if-match' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('If-Match');
    const post = await create({ title: 'Read from a browser' });
    const res = await raw(`/api/blog/${post.id}`, { headers: { origin: 'https://cms.example' } });
    expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
  });

  it('refuses an ETag of another post and a malformed If-Match', async () => {
    const one = await create({ title: 'One of two' });
    const two = await create({ title: 'Two of two' });
    expect((await patch(one.id, { excerpt: 'x' }, two.etag)).status).toBe(412);
    const malformed = await patch(one.id, { excerpt: 'x' }, 'yesterday');
    expect(malformed.status).toBe(400);
    expect((malformed.json as unknown as ApiErrorBody).message).toContain(one.etag);
  });

  it('shows the edit on the next page view: the new text, "Updated <date>" and dateModified in the JSON-LD', async () => {
    const post = await create({ title: 'Fixed a typo' });
    const before = await (await raw(`/blog/${post.slug}`)).text();
    expect(before).not.toContain('Updated <time');
    clock += 3 * DAY;
    const res = await patch(post.id, { content: '<p>Corrected text.</p>' }, post.etag);
    const page = await (await raw(`/blog/${post.slug}`)).text();
    expect(page).toContain('Corrected text.');
    expect(page).toMatch(/Updated <time dateTime="2026-05-0\dT[^"]+">May \d, 2026<\/time>/);
    const jsonLd = [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>);
    expect(jsonLd.find((item) => item.headline === 'Fixed a typo')?.dateModified).toBe(res.json.post.updated_at);
  });

  it('changes nothing and keeps the revision when the patch matches the post', async () => {
    const post = await create({ title: 'Already right' });
    const res = await patch(post.id, { title: 'Already right' }, post.etag);
    expect(res.status).toBe(200);
    expect(res.json.changed).toEqual([]);
    expect(res.json.etag).toBe(post.etag);
  });

  it('unpublishes: the post leaves the list, its page and the category count, and comes back when published again', async () => {
    const post = await create({ title: 'Pulled for a fix', category: 'Retirement Planning' });
    const count = async () => (await call<CategoriesResponse>(server, 'GET', '/api/blog/categories')).json.categories.find((c) => c.slug === 'retirement-planning')?.postCount;
    const before = await count();
    const res = await patch(post.id, { status: 'draft' }, post.etag);
    expect(res.json.message).toMatch(/Unpublished/);
    expect(res.json.post.published_at).toBeNull();
    expect(await publicSlugs()).not.toContain(post.slug);
    expect((await raw(`/blog/${post.slug}`)).status).toBe(404);
    expect(await count()).toBe((before ?? 0) - 1);
    const again = await patch(post.id, { status: 'published' }, res.json.etag);
    expect(again.json.post.status).toBe('published');
    expect(await publicSlugs()).toContain(post.slug);
    expect((await raw(`/blog/${post.slug}`)).status).toBe(200);
  });
});

describe('PUT /api/blog/:id', () => {
  it('replaces the whole post and refuses a partial body, naming the missing fields', async () => {
    const post = await create({ title: 'Replace me' });
    const partial = await call<ApiErrorBody>(server, 'PUT', `/api/blog/${post.id}`, { key: acme, body: { title: 'Only a title' }, headers: { 'if-match': post.etag } });
    expect(partial.status).toBe(400);
    expect(partial.json.errors?.map((e) => e.field)).toEqual(expect.arrayContaining(['content', 'excerpt', 'category', 'author.name', 'status']));
    const full = await call<PostWriteResponse>(server, 'PUT', `/api/blog/${post.id}`, {
      key: acme,
      body: { title: 'Replaced', content: '<p>New body</p>', excerpt: 'New excerpt', category: 'Tax Benefits', status: 'published', author: { name: 'Sam Writer' } },
      headers: { 'if-match': post.etag },
    });
    expect(full.status).toBe(200);
    const back = (await read(post.id)).json.post;
    expect(back).toMatchObject({ title: 'Replaced', slug: 'replace-me', content: '<p>New body</p>', tags: [], author: { name: 'Sam Writer' }, trust: null });
  });
});

describe('the trash', () => {
  it('DELETE answers 410 to readers and takes the post off lists, feeds and the sitemap; restore brings it back', async () => {
    const post = await create({ title: 'Deleted then restored' });
    const res = await call<PostWriteResponse>(server, 'DELETE', `/api/blog/${post.id}`, { key: acme });
    expect(res.status).toBe(200);
    expect(res.json.post.deleted_at).toBe(new Date(clock).toISOString());
    expect(res.json.post.purge_at).toBe(new Date(clock + 30 * DAY).toISOString());
    const gone = await read(post.slug);
    expect(gone.status).toBe(410);
    expect((gone.json as unknown as ApiErrorBody).code).toBe('post_gone');
    const page = await raw(`/blog/${post.slug}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('This article was removed');
    expect(await publicSlugs()).not.toContain(post.slug);
    expect(await (await raw('/rss.xml')).text()).not.toContain(post.slug);
    expect(await (await raw('/sitemap.xml')).text()).not.toContain(post.slug);
    // The owner sees it in the trash.
    const trash = await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1&status=trashed', { key: acme });
    expect(trash.json.posts.map((p) => p.id)).toContain(post.id);
    // A second delete changes nothing; a change to a post in the trash is 410.
    expect((await call<PostWriteResponse>(server, 'DELETE', `/api/blog/${post.id}`, { key: acme })).json.message).toMatch(/already/);
    expect((await patch(post.id, { title: 'x' }, '*')).status).toBe(410);
    const restored = await call<PostWriteResponse>(server, 'POST', `/api/blog/${post.id}/restore`, { key: acme });
    expect(restored.status).toBe(200);
    expect(restored.json.post.deleted_at).toBeUndefined();
    expect((await read(post.slug)).status).toBe(200);
    expect(await publicSlugs()).toContain(post.slug);
    expect((await call<ApiErrorBody>(server, 'POST', `/api/blog/${post.id}/restore`, { key: acme })).json.code).toBe('not_in_trash');
  });

  it('purges a post 30 days after it was deleted: it cannot be restored and its slug is free', async () => {
    const post = await create({ title: 'Gone for good' });
    await call(server, 'DELETE', `/api/blog/${post.id}`, { key: acme });
    clock += 29 * DAY;
    await server.scheduler.stop();
    await server.scheduler.start();
    expect((await read(post.id, acme)).status).toBe(200);
    clock += 2 * DAY;
    await server.scheduler.stop();
    await server.scheduler.start();
    expect((await read(post.id, acme)).status).toBe(404);
    expect((await call<ApiErrorBody>(server, 'POST', `/api/blog/${post.id}/restore`, { key: acme })).status).toBe(404);
    expect((await create({ title: 'Gone for good' })).slug).toBe('gone-for-good');
  });
});

describe('revisions', () => {
  it('keeps each replaced version, lists them newest first, shows one, and reverts to it as a new revision', async () => {
    const post = await create({ title: 'Versioned', content: '<p>First words</p>' });
    let etag = post.etag;
    for (const words of ['Second words', 'Third words']) {
      const res = await patch(post.id, { content: `<p>${words}</p>` }, etag);
      etag = res.json.etag;
    }
    const list = await call<RevisionsResponse>(server, 'GET', `/api/blog/${post.id}/revisions`, { key: reader });
    expect(list.status).toBe(200);
    expect(list.json.post).toEqual({ id: post.id, slug: post.slug, revision: 3 });
    expect(list.json.revisions.map((r) => [r.revision, r.changed])).toEqual([
      [2, ['content']],
      [1, ['content']],
    ]);
    expect((await call(server, 'GET', `/api/blog/${post.id}/revisions`)).status).toBe(401);
    const one = await call<{ post: { content: string } }>(server, 'GET', `/api/blog/${post.id}/revisions/1`, { key: acme });
    expect(one.json.post.content).toBe('<p>First words</p>');
    expect((await call<ApiErrorBody>(server, 'GET', `/api/blog/${post.id}/revisions/9`, { key: acme })).json.code).toBe('revision_not_found');
    const reverted = await call<PostWriteResponse>(server, 'POST', `/api/blog/${post.id}/revisions/1/revert`, { key: acme });
    expect(reverted.status).toBe(200);
    expect(reverted.json.post.revision).toBe(4);
    expect(reverted.json.changed).toEqual([{ field: 'content', before: '<p>Third words</p>', after: '<p>First words</p>' }]);
    expect((await read(post.id)).json.post.content).toBe('<p>First words</p>');
  });

  it('keeps every change that moves the revision, the trash and status changes included, each with who, what and why', async () => {
    const post = await create({ title: 'Every step kept' });
    const unpublished = await patch(post.id, { status: 'draft' }, post.etag);
    expect(unpublished.status).toBe(200);
    expect((await call(server, 'DELETE', `/api/blog/${post.id}`, { key: acme })).status).toBe(200);
    expect((await call(server, 'POST', `/api/blog/${post.id}/restore`, { key: admin })).status).toBe(200);
    const list = await call<RevisionsResponse>(server, 'GET', `/api/blog/${post.id}/revisions`, { key: acme });
    expect(list.json.current).toMatchObject({ revision: 4, status: 'draft', made_by: `key:${keyId(admin)}`, fields: [], why: 'restored from the trash' });
    expect(list.json.revisions.map((r) => [r.revision, r.made_by, r.fields, r.why])).toEqual([
      [3, `key:${keyId(acme)}`, [], 'moved to the trash'],
      [2, `key:${keyId(acme)}`, ['status', 'published_at'], null],
      [1, `key:${keyId(acme)}`, [], 'created'],
    ]);
  });

  it('keeps the last 50 versions', async () => {
    const post = await create({ title: 'Edited often' });
    let etag = post.etag;
    for (let n = 1; n <= 52; n++) etag = (await patch(post.id, { excerpt: `Edit ${n}` }, etag)).json.etag;
    const list = await call<RevisionsResponse>(server, 'GET', `/api/blog/${post.id}/revisions`, { key: acme });
    expect(list.json.revisions).toHaveLength(50);
    expect(list.json.revisions[0]?.revision).toBe(52);
    expect(list.json.revisions.at(-1)?.revision).toBe(3);
  });
});

describe('slugs', () => {
  it('a changed slug keeps the old URL working with a 301, in the API and on the site', async () => {
    const post = await create({ title: 'Old address' });
    const res = await patch(post.id, { slug: 'new-address' }, post.etag);
    expect(res.status).toBe(200);
    expect(res.json.changed).toEqual([{ field: 'slug', before: 'old-address', after: 'new-address' }]);
    const api = await raw('/api/blog/old-address');
    expect(api.status).toBe(301);
    expect(api.headers.get('location')).toBe('/api/blog/new-address');
    const page = await raw('/blog/old-address');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/blog/new-address');
    expect((await raw('/blog/new-address')).status).toBe(200);
    // The old slug stays the old post's: a new post with that title gets another.
    expect((await create({ title: 'Old address' })).slug).toBe('old-address-2');
  });

  it('refuses a slug another post uses, and a malformed one', async () => {
    const one = await create({ title: 'Slug holder' });
    const two = await create({ title: 'Slug wanter' });
    const taken = await patch(two.id, { slug: one.slug }, two.etag);
    expect(taken.status).toBe(409);
    expect((taken.json as unknown as ApiErrorBody).code).toBe('slug_taken');
    const bad = await patch(two.id, { slug: 'Not A Slug!' }, two.etag);
    expect(bad.status).toBe(400);
    expect((await read(two.id)).json.post.slug).toBe('slug-wanter');
  });
});

describe('ownership', () => {
  it("lets keys of the same owner and blog:admin keys change a post, and no one else's", async () => {
    const post = await create({ title: 'Acme owns this' });
    const sameOwner = await patch(post.id, { excerpt: 'By the other acme key.' }, post.etag, acmeToo);
    expect(sameOwner.status).toBe(200);
    const other = await patch(post.id, { excerpt: 'By globex.' }, '*', globex);
    expect(other.status).toBe(403);
    expect((other.json as unknown as ApiErrorBody).code).toBe('not_post_owner');
    expect((await call<ApiErrorBody>(server, 'DELETE', `/api/blog/${post.id}`, { key: globex })).status).toBe(403);
    const byReader = await patch(post.id, { excerpt: 'By a reader.' }, '*', reader);
    expect(byReader.status).toBe(403);
    expect((byReader.json as unknown as ApiErrorBody).code).toBe('insufficient_permissions');
    const byAdmin = await patch(post.id, { excerpt: 'By the editor.' }, sameOwner.json.etag, admin);
    expect(byAdmin.status).toBe(200);
    expect((await read(post.id)).json.post.excerpt).toBe('By the editor.');
  });
});

describe('GET /api/blog filters', () => {
  it('?mine=1 lists the owner’s posts in every status, and needs a key', async () => {
    const published = await create({ title: 'Globex published' }, globex);
    const draft = await create({ title: 'Globex draft', status: 'draft' }, globex);
    const scheduled = await create({ title: 'Globex scheduled', status: 'scheduled', publish_at: new Date(clock + DAY).toISOString() }, globex);
    const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1&limit=100', { key: globex });
    expect(res.status).toBe(200);
    expect(res.json.posts.map((p) => p.id).sort()).toEqual([published.id, draft.id, scheduled.id].sort());
    const drafts = await call<ListPostsResponse>(server, 'GET', '/api/blog?mine=1&status=draft', { key: globex });
    expect(drafts.json.posts.map((p) => p.id)).toEqual([draft.id]);
    expect((await call(server, 'GET', '/api/blog?mine=1')).status).toBe(401);
  });

  it('filters published posts by author, ignoring case', async () => {
    await create({ title: 'By Rosa', author: { name: 'Rosa Lind' } });
    const res = await call<ListPostsResponse>(server, 'GET', '/api/blog?author=rosa%20lind');
    expect(res.json.posts.map((p) => p.title)).toEqual(['By Rosa']);
  });

  it('answers 400 naming an unknown query parameter, with the closest one', async () => {
    const res = await call<ApiErrorBody>(server, 'GET', '/api/blog?categroy=tax-benefits');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('unknown_query_parameter');
    expect(res.json.message).toContain('"categroy"');
    expect(res.json.guidance).toContain('categroy: did you mean category?');
  });
});

describe('possible duplicates', () => {
  it('a create whose title matches a post answers 201 with a warning linking that post', async () => {
    const first = await create({ title: 'A Title Twice' });
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: acme, body: validPost({ title: 'a title twice', status: 'published' }) });
    expect(res.status).toBe(201);
    const warning = res.json.warnings.find((w) => w.startsWith('Possible duplicate'));
    expect(warning).toContain(first.id);
    expect(warning).toContain(`/blog/${first.slug}`);
  });
});
