/**
 * The advertising archive and approval codes in real Chromium without JavaScript, on a server whose
 * clock the test moves (decision 0028): a reviewer approves a held post on the review page with a typed
 * approval code and expiry; 30 days before it runs out the dashboard lists it, linking to the post's
 * archive timeline, whose export link (a plain GET) downloads a ZIP whose index.csv matches the records
 * and whose index.html opens in Chromium as a table of them; once the approval has run out, the hourly
 * job moves the post back to the review queue.
 */
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { signInOnPage } from '../support/page';
import { testSite } from '../support/site-fixture';

const EMAIL = 'archive-reviewer@example.com';
const PASSWORD = 'an archive reviewer passphrase, long enough 7';
const TITLE = 'Guaranteed Returns? What an IUL Floor Really Means';

let clock = new Date('2026-06-01T12:00:00.000Z');
const site = testSite({ api: { complianceMode: 'review' }, now: () => clock });
let postId: string;

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Robin Reviewer');
  const author = await site.server.createKey('Archive author', ['blog:write'], 'Archive Author');
  const res = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${author}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(validPost({ title: TITLE, status: 'Published', content: '<p>Our IUL offers guaranteed returns with a 0% floor.</p>' })),
  });
  expect(res.status).toBe(201);
  const post = ((await res.json()) as { post: { id: string; status: string } }).post;
  expect(post.status).toBe('in_review');
  postId = post.id;
}, 120_000);

/** A signed-in staff page without JavaScript at `path` (signed in again: the clock may have moved past the last session). */
async function staffPage(path: string, js = false): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(`${site.url}${path}`);
  await signInOnPage(page, EMAIL, PASSWORD);
  await page.waitForURL(`**${path}`);
  return page;
}

describe('approval codes and the advertising archive, without JavaScript', () => {
  it('approves with a code, lists the approval before it runs out, shows the timeline and exports it, then sends the post back to review', async () => {
    const review = await staffPage(`/admin/review/${postId}`);
    await review.getByLabel('Reason for approving').fill('The floor is explained with its conditions; checked with the carrier.');
    await review.getByLabel('Approval code').fill('CARRIER-7781');
    await review.getByLabel('Approval valid until').fill('2026-08-31');
    await review.getByRole('button', { name: 'Approve', exact: true }).click();
    await review.waitForURL('**/admin/review?approved=*');
    await review.context().close();
    expect(await site.server.store.posts.getById(postId)).toMatchObject({ status: 'published', approval: { code: 'CARRIER-7781', by: `staff:${EMAIL}`, expiresAt: '2026-08-31T23:59:59.999Z' } });

    // Two months on: not yet listed. Then within 30 days of the end: listed, linking to the timeline.
    clock = new Date('2026-07-15T09:00:00.000Z');
    const early = await staffPage('/admin');
    expect(await early.getByTestId('expiring-approvals').count()).toBe(0);
    await early.goto(`${site.url}/admin/posts`);
    expect(await early.getByRole('link', { name: `Archive timeline of ${TITLE}` }).getAttribute('href')).toBe(`/admin/posts/${postId}/archive`);
    await early.context().close();
    clock = new Date('2026-08-10T09:00:00.000Z');
    const dashboard = await staffPage('/admin');
    const listed = await dashboard.getByTestId('expiring-approvals').innerText();
    expect(listed).toContain(TITLE);
    expect(listed).toContain('approval CARRIER-7781');
    expect(listed).toContain('Aug 31, 2026');
    await dashboard.getByRole('link', { name: 'archive timeline' }).click();
    await dashboard.waitForURL(`**/admin/posts/${postId}/archive`);
    const timeline = await dashboard.getByTestId('archive-timeline').innerText();
    expect(timeline).toContain('Went live');
    expect(timeline).toContain(`approved by staff:${EMAIL} under CARRIER-7781`);
    expect(timeline).toContain('guaranteed-returns (high)');

    // The export: a GET link, downloaded with the page's session.
    const href = await dashboard.getByRole('link', { name: /Download the export/ }).getAttribute('href');
    expect(href).toBe(`/admin/archive.zip?post=${postId}`);
    const download = await dashboard.context().request.get(`${site.url}${href ?? ''}`);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toBe('application/zip');
    expect(download.headers()['cache-control']).toBe('no-store');
    const files = unzipSync(new Uint8Array(await download.body()));
    const records = await site.server.store.archive.list({ subject: postId });
    const csv = strFromU8(files['index.csv'] ?? new Uint8Array()).trim().split('\r\n');
    expect(csv).toHaveLength(records.length + 1);
    for (const [index, record] of records.entries()) {
      expect(csv[index + 1]).toContain(`${record.seq},${postId},post,${record.event},/blog/`);
      expect(csv[index + 1]).toContain(`,${record.liveFrom},${record.liveTo ?? ''},`);
      expect(csv[index + 1]).toContain(`CARRIER-7781`);
      expect(csv[index + 1]).toContain(record.hash);
    }
    const snapshot = Object.keys(files).find((name) => name.startsWith('versions/'));
    expect(strFromU8(files[snapshot ?? ''] ?? new Uint8Array())).toBe(records[0]?.html);

    // index.html opens in Chromium as a table of the records, each linking to its snapshot.
    const index = await dashboard.context().newPage();
    await index.setContent(strFromU8(files['index.html'] ?? new Uint8Array()));
    expect(await index.title()).toBe(`Advertising archive for ${postId}`);
    expect(await index.locator('tbody tr').count()).toBe(records.length);
    expect(await index.locator('thead th').allInnerTexts()).toContain('approval_code');
    expect(await index.locator('tbody tr').first().getByRole('link').getAttribute('href')).toBe(snapshot);
    expect(await index.locator('body').innerText()).toContain('Chain check: whole');
    await dashboard.context().close();

    // The timeline and the dashboard's list pass axe (in a run with JavaScript, since axe itself is a script).
    for (const path of [`/admin/posts/${postId}/archive`, '/admin']) {
      const checked = await staffPage(path, true);
      expect(await axeViolations(checked)).toEqual([]);
      await checked.context().close();
    }

    // Run out: the hourly job moves the post back to the review queue, off the site.
    clock = new Date('2026-09-01T00:30:00.000Z');
    expect((await site.server.services.posts.expireApprovals()).map((post) => post.id)).toEqual([postId]);
    expect((await fetch(`${site.url}/blog/${(await site.server.store.posts.getById(postId))?.slug ?? ''}`)).status).toBe(404);
    const queue = await staffPage('/admin/review');
    expect(await queue.getByRole('main').innerText()).toContain(TITLE);
    await queue.context().close();
  });
});
