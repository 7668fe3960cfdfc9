/**
 * A preview link in real Chromium without JavaScript: a signed-in staff member opens a draft's preview
 * from the posts list, presses the button that makes a link, and the link opens signed out in another
 * browser (no cookies, no JavaScript) as the post will read, under "Preview: not published". axe on
 * the staff preview page and the shared one (in a run with JavaScript, since axe itself is a script).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { signInOnPage } from '../support/page';
import { testSite } from '../support/site-fixture';

const EMAIL = 'preview@example.com';
const PASSWORD = 'a preview staff passphrase, long enough 3';
const TITLE = 'A Draft Shown to a Client Before It Goes Live';

const site = testSite({});
let draftId: string;

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Pat Preview');
  const author = await site.server.createKey('Preview author', ['blog:write'], 'Preview Author');
  const res = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${author}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(validPost({ title: TITLE, status: 'Draft' })),
  });
  expect(res.status).toBe(201);
  draftId = ((await res.json()) as { post: { id: string } }).post.id;
}, 120_000);

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

describe('a preview link, without JavaScript', () => {
  it('is made on the staff preview page and opens signed out, as the post will read', async () => {
    const staff = await newPage(false);
    await staff.goto(`${site.url}/admin/posts`);
    await signInOnPage(staff, EMAIL, PASSWORD);
    await staff.getByRole('link', { name: `Preview ${TITLE}` }).click();
    await staff.waitForURL(`**/admin/posts/${draftId}/preview`);
    await expect.poll(() => staff.getByTestId('preview-banner').innerText()).toContain('Draft: not public');
    expect(await staff.getByRole('heading', { level: 1, name: TITLE, exact: true }).count()).toBe(1);

    await staff.getByRole('button', { name: 'Make a preview link to share' }).click();
    await staff.waitForLoadState('load');
    expect(await staff.getByTestId('preview-message').innerText()).toContain('Anyone with it can read this post until');
    const link = await staff.getByLabel('Preview link').inputValue();
    const linkPath = new URL(link).pathname;
    expect(linkPath).toMatch(/^\/preview\/[A-Za-z0-9_.-]+$/);
    expect(await staff.getByRole('link', { name: 'Open it' }).getAttribute('href')).toBe(linkPath);

    for (const js of [false, true]) {
      const reader = await newPage(js);
      const answer = await reader.goto(`${site.url}${linkPath}`);
      expect(answer?.status()).toBe(200);
      expect(answer?.headers()['x-robots-tag']).toBe('noindex, nofollow');
      expect(await reader.getByTestId('preview-banner').innerText()).toContain('Preview: not published.');
      expect(await reader.getByRole('heading', { level: 1, name: TITLE, exact: true }).count()).toBe(1);
      expect(await reader.locator('meta[name="robots"]').getAttribute('content')).toMatch(/^noindex/);
      expect(await reader.getByText('Signed in as').count()).toBe(0);
      if (js) expect(await axeViolations(reader)).toEqual([]);
      await reader.context().close();
    }
    await staff.context().close();

    const signedIn = await newPage(true);
    await signedIn.goto(`${site.url}/admin/posts/${draftId}/preview`);
    await signInOnPage(signedIn, EMAIL, PASSWORD);
    await signedIn.waitForURL(`**/admin/posts/${draftId}/preview`);
    expect(await axeViolations(signedIn)).toEqual([]);
    await signedIn.context().close();
  });
});
