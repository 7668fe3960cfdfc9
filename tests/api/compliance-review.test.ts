/**
 * The compliance review queue over real HTTP, with COMPLIANCE_MODE=review: a post from a key without
 * blog:admin that says "guaranteed returns" and "risk-free" is held (201, in_review, with findings) and
 * is on no public list, page or feed until a staff member approves it through the /admin/review/:id
 * form; then it is on all of them. A post sent back is a draft whose author reads the note through
 * the API; both decisions are in the audit log with the staff member's e-mail. A decision on a post
 * changed since the page was loaded is refused with the reason, and one without the CSRF token (or
 * from another site) is refused like every staff form.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceFinding } from '../../contract/compliance';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';
import { call, textOf, validPost } from './support';

const EMAIL = 'reviewer@example.com';
const PASSWORD = 'a reviewer passphrase that is long 9';

let server: TestServer;
/** A key of an author: blog:write, not blog:admin, so the gate holds their posts. */
let authorKey: string;

beforeAll(async () => {
  server = await startTestServer({ api: { complianceMode: 'review' } });
  await server.seedStaff(EMAIL, PASSWORD, 'Riley Reviewer');
  authorKey = await server.createKey('Held Author laptop', ['blog:write'], 'Held Author');
});
afterAll(async () => {
  await server?.close();
});

type Client = StaffClient;

async function signedIn(): Promise<Client> {
  const staff = staffClient(server.url);
  const loginToken = await loginTokenOf(staff);
  const res = await staff.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin/review' } });
  expect(res.status).toBe(303);
  return staff;
}

/** The review page of a post, with what its forms carry. */
async function reviewPage(staff: Client, id: string): Promise<{ status: number; html: string; csrf: string; revision: string }> {
  const res = await staff.request(`/admin/review/${id}`);
  const html = await res.text();
  return {
    status: res.status,
    html,
    csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
    revision: /name="revision" value="(\d+)"/.exec(html)?.[1] ?? '',
  };
}

interface Created {
  id: string;
  slug: string;
  title: string;
  /** How many high findings the create answer named. */
  high: number;
}

/** An author sends a post with high findings, asking to publish it: it is held. */
async function holdPost(title: string): Promise<Created> {
  const res = await call<{ post: { id: string; slug: string; status: string }; findings: ComplianceFinding[] }>(server, 'POST', '/api/blog', {
    key: authorKey,
    body: validPost({
      title,
      status: 'published',
      excerpt: 'Why an indexed universal life policy suits savers who want guaranteed returns.',
      content: '<h2>The short answer</h2>\n<p>This policy is <strong>risk-free</strong> and pays guaranteed returns every year.</p>',
    }),
  });
  expect(res.status).toBe(201);
  expect(res.json.post.status).toBe('in_review');
  const high = res.json.findings.filter((finding) => finding.severity === 'high').map((finding) => finding.rule);
  expect(new Set(high)).toEqual(new Set(['guaranteed-returns', 'risk-free']));
  return { id: res.json.post.id, slug: res.json.post.slug, title, high: high.length };
}

/** Where the public can see a post: the API's list, the blog page, the post's page, the feed, the sitemap. */
async function publicSightings(post: Created) {
  const text = async (pathname: string) => (await fetch(`${server.url}${pathname}`)).text();
  const list = (await call<{ posts: Array<{ id: string }> }>(server, 'GET', '/api/blog?limit=100')).json.posts.map((entry) => entry.id);
  return {
    apiList: list.includes(post.id),
    blogPage: textOf(await text('/blog')).includes(post.title),
    postPage: (await fetch(`${server.url}/blog/${post.slug}`)).status,
    rss: (await text('/rss.xml')).includes(`/blog/${post.slug}`),
    sitemap: (await text('/sitemap.xml')).includes(`/blog/${post.slug}`),
  };
}

describe('a held post', () => {
  it('is on no public list, page or feed until a staff member approves it with the form; then it is on all of them', async () => {
    const post = await holdPost('Guaranteed Returns From a Risk-Free Policy');
    expect(await publicSightings(post)).toEqual({ apiList: false, blogPage: false, postPage: 404, rss: false, sitemap: false });

    const staff = await signedIn();
    const queue = textOf(await (await staff.request('/admin/review')).text());
    expect(queue).toContain(post.title);
    expect(queue).toContain('Held Author');

    const page = await reviewPage(staff, post.id);
    expect(page.status).toBe(200);
    // The finding in the content is marked where it stands in the post, the markup around it intact.
    expect(page.html).toContain('<strong><mark class="review-mark review-mark-high">risk-free</mark></strong>');
    expect(textOf(page.html)).toContain('in the content at 2:');

    // Its high findings were not accepted by the author: approving needs the reviewer's reason.
    const unexplained = await staff.request(`/admin/review/${post.id}`, { form: { intent: 'approve', id: post.id, revision: page.revision, _csrf: page.csrf } });
    expect(unexplained.status).toBe(400);
    expect(textOf(await unexplained.text())).toContain(`This post still has ${post.high} high findings the author did not accept.`);
    expect(await publicSightings(post)).toEqual({ apiList: false, blogPage: false, postPage: 404, rss: false, sitemap: false });
    const reason = 'The carrier guarantees the floor in writing; approved by compliance.';
    const approved = await staff.request(`/admin/review/${post.id}`, { form: { intent: 'approve', id: post.id, revision: page.revision, _csrf: page.csrf, reason } });
    expect(approved.status).toBe(303);
    const back = approved.headers.get('location') ?? '';
    expect(back).toBe(`/admin/review?approved=${post.id}`);
    const outcome = textOf(await (await staff.request(back)).text());
    expect(outcome).toContain(`Approved "${post.title}": it is on the site at /blog/${post.slug}.`);
    expect(outcome).not.toContain(`>${post.title}<`);

    expect(await publicSightings(post)).toEqual({ apiList: true, blogPage: true, postPage: 200, rss: true, sitemap: true });
    const audit = await server.store.audit.list();
    expect(audit.find((entry) => entry.action === 'review.approved' && entry.target === post.id)).toMatchObject({ actor: `staff:${EMAIL}`, detail: { reason } });

    // Its review page now says it is no longer waiting, and leads back to the queue.
    const gone = await reviewPage(staff, post.id);
    expect(gone.status).toBe(404);
    expect(textOf(gone.html)).toContain('is not waiting for review');
    expect(gone.html).toContain('href="/admin/review"');
  });

  it('sent back with a note is a draft again: its author reads the note, and the audit log names the reviewer', async () => {
    const post = await holdPost('Risk-Free Guaranteed Returns, Explained');
    const staff = await signedIn();
    const page = await reviewPage(staff, post.id);

    const short = await staff.request(`/admin/review/${post.id}`, { form: { intent: 'return', id: post.id, revision: page.revision, note: 'Fix it', _csrf: page.csrf } });
    expect(short.status).toBe(400);
    const refusal = await short.text();
    expect(textOf(refusal)).toContain('Write the author a note of at least 10 characters');
    expect(refusal).toMatch(/<textarea[^>]*name="note"[^>]*>Fix it<\/textarea>/);

    const note = 'Drop "risk-free" and say the 0% floor is what is guaranteed, by the insurer.';
    const sent = await staff.request(`/admin/review/${post.id}`, { form: { intent: 'return', id: post.id, revision: page.revision, note, _csrf: page.csrf } });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`/admin/review?returned=${post.id}`);
    expect(textOf(await (await staff.request(`/admin/review?returned=${post.id}`)).text())).toContain(`Sent "${post.title}" back to its author as a draft, with your note.`);

    const seen = await call<{ post: { status: string; review?: { state: string; note: string | null } } }>(server, 'GET', `/api/blog/${post.id}`, { key: authorKey });
    expect(seen.status).toBe(200);
    expect(seen.json.post.status).toBe('draft');
    expect(seen.json.post.review).toMatchObject({ state: 'returned', note });
    expect((await publicSightings(post)).postPage).toBe(404);

    const audit = textOf(await (await staff.request('/admin/audit')).text());
    expect(audit).toContain('review.returned');
    const entry = (await server.store.audit.list()).find((item) => item.action === 'review.returned' && item.target === post.id);
    expect(entry).toMatchObject({ actor: `staff:${EMAIL}`, detail: { note } });
  });

  it('edited by the reviewer keeps waiting; a decision on the revision before the edit is refused with the reason', async () => {
    const post = await holdPost('Guaranteed Returns and a Risk-Free Retirement');
    const staff = await signedIn();
    const before = await reviewPage(staff, post.id);
    const form = { intent: 'edit', id: post.id, revision: before.revision, _csrf: before.csrf };

    const empty = await staff.request(`/admin/review/${post.id}`, { form: { ...form, title: 'A Kept Title Without The Excerpt', excerpt: '', content: '<p>Text.</p>' } });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('value="A Kept Title Without The Excerpt"');

    const title = 'How the 0% Floor of an IUL Works';
    const edited = await staff.request(`/admin/review/${post.id}`, {
      // A browser sends a textarea's line breaks as CRLF; the post keeps the author's LF.
      form: {
        ...form,
        title,
        excerpt: 'What the floor guarantees, and what it does not.',
        content: '<p>Index credits are never below 0%.</p>\r\n<p>That floor depends on the claims-paying ability of the insurer.</p>',
      },
    });
    expect(edited.status).toBe(200);
    expect(textOf(await edited.text())).toContain('Saved: the post still waits for review.');
    expect((await server.store.posts.getById(post.id))?.content).toBe('<p>Index credits are never below 0%.</p>\n<p>That floor depends on the claims-paying ability of the insurer.</p>');
    const after = await reviewPage(staff, post.id);
    expect(Number(after.revision)).toBeGreaterThan(Number(before.revision));
    expect(textOf(after.html)).toContain(`Review: ${title}`);
    expect((await publicSightings({ ...post, title })).postPage).toBe(404);

    const stale = await staff.request(`/admin/review/${post.id}`, { form: { intent: 'approve', id: post.id, revision: before.revision, _csrf: before.csrf } });
    expect(stale.status).toBe(409);
    expect(textOf(await stale.text())).toContain('Someone changed this post since this page was loaded');
    expect((await server.store.posts.getById(post.id))?.status).toBe('in_review');
    expect((await server.store.audit.list()).some((entry) => entry.action === 'review.edited' && entry.target === post.id && entry.actor === `staff:${EMAIL}`)).toBe(true);
  });

  it('edited by the reviewer may show an uploaded image by this site\'s address: it is stored as the upload, sized', async () => {
    const png = await sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 30, g: 80, b: 130 } } }).png().toBuffer();
    const uploaded = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { Authorization: `Bearer ${authorKey}`, 'Content-Type': 'image/png' }, body: png });
    expect(uploaded.status).toBe(201);
    const media = (await uploaded.json()) as { id: string; url: string };
    const post = await holdPost('Guaranteed Growth Shown in a Chart');
    const staff = await signedIn();
    const page = await reviewPage(staff, post.id);
    // The test server runs with the default SITE_URL, not its own address.
    const absolute = `${DEFAULT_SITE_CONFIG.siteUrl}${media.url}`;
    const edited = await staff.request(`/admin/review/${post.id}`, {
      form: {
        intent: 'edit',
        id: post.id,
        revision: page.revision,
        _csrf: page.csrf,
        title: 'Growth Shown in a Chart',
        excerpt: 'A projection, not a promise.',
        content: `<p>A projection, not a promise.</p><img src="${absolute}" alt="Projected cash value by year">`,
      },
    });
    expect(edited.status).toBe(200);
    const content = (await server.store.posts.getById(post.id))?.content ?? '';
    expect(content).toContain(`src="${media.url}"`);
    expect(content, content).toContain('width="640" height="400"');
    expect(content).toContain(`srcset="${media.url.replace(/-640\.png$/, '-480.webp')} 480w, ${media.url.replace(/\.png$/, '.webp')} 640w"`);
    expect(content).toContain('alt="Projected cash value by year"');
    expect((await fetch(`${server.url}${media.url}`)).status).toBe(200);
  });

  it('is not decided by a form without the CSRF token, with a wrong one, from another site, or without a session', async () => {
    const post = await holdPost('A Risk-Free Plan With Guaranteed Returns');
    const staff = await signedIn();
    const page = await reviewPage(staff, post.id);
    const form = { intent: 'approve', id: post.id, revision: page.revision };
    expect((await staff.request(`/admin/review/${post.id}`, { form })).status).toBe(403);
    expect((await staff.request(`/admin/review/${post.id}`, { form: { ...form, _csrf: `${page.csrf.slice(0, -2)}xx` } })).status).toBe(403);
    expect((await staff.request(`/admin/review/${post.id}`, { form: { ...form, _csrf: page.csrf }, headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    expect((await staffClient(server.url).request(`/admin/review/${post.id}`, { form: { ...form, _csrf: page.csrf } })).status).toBe(401);
    const anonymous = await staffClient(server.url).request(`/admin/review/${post.id}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(`/admin/review/${post.id}`)}`);
    expect((await server.store.posts.getById(post.id))?.status).toBe('in_review');
    expect((await publicSightings(post)).postPage).toBe(404);
  });
});

describe('the preview', () => {
  it('shows a table as the post page will: its columns aligned by class, in its scroll box, with no obsolete align attribute', async () => {
    const res = await call<{ post: { id: string; status: string } }>(server, 'POST', '/api/blog', {
      key: authorKey,
      body: validPost({
        title: 'A Risk-Free Table of Rates',
        status: 'published',
        content: '<p>This policy is <strong>risk-free</strong>.</p><table><thead><tr><th align="left">Year</th><th align="right">Rate</th></tr></thead><tbody><tr><td align="left">2025</td><td align="right">5.5%</td></tr></tbody></table>',
      }),
    });
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe('in_review');
    const page = await reviewPage(await signedIn(), res.json.post.id);
    expect(page.status).toBe(200);
    const preview = page.html.slice(page.html.indexOf('class="post-content prose"'));
    expect(preview).toMatch(/<td class="align-right">5\.5%<\/td>/);
    expect(preview).toMatch(/<th class="align-left">Year<\/th>/);
    expect(preview).toContain('class="table-scroll post-table"');
    expect(preview.slice(0, preview.indexOf('</table>'))).not.toMatch(/\salign="/);
  });
});

describe('a long post', () => {
  it('is offered for editing up to what the API takes, and saved whole', async () => {
    const content = `<p>${'Cash value can grow over decades. '.repeat(7000)}It pays guaranteed returns.</p>`;
    const res = await call<{ post: { id: string; status: string } }>(server, 'POST', '/api/blog', {
      key: authorKey,
      body: validPost({ title: 'A Long Post Still Editable', status: 'published', content }),
    });
    expect(res.json.post.status).toBe('in_review');
    const client = await signedIn();
    const page = await reviewPage(client, res.json.post.id);
    expect(page.html).toContain('name="content"');
    const edited = content.replace('It pays guaranteed returns.', 'Index credits have a 0% floor; charges still apply.');
    const saved = await client.request(`/admin/review/${res.json.post.id}`, {
      form: { intent: 'edit', id: res.json.post.id, revision: page.revision, _csrf: page.csrf, title: 'A Long Post Still Editable', excerpt: 'A long post.', content: edited },
    });
    expect(saved.status).toBeLessThan(400);
    const stored = await server.store.posts.getById(res.json.post.id);
    expect(stored?.content).toBe(edited);
  });

  it('is not offered for editing when its form would be larger than a staff form may be, and says what to do instead', async () => {
    const res = await call<{ post: { id: string; status: string } }>(server, 'POST', '/api/blog', {
      key: authorKey,
      body: validPost({ title: 'A Long Post With Guaranteed Returns', status: 'published', content: `<p>${'保险现金价值随时间增长。'.repeat(12000)}It pays guaranteed returns.</p>` }),
    });
    expect(res.json.post.status).toBe('in_review');
    const page = await reviewPage(await signedIn(), res.json.post.id);
    expect(page.html).not.toContain('name="content"');
    expect(textOf(page.html)).toContain('This post is too long to edit here');
    expect(page.html).toContain('name="note"');
  });
});

describe('the queue', () => {
  it('says the server holds posts (COMPLIANCE_MODE=review), lists them the longest waiting first, and the dashboard counts them', async () => {
    const first = await holdPost('Guaranteed Returns: The First in Line');
    const second = await holdPost('Risk-Free Returns: The Second in Line');
    const staff = await signedIn();
    const res = await staff.request('/admin/review');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const queue = textOf(html);
    expect(queue.indexOf(first.title)).toBeGreaterThan(-1);
    expect(queue.indexOf(first.title)).toBeLessThan(queue.indexOf(second.title));
    expect(queue).toContain(`${first.high} high`);
    const waiting = (await server.store.posts.list({ status: 'in_review', limit: 100 })).entries.length;
    const dashboard = await (await staff.request('/admin')).text();
    expect(textOf(dashboard)).toContain(`${waiting} posts waiting for compliance review`);
    expect(dashboard).toContain('href="/admin/review"');
    // The mode the server runs in, not the default: under `warn` the page tells staff the queue stays empty.
    const mode = textOf(/data-testid="review-mode">([^<]*)</.exec(html)?.[1] ?? '');
    expect(mode).toContain('The server runs with COMPLIANCE_MODE=review');
  });
});
