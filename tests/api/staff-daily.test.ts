/**
 * The staff area as a daily tool, over real HTTP (the pages as a browser without JavaScript gets them):
 * among 500 posts, /admin/posts finds one by its title, filters by status, author, category and
 * compliance findings, and pages 25 at a time with plain links; a bulk unpublish lists exactly what
 * will change on a confirmation page (nothing changes before its POST), then changes each post through
 * the post service (a revision and an audit entry each, the public page gone) and reports a post
 * changed meanwhile as not changed, with why; trash and restore confirm the same way (a restore names
 * what is not in the trash as left alone). Revoking a key takes a confirmation page with the key's
 * facts and a required reason (an empty or too long one refused, what was typed kept), and the audit
 * keeps the reason. Approving a held post with high findings needs a reason, which the audit and the
 * post's history keep; one whose every high finding the author accepted needs none. Whatever the filter address says, the list answers (never a 500).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postHistory } from '../../api/services/post-history';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { type SeededPost, SEED_AUTHORS, seedPosts } from '../support/many-posts';
import { startTestServer, type TestServer } from '../support/server';
import { call, textOf, validPost } from './support';

const EMAIL = 'daily@example.com';
const PASSWORD = 'a daily staff passphrase of length 11';
const NEEDLE = 'Needle In The Haystack: Premium Financing Explained';

let server: TestServer;
let staff: StaffClient;
let seeded: SeededPost[];

beforeAll(async () => {
  server = await startTestServer({ api: { complianceMode: 'review' } });
  await server.seedStaff(EMAIL, PASSWORD, 'Dana Daily');
  seeded = await seedPosts(server.store, 500, 'Daily', NEEDLE);
  staff = staffClient(server.url);
  const loginToken = await loginTokenOf(staff);
  expect((await staff.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin' } })).status).toBe(303);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

async function page(pathname: string): Promise<{ status: number; html: string; text: string; csrf: string }> {
  const res = await staff.request(pathname);
  const html = await res.text();
  return { status: res.status, html, text: textOf(html), csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

/** The titles in the posts table, in order. */
function titlesIn(html: string): string[] {
  const table = /data-testid="posts-table"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
  return [...table.matchAll(/<label for="tick-[^"]+" class="visually-hidden">Tick (?:<!-- -->)?([^<]+)<\/label>/g)].map((match) => textOf(match[1] ?? '').trim());
}

describe('the posts list', () => {
  it('finds one post by its title among 500 and pages the rest 25 at a time with plain links', async () => {
    const found = await page(`/admin/posts?q=${encodeURIComponent('haystack: premium')}`);
    expect(found.status).toBe(200);
    expect(titlesIn(found.html)).toEqual([NEEDLE]);
    expect(found.text).toContain('Showing 1–1 of 1 post.');

    const first = await page('/admin/posts?q=daily+note');
    expect(first.text).toContain('Showing 1–25 of 499 posts.');
    expect(titlesIn(first.html)).toHaveLength(25);
    // Newest first, and the page links keep the search.
    expect(titlesIn(first.html)[0]).toBe('Daily note 0499');
    expect(first.html).toContain('href="/admin/posts?q=daily+note&amp;page=2"');
    expect(first.html).toContain('href="/admin/posts?q=daily+note&amp;page=20"');

    const second = await page('/admin/posts?q=daily+note&page=2');
    expect(second.text).toContain('Showing 26–50 of 499 posts.');
    expect(titlesIn(second.html)[0]).toBe('Daily note 0474');
    expect(second.html).toMatch(/aria-current="page"[^>]*><span class="visually-hidden">Page <\/span>2</);

    // "Tick all on this page" is a link: the same page with every box ticked, without JavaScript.
    expect(second.html).toContain('href="/admin/posts?q=daily+note&amp;page=2&amp;tick=all"');
    expect(second.html.match(/<input type="checkbox"[^>]*checked=""/g) ?? []).toHaveLength(0);
    const ticked = await page('/admin/posts?q=daily+note&page=2&tick=all');
    expect(ticked.html.match(/<input type="checkbox"[^>]*checked=""/g) ?? []).toHaveLength(25);

    // Past the last page: the last page, not an empty one.
    const beyond = await page('/admin/posts?q=daily+note&page=999');
    expect(beyond.text).toContain('Showing 476–499 of 499 posts.');
  });

  it('filters by status, author, category and compliance findings, with the counts beside the statuses', async () => {
    const drafts = seeded.filter((post) => post.status === 'draft');
    const draftPage = await page('/admin/posts?status=draft');
    expect(draftPage.text).toContain(`of ${drafts.length} posts.`);
    expect(draftPage.text).toContain(`draft (${drafts.length})`);

    const author = SEED_AUTHORS[2];
    const byAuthor = await page(`/admin/posts?author=${encodeURIComponent(author)}&q=daily`);
    expect(byAuthor.text).toContain(`of ${seeded.filter((post) => post.author === author && post.title.startsWith('Daily')).length} posts.`);
    const shown = seeded.filter((post) => titlesIn(byAuthor.html).includes(post.title));
    expect(shown.length).toBe(25);
    expect(new Set(shown.map((post) => post.author))).toEqual(new Set([author]));

    const category = seeded[3]?.categorySlug ?? '';
    const byCategory = await page(`/admin/posts?category=${category}&status=draft`);
    const expected = seeded.filter((post) => post.categorySlug === category && post.status === 'draft');
    expect(byCategory.text).toContain(`of ${expected.length} post${expected.length === 1 ? '' : 's'}.`);

    const risky = seeded.filter((post) => post.risky);
    const withFindings = await page('/admin/posts?findings=yes&q=daily');
    expect(new Set(titlesIn(withFindings.html))).toEqual(new Set(risky.map((post) => post.title)));
    expect(withFindings.text).toContain('2 high');
    const without = await page('/admin/posts?findings=no&q=daily');
    expect(without.text).toContain(`of ${499 - risky.length} posts.`);
  });

  it('answers any filter address with the list (unknown values ignored), never an error page', async () => {
    const value = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('draft', 'trashed', '-1', '0', '1e9', 'NaN', '%', '&', 'yes', 'no'));
    await fc.assert(
      fc.asyncProperty(fc.record({ status: value, q: value, author: value, category: value, findings: value, page: value }, { requiredKeys: [] }), async (query) => {
        const res = await staff.request(`/admin/posts?${new URLSearchParams(query as Record<string, string>).toString()}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toMatch(/Showing \d+–\d+ of \d+ posts?\.|No post matches these filters\./);
      }),
      { numRuns: 25 },
    );
  });
});

describe('bulk unpublish', () => {
  it('confirms exactly what will change, then unpublishes each post as a change of its own, and reports one changed meanwhile', async () => {
    const picked = seeded.filter((post) => post.status === 'published' && post.title.startsWith('Daily')).slice(10, 14);
    const [a, b, c, stale] = picked;
    if (!a || !b || !c || !stale) throw new Error('not enough published posts');
    const draft = seeded.find((post) => post.status === 'draft');
    if (!draft) throw new Error('no draft');
    const ids = [a, b, c, stale, draft].map((post) => `id=${post.id}`).join('&');

    const confirm = await page(`/admin/posts?q=daily&bulk=unpublish&${ids}`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Unpublish: 4 posts will change');
    for (const post of [a, b, c, stale]) expect(confirm.text).toContain(`${post.title} published draft (off the site)`);
    expect(confirm.text).toContain(`${draft.title} draft left as it is: already a draft`);
    // Nothing changed yet.
    for (const post of [a, b, c, stale]) expect((await fetch(`${server.url}/blog/${post.slug}`)).status).toBe(200);
    const posted = [...confirm.html.matchAll(/name="post" value="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(posted).toHaveLength(4);
    expect(confirm.html).toContain('action="/admin/posts?q=daily"');

    // Someone moves one of them to the trash after the confirmation was shown.
    const before = await server.store.posts.getById(stale.id);
    if (!before) throw new Error('missing');
    expect((await server.store.posts.save({ ...before, deletedAt: new Date().toISOString() }, { expectedRevision: before.revision, changed: [] })).kind).toBe('saved');

    const form = new URLSearchParams({ _csrf: confirm.csrf, action: 'unpublish' });
    for (const value of posted) form.append('post', value);
    const res = await fetch(`${server.url}/admin/posts?q=daily`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, Cookie: [...staff.cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      body: form.toString(),
    });
    expect(res.status).toBe(200);
    const text = textOf(await res.text());
    expect(text).toContain('3 of 4 posts unpublished. 1 could not be changed: see why below.');
    expect(text).toContain(`${stale.title} : not changed. The post "${stale.title}" is in the trash: restore it first`);

    for (const post of [a, b, c]) {
      expect((await fetch(`${server.url}/blog/${post.slug}`)).status).toBe(404);
      expect(await server.store.posts.getById(post.id)).toMatchObject({ status: 'draft', revision: 2 });
    }
    const audit = await server.store.audit.list();
    for (const post of [a, b, c]) expect(audit.filter((entry) => entry.action === 'post.unpublished' && entry.target === post.id)).toMatchObject([{ actor: `staff:${EMAIL}` }]);
    expect(audit.some((entry) => entry.action === 'post.unpublished' && entry.target === stale.id)).toBe(false);
  });

  it('trashes a post, and restores from the trash only what is in it, saying so on the confirmation', async () => {
    const [trashed, other] = seeded.filter((post) => post.status === 'published' && post.title.startsWith('Daily')).slice(40, 42);
    if (!trashed || !other) throw new Error('not enough posts');
    const first = await page(`/admin/posts?bulk=trash&id=${trashed.id}`);
    expect(first.text).toContain(`${trashed.title} published in the trash (restorable)`);
    const moved = await staff.request('/admin/posts', { form: { _csrf: first.csrf, action: 'trash', post: `${trashed.id}:1` } });
    expect(textOf(await moved.text())).toContain('1 of 1 post moved to the trash.');
    expect((await fetch(`${server.url}/blog/${trashed.slug}`)).status).not.toBe(200);
    expect((await page(`/admin/posts?status=trashed&q=${encodeURIComponent(trashed.title)}`)).text).toContain('Showing 1–1 of 1 post.');

    const confirm = await page(`/admin/posts?status=trashed&bulk=restore&id=${trashed.id}&id=${other.id}`);
    expect(confirm.text).toContain('Restore: 1 post will change');
    expect(confirm.text).toContain(`${trashed.title} in the trash published, out of the trash (back on the site)`);
    expect(confirm.text).toContain(`${other.title} published left as it is: not in the trash`);
    const restore = [...confirm.html.matchAll(/name="post" value="([^"]+)"/g)].map((match) => match[1]);
    expect(restore).toEqual([`${trashed.id}:2`]);
    const done = await staff.request('/admin/posts?status=trashed', { form: { _csrf: confirm.csrf, action: 'restore', post: restore[0] ?? '' } });
    expect(textOf(await done.text())).toContain('1 of 1 post restored.');
    expect(await server.store.posts.getById(trashed.id)).toMatchObject({ deletedAt: null, status: 'published' });
    expect((await fetch(`${server.url}/blog/${trashed.slug}`)).status).toBe(200);
  });

  it('asks to tick a post when none is ticked, and refuses a POST that names none', async () => {
    const none = await page('/admin/posts?bulk=trash');
    expect(none.status).toBe(400);
    expect(none.text).toContain('Tick at least one post, then choose "Move to the trash".');
    const refused = await staff.request('/admin/posts', { form: { _csrf: none.csrf, action: 'trash' } });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain('No post was named');
  });
});

describe('revoking a key', () => {
  it('shows the key and what stops working, refuses an empty or too long reason keeping what was typed, and audits the reason', async () => {
    const secret = await server.createKey('Daily Integration', ['blog:write'], 'Daily Owner');
    const key = (await server.store.keys.list()).find((candidate) => candidate.name === 'Daily Integration');
    if (!key) throw new Error('no key');
    const publish = () => call(server, 'POST', '/api/blog', { key: secret, body: validPost({ title: `By the daily key ${Date.now()}`, status: 'draft' }) });
    expect((await publish()).status).toBe(201);

    const list = await page('/admin/api-keys');
    expect(list.text).toContain('blog:admin');
    expect(list.html).toContain(`href="/admin/api-keys?revoke=${key.id}"`);
    const confirm = await page(`/admin/api-keys?revoke=${key.id}`);
    expect(confirm.status).toBe(200);
    for (const fact of ['Name Daily Integration', `Key prefix bpk_${key.id}_…`, 'Created', 'Last used', 'What stops working', 'Every request with this key gets 401 at once']) expect(confirm.text).toContain(fact);

    const revoke = (reason: string) => staff.request(`/admin/api-keys?revoke=${key.id}`, { form: { _csrf: confirm.csrf, intent: 'revoke', id: key.id, reason } });
    const empty = await revoke('   ');
    expect(empty.status).toBe(400);
    expect(textOf(await empty.text())).toContain('Write why the key is revoked');
    const long = 'x'.repeat(501);
    const tooLong = await revoke(long);
    expect(tooLong.status).toBe(400);
    const tooLongHtml = await tooLong.text();
    expect(textOf(tooLongHtml)).toContain('A reason can be at most 500 characters');
    expect(tooLongHtml).toContain(`>${long}</textarea>`);
    expect((await publish()).status).toBe(201);

    const done = await revoke('  laptop lost on the train  ');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`/admin/api-keys?revoked=${key.id}`);
    expect((await page(done.headers.get('location') ?? '')).text).toContain('Revoked key "Daily Integration". Requests with it now get 401.');
    expect((await publish()).status).toBe(401);
    const audit = await server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'key.revoked' && entry.target === key.id)).toMatchObject({ actor: `staff:${EMAIL}`, detail: { name: 'Daily Integration', reason: 'laptop lost on the train' } });
  });
});

describe('approving a post with high findings', () => {
  it('needs no reason when the author accepted every high finding, with their reasons', async () => {
    const author = await server.createKey('Daily Accepting Author', ['blog:write'], 'Accepting Daily');
    const created = await call<{ post: { id: string; status: string } }>(server, 'POST', '/api/blog', {
      key: author,
      body: validPost({
        title: 'What the Carrier Calls Its Floor',
        status: 'published',
        content: '<p>The brochure calls the floor <q>risk-free</q> and speaks of guaranteed returns.</p>',
        compliance: {
          accept: [
            { rule: 'risk-free', reason: 'Quoted from the carrier brochure, attributed.' },
            { rule: 'guaranteed-returns', reason: 'Quoted from the carrier brochure, attributed.' },
          ],
        },
      }),
    });
    expect(created.json.post.status).toBe('in_review');
    const id = created.json.post.id;
    const review = await page(`/admin/review/${id}`);
    expect(review.html).not.toContain('Reason for approving');
    const revision = /name="revision" value="(\d+)"/.exec(review.html)?.[1] ?? '';
    const approved = await staff.request(`/admin/review/${id}`, { form: { _csrf: review.csrf, intent: 'approve', id, revision } });
    expect(approved.status).toBe(303);
    const audit = await server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'review.approved' && entry.target === id)?.detail).not.toHaveProperty('reason');
  });

  it('needs a reason, which the audit log and the post history keep', async () => {
    const author = await server.createKey('Daily Held Author', ['blog:write'], 'Held Daily');
    const created = await call<{ post: { id: string; slug: string; status: string } }>(server, 'POST', '/api/blog', {
      key: author,
      body: validPost({ title: 'A Risk-Free Plan With Guaranteed Returns', status: 'published', content: '<p>This policy is <strong>risk-free</strong> and pays guaranteed returns every year.</p>' }),
    });
    expect(created.json.post.status).toBe('in_review');
    const id = created.json.post.id;
    const review = await page(`/admin/review/${id}`);
    // The decision comes before the findings' details.
    expect(review.text.indexOf('Decide')).toBeLessThan(review.text.indexOf('Who wrote and checked it'));
    expect(review.text).toContain('Findings: high 4');
    const revision = /name="revision" value="(\d+)"/.exec(review.html)?.[1] ?? '';

    const refused = await staff.request(`/admin/review/${id}`, { form: { _csrf: review.csrf, intent: 'approve', id, revision, reason: '  ' } });
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain('This post still has 4 high findings the author did not accept. To approve it anyway, write why');
    expect(await server.store.posts.getById(id)).toMatchObject({ status: 'in_review' });

    const reason = 'Quoted from the carrier brochure; compliance officer signed off.';
    const approved = await staff.request(`/admin/review/${id}`, { form: { _csrf: review.csrf, intent: 'approve', id, revision, reason } });
    expect(approved.status).toBe(303);
    expect((await fetch(`${server.url}/blog/${created.json.post.slug}`)).status).toBe(200);
    const audit = await server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'review.approved' && entry.target === id)).toMatchObject({ actor: `staff:${EMAIL}`, detail: { reason } });
    const history = await postHistory(server.store.posts, id);
    expect(history?.versions[0]?.why).toBe(`approved in compliance review despite high findings: ${reason}`);
  });
});
