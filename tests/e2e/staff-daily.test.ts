/**
 * The staff area as a daily tool in real Chromium, without JavaScript and with it: every staff page
 * has the staff area's own bar (no marketing header or footer; the current page marked with
 * aria-current) and fits a 375 px screen; among 500 posts the list finds one by its title, filters by
 * author, and pages with its links; three ticked posts are unpublished after a confirmation page that
 * lists exactly them, and are then gone from the public site. axe on the new pages at 1280 and 375 px
 * (in the run with JavaScript, since axe itself is a script).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { type SeededPost, SEED_AUTHORS, seedPosts } from '../support/many-posts';
import { signInOnPage, waitForHydration } from '../support/page';
import { testSite } from '../support/site-fixture';

const EMAIL = 'desk@example.com';
const PASSWORD = 'a desk staff passphrase, long enough 5';
const NEEDLE = 'The One About Premium Financing Haystacks';

const site = testSite({ api: { complianceMode: 'review' } });
let seeded: SeededPost[];
let heldId: string;

beforeAll(async () => {
  await site.server.createStaff(EMAIL, PASSWORD, 'Desk Staff');
  seeded = await seedPosts(site.server.store, 500, 'Desk', NEEDLE);
  const author = await site.server.createKey('Desk author', ['blog:write'], 'Desk Author');
  const held = await fetch(`${site.url}/api/blog`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${author}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(validPost({ title: 'Desk: Is This Risk-Free?', status: 'published', content: '<p>This policy is risk-free and pays guaranteed returns every year.</p>' })),
  });
  heldId = ((await held.json()) as { post: { id: string } }).post.id;
}, 120_000);

async function newPage(js: boolean): Promise<Page> {
  const context = await site.newContext({ javaScriptEnabled: js, viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

function signIn(page: Page): Promise<void> {
  return signInOnPage(page, EMAIL, PASSWORD);
}

/** The staff bar, no marketing chrome, nothing wider than the screen, and (with JavaScript) axe at 1280 and 375 px. */
async function expectStaffPage(page: Page, js: boolean, current: string | null): Promise<void> {
  expect(await page.getByTestId('site-header').count()).toBe(0);
  expect(await page.locator('footer').count()).toBe(0);
  expect(await page.getByTestId('call-bar').count()).toBe(0);
  const nav = page.getByRole('navigation', { name: 'Staff area' });
  expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Dashboard', 'Leads', 'Posts', 'Review', 'Analytics', 'API keys', 'Audit log']);
  if (current) expect(await nav.locator('[aria-current="page"]').allInnerTexts()).toEqual([current]);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at ${width}px`).toBeLessThanOrEqual(width);
    if (js) expect(await axeViolations(page), `at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Waits for the list to say it shows these (after a navigation with JavaScript, React renders a moment after the address changes). */
async function expectCount(page: Page, line: string): Promise<void> {
  await page.getByTestId('posts-count').filter({ hasText: line }).waitFor();
  expect((await page.getByTestId('posts-count').innerText()).trim()).toBe(line);
}

for (const js of [false, true]) {
  describe(js ? 'with JavaScript' : 'without JavaScript', () => {
    it('finds a post among 500 by its title, filters by author, pages, and bulk-unpublishes three after the confirmation', async () => {
      const page = await newPage(js);
      await page.goto(`${site.url}/admin/posts`);
      await signIn(page);
      expect(new URL(page.url()).pathname).toBe('/admin/posts');
      if (js) await waitForHydration(page);
      await expectStaffPage(page, js, 'Posts');

      // Search by title.
      await page.getByLabel('Title').fill('premium financing hay');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL((url) => url.searchParams.get('q') === 'premium financing hay');
      await expectCount(page, 'Showing 1–1 of 1 post.');
      expect(await page.getByTestId('posts-table').innerText()).toContain(NEEDLE);

      // An author, among the posts of this file.
      const author = SEED_AUTHORS[1];
      const authored = seeded.filter((post) => post.author === author && post.title.startsWith('Desk note'));
      await page.goto(`${site.url}/admin/posts?q=desk+note`);
      await page.getByLabel('Author').selectOption(author);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL((url) => url.searchParams.get('author') === author);
      await expectCount(page, `Showing 1–25 of ${authored.length} posts.`);
      await page.getByRole('link', { name: 'Next' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      await expectCount(page, `Showing 26–50 of ${authored.length} posts.`);
      // Newest first: the 26th of the author's posts is the first on page 2.
      const secondPageFirst = [...authored].reverse()[25];
      expect((await page.getByTestId('posts-table').locator('tbody tr').first().innerText())).toContain(secondPageFirst?.title ?? 'missing');
      await page.getByRole('link', { name: 'Page 3' }).click();
      await page.waitForURL((url) => url.searchParams.get('page') === '3');
      await expectCount(page, `Showing 51–75 of ${authored.length} posts.`);

      // Three published posts of this page, ticked and unpublished after the confirmation.
      const rows = page.getByTestId('posts-table').locator('tbody tr');
      const shownTitles: string[] = [];
      for (let i = 0; i < (await rows.count()); i++) shownTitles.push(await rows.nth(i).locator('label').innerText());
      const three = seeded.filter((post) => post.status === 'published' && shownTitles.includes(`Tick ${post.title}`)).slice(js ? 0 : 3, js ? 3 : 6);
      expect(three).toHaveLength(3);
      for (const post of three) expect((await fetch(`${site.url}/blog/${post.slug}`)).status).toBe(200);
      for (const post of three) await page.getByLabel(`Tick ${post.title}`, { exact: true }).check();
      await page.getByRole('button', { name: 'Unpublish…' }).click();
      await page.getByTestId('bulk-confirm').waitFor();
      expect(await page.getByRole('heading', { level: 2 }).first().innerText()).toBe('Unpublish: 3 posts will change');
      const planned = await page.getByTestId('bulk-changes').locator('tbody tr').allInnerTexts();
      expect(planned.map((row) => row.replace(/\s+/g, ' ').trim()).sort()).toEqual(three.map((post) => `${post.title} published draft (off the site)`).sort());
      await expectStaffPage(page, js, 'Posts');
      // Nothing has changed before the confirmation.
      for (const post of three) expect((await site.server.store.posts.getById(post.id))?.status).toBe('published');
      await page.getByRole('button', { name: 'Unpublish 3 posts' }).click();
      await page.getByTestId('posts-message').filter({ hasText: '3 of 3 posts unpublished.' }).waitFor();
      // Back on the same page of the same filter.
      await expectCount(page, `Showing 51–75 of ${authored.length} posts.`);
      for (const post of three) {
        expect(await page.getByTestId('bulk-results').innerText()).toContain(`${post.title}: Unpublished`);
        expect((await fetch(`${site.url}/blog/${post.slug}`)).status).toBe(404);
        expect(await site.server.store.posts.getById(post.id)).toMatchObject({ status: 'draft', revision: 2 });
      }
      await page.context().close();
    });

    it('keys, their revoke confirmation, a review page and the analytics are staff pages that fit a phone', async () => {
      const page = await newPage(js);
      await page.goto(`${site.url}/admin/api-keys`);
      // Signed out: how keys work, every permission explained, and a way to sign in.
      const explained = await page.getByTestId('permission-explanations').innerText();
      for (const permission of ['blog:write', 'blog:read', 'blog:admin']) expect(explained).toContain(permission);
      await page.getByRole('link', { name: 'sign in' }).click();
      await signIn(page);
      expect(new URL(page.url()).pathname).toBe('/admin/api-keys');
      if (js) await waitForHydration(page);
      await expectStaffPage(page, js, 'API keys');
      await page.getByRole('link', { name: 'Revoke Desk author…' }).click();
      await page.getByTestId('revoke-confirm').waitFor();
      await expectStaffPage(page, js, 'API keys');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.getByTestId('keys-table').waitFor();
      expect((await site.server.store.keys.list()).find((key) => key.name === 'Desk author')?.revokedAt).toBeNull();

      await page.goto(`${site.url}/admin/review/${heldId}`);
      await page.getByRole('heading', { name: 'Decide' }).waitFor();
      expect(await page.getByTestId('review-summary').innerText()).toMatch(/high\s*\d+/i);
      await expectStaffPage(page, js, 'Review');

      // The analytics page is in the navigation, and its charts and tables fit a phone too.
      await page.getByRole('navigation', { name: 'Staff area' }).getByRole('link', { name: 'Analytics' }).click();
      await page.waitForURL(/\/admin\/analytics$/);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectStaffPage(page, js, 'Analytics');
      await page.context().close();
    });
  });
}
