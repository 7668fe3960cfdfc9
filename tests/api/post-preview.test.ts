/**
 * Previews of posts that are not public, over real HTTP against the production build: signed-in staff
 * read a draft at /admin/posts/:id/preview as readers will see it, under a banner with its status (a
 * visitor is sent to sign in); the button there makes a signed link that works signed out for 7 days,
 * never indexed and never stored by a cache (the draft's own address stays a 404 afterwards); an
 * expired, altered or cut-short link, or one whose post was published or deleted since, gets a page
 * that says so and what to do. The clock is the test's: it is moved, never waited for.
 */
import path from 'node:path';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import { blogpost } from '../support/cli';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';
import { call, textOf, validPost } from './support';

const EMAIL = 'editor@example.com';
const PASSWORD = 'an editor passphrase that is long 7';
const DAY_MS = 24 * 60 * 60 * 1000;
/** A draft as an author writes it (status: draft in its front matter). */
const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), '../cli/fixtures/policy-loans.md');

let server: TestServer;
let key: string;
let staff: StaffClient;
let clock = Date.parse('2026-11-02T15:00:00Z');

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 }, now: () => new Date(clock) });
  await server.seedStaff(EMAIL, PASSWORD, 'Eddie Editor');
  key = await server.createKey('Preview author', ['blog:write'], 'Preview author');
  await signIn();
});
afterAll(() => server?.close());

/** A fresh staff session (the one before ends when the clock moves days on). */
async function signIn(): Promise<void> {
  staff = staffClient(server.url);
  const loginToken = await loginTokenOf(staff);
  expect((await staff.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin/posts' } })).status).toBe(303);
}

async function draft(title: string, extra: Record<string, unknown> = {}): Promise<CreatePostResponse['post']> {
  const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title, status: 'Draft', ...extra }) });
  expect(res.status, res.text).toBe(201);
  return res.json.post;
}

async function page(pathname: string, client?: StaffClient) {
  const res = client ? await client.request(pathname) : await fetch(`${server.url}${pathname}`, { redirect: 'manual' });
  const html = await res.text();
  return { status: res.status, headers: res.headers, html, text: textOf(html) };
}

/** Presses "Make a preview link to share" on the staff preview page; the link's path. */
async function makeLink(id: string): Promise<string> {
  const html = await (await staff.request(`/admin/posts/${id}/preview`)).text();
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const res = await staff.request(`/admin/posts/${id}/preview`, { form: { _csrf: csrf, intent: 'link' } });
  const answer = await res.text();
  expect(res.status, textOf(answer)).toBe(200);
  expect(textOf(answer)).toContain('Anyone with it can read this post until');
  const url = /data-testid="preview-link" value="([^"]+)"|value="([^"]+)"[^>]*data-testid="preview-link"/.exec(answer);
  const link = url?.[1] ?? url?.[2] ?? '';
  expect(link).toMatch(/\/preview\/[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{43}$/);
  return new URL(link).pathname;
}

describe('the staff preview page', () => {
  it('shows a draft to signed-in staff as its public page will, under a "Draft: not public" banner', async () => {
    const post = await draft('A Draft Only Staff Should See');
    const seen = await page(`/admin/posts/${post.id}/preview`, staff);
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('no-store');
    expect(seen.text).toContain('Draft: not public');
    // The post page's own markup: its title as the article's heading, its byline and its content.
    expect(seen.html).toMatch(/<h1 id="post-title">A Draft Only Staff Should See<\/h1>/);
    expect(seen.html).toContain('data-testid="post-byline"');
    expect(seen.html).toContain('Cash value grows <strong>tax-deferred</strong>');
    expect(seen.html).toContain('href="/admin/posts"');
    // The posts list links each row to its preview.
    expect((await page('/admin/posts', staff)).html).toContain(`href="/admin/posts/${post.id}/preview"`);
  });

  it('sends a visitor who is not signed in to the sign-in page, which brings them back', async () => {
    const post = await draft('A Draft Behind the Sign-In');
    const res = await page(`/admin/posts/${post.id}/preview`);
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(`/admin/posts/${post.id}/preview`)}`);
    expect(res.html).not.toContain('A Draft Behind the Sign-In');
  });

  it('says the time of a scheduled post, and answers 404 with a way back for an unknown id', async () => {
    const post = await draft('A Post Scheduled for Later', { status: 'scheduled', publish_at: '2026-12-01T14:30:00Z' });
    expect((await page(`/admin/posts/${post.id}/preview`, staff)).text).toContain('Scheduled for December 1, 2026 at 2:30 PM UTC');
    const missing = await page('/admin/posts/no-such-post/preview', staff);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('There is no post no-such-post');
    expect(missing.html).toContain('href="/admin/posts"');
  });
});

describe('a shared preview link', () => {
  it('works signed out, is never indexed or stored, is audited, and leaves the draft itself a 404', async () => {
    const post = await draft('A Draft Shared With a Client');
    const link = await makeLink(post.id);
    const audit = (await server.store.audit.list()).filter((entry) => entry.action === 'post.preview_link_made' && entry.target === post.id);
    expect(audit).toEqual([expect.objectContaining({ actor: `staff:${EMAIL}`, detail: { expiresAt: new Date(clock + 7 * DAY_MS).toISOString() } })]);

    for (let i = 0; i < 2; i += 1) {
      const seen = await page(link);
      expect(seen.status).toBe(200);
      expect(seen.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(seen.headers.get('cache-control')).toBe('no-store');
      expect(seen.html).toMatch(/<meta name="robots" content="noindex[^"]*"/);
      expect(seen.text).toContain('Preview: not published.');
      expect(seen.text).toContain('Draft: not public');
      expect(seen.html).toMatch(/<h1 id="post-title">A Draft Shared With a Client<\/h1>/);
      // No staff frame on the shared page.
      expect(seen.html).not.toContain('Signed in as');
    }
    // The same through a client-side navigation's data request.
    const dataRequest = await fetch(`${server.url}${link}.data`);
    expect(dataRequest.status).toBe(200);
    expect(dataRequest.headers.get('cache-control')).toBe('no-store');
    expect(await dataRequest.text()).toContain('A Draft Shared With a Client');
    expect((await page(`/blog/${post.slug}`)).status).toBe(404);
  });

  it('stops working after 7 days, with a page that says to ask for a new link', async () => {
    const post = await draft('A Draft Whose Link Runs Out');
    const link = await makeLink(post.id);
    clock += 7 * DAY_MS - 1000;
    expect((await page(link)).status).toBe(200);
    clock += 1000;
    const expired = await page(link);
    expect(expired.status).toBe(410);
    expect(expired.headers.get('cache-control')).toBe('no-store');
    expect(expired.text).toContain('This preview link has expired');
    expect(expired.text).toContain('Ask the author for a new preview link');
    expect(expired.html).not.toContain('A Draft Whose Link Runs Out');
    await signIn();
  });

  it('refuses an altered, cut-short or made-up link with a page that says what to do', async () => {
    const post = await draft('A Draft Someone Tries to Forge');
    const other = await draft('Another Draft Nobody Shared');
    const link = await makeLink(post.id);
    const [encodedId = '', expires = '', signature = ''] = link.slice('/preview/'.length).split('.');
    const otherId = Buffer.from(other.id).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `/preview/${encodedId}.${expires}.${flipped}`,
      `/preview/${otherId}.${expires}.${signature}`,
      `/preview/${encodedId}.${Number(expires) + 365 * 86400}.${signature}`,
      `/preview/${encodedId}.${expires}.${signature.slice(0, 20)}`,
      '/preview/not-a-link',
    ];
    for (const address of forged) {
      const seen = await page(address);
      expect(seen.status, address).toBe(404);
      expect(seen.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(seen.text).toContain('This preview link does not work');
      expect(seen.text).toContain('ask the author for a new preview link');
      expect(seen.html).not.toContain('Nobody Shared');
    }
  });

  it('says so when the post was published since (with a link to it) or deleted', async () => {
    const published = await draft('A Draft That Went Live');
    const trashed = await draft('A Draft That Was Deleted');
    const publishedLink = await makeLink(published.id);
    const trashedLink = await makeLink(trashed.id);
    const live = await call(server, 'PATCH', `/api/blog/${published.id}`, { key, body: { status: 'published' }, headers: { 'if-match': published.etag } });
    expect(live.status, live.text).toBe(200);
    const gone = await call(server, 'DELETE', `/api/blog/${trashed.id}`, { key, headers: { 'if-match': trashed.etag } });
    expect(gone.status, gone.text).toBeLessThan(300);

    const now = await page(publishedLink);
    expect(now.text).toContain('This post is published');
    expect(now.html).toContain(`href="/blog/${published.slug}"`);
    const deleted = await page(trashedLink);
    expect(deleted.status).toBe(410);
    expect(deleted.text).toContain('This post was deleted');
  });
});

describe('blogpost publish of a draft', () => {
  it('prints the staff preview address, which signed-in staff can open', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-preview-'));
    try {
      copyFileSync(FIXTURE, path.join(tmp, 'draft.md'));
      const run = await blogpost(['publish', 'draft.md'], { cwd: tmp, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('(drafts are not public until published)');
      const address = new RegExp(`signed-in staff can preview it at ${server.url}(/admin/posts/[^/\\s]+/preview)`).exec(run.stderr)?.[1];
      expect(address, run.stderr).toBeDefined();
      const seen = await page(address ?? '', staff);
      expect(seen.status).toBe(200);
      expect(seen.text).toContain('How Policy Loans Work in an IUL');
      expect(seen.text).toContain('Draft: not public');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('a post held for compliance review', () => {
  let held: TestServer;
  afterAll(() => held?.close());

  it('is previewed as "Held for review", with links between its preview and its review page', async () => {
    held = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' } });
    await held.seedStaff(EMAIL, PASSWORD, 'Eddie Editor');
    const author = await held.createKey('Held author', ['blog:write'], 'Held author');
    const res = await call<CreatePostResponse>(held, 'POST', '/api/blog', {
      key: author,
      body: validPost({ title: 'A Post Promising Guaranteed Returns', status: 'published', content: '<p>This policy is risk-free and pays guaranteed returns every year.</p>' }),
    });
    expect(res.json.post.status).toBe('in_review');
    const id = res.json.post.id;
    const reviewer = staffClient(held.url);
    const loginToken = await loginTokenOf(reviewer);
    expect((await reviewer.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken, next: '/admin' } })).status).toBe(303);

    const preview = await (await reviewer.request(`/admin/posts/${id}/preview`)).text();
    expect(textOf(preview)).toContain('Held for review: not public until a reviewer approves it');
    expect(preview).toContain(`href="/admin/review/${id}"`);
    expect(await (await reviewer.request(`/admin/review/${id}`)).text()).toContain(`href="/admin/posts/${id}/preview"`);
  });
});
