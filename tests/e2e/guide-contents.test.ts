/**
 * The Ultimate Guide's contents beside the text, in real Chromium. At 1440 px it lists the guide's
 * sections and stays in view however far the page scrolls; its links are plain anchors, so they work
 * with JavaScript off; with JavaScript it marks the section being read (aria-current="location") and
 * shows how far through the guide the reader is. At 375 px it is not shown, and the contents section
 * at the top of the page remains.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { guideContents } from '../../web/content/guide/overview';
import { testSite } from '../support/site-fixture';
import { openPage } from '../support/page';

const GUIDE = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;
const ENTRIES = guideContents(DEFAULT_SITE_CONFIG);
const WIDE = { width: 1440, height: 900 };
const HEADER_HEIGHT = 72;

const site = testSite();

const sticky = (page: Page) => page.getByRole('navigation', { name: 'Guide sections' });

/** Whether the whole box is on screen below the fixed header. */
async function inView(locator: Locator, viewport: { height: number }): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.y >= HEADER_HEIGHT && box.y + box.height <= viewport.height;
}

describe('at 1440 px without JavaScript', () => {
  it('lists every section as a link that scrolls to it, and stays in view as the page scrolls', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: WIDE });
    const page = await context.newPage();
    await page.goto(`${site.url}${GUIDE}`);
    const nav = sticky(page);
    const links = nav.getByRole('link');
    expect(await links.allTextContents()).toEqual(ENTRIES.map((entry) => entry.title));
    const hrefs = [];
    for (let index = 0; index < ENTRIES.length; index += 1) hrefs.push(await links.nth(index).getAttribute('href'));
    expect(hrefs).toEqual(ENTRIES.map((entry) => `#${entry.id}`));
    expect(await nav.isVisible()).toBe(true);
    // Nothing marked before a script knows where the reader is, and no empty progress bar shown.
    expect(await nav.locator('[aria-current]').count()).toBe(0);
    expect(await page.getByTestId('sticky-contents-progress').isVisible()).toBe(false);

    for (const id of ['iul-vs-roth', 'common-questions', 'tax-advantages']) {
      await nav.locator(`a[href="#${id}"]`).click();
      await page.waitForURL(new RegExp(`#${id}$`));
      // Polled: sections laid out only near the viewport (content-visibility) may settle a frame later.
      await expect.poll(async () => (await page.locator(`#${id} h2`).boundingBox())?.y, { message: `#${id} at the top` }).toBeGreaterThanOrEqual(HEADER_HEIGHT);
      expect((await page.locator(`#${id} h2`).boundingBox())?.y, `#${id} at the top`).toBeLessThan(WIDE.height / 2);
      expect(await inView(nav, WIDE), `contents in view at #${id}`).toBe(true);
    }
    // At the end of the page it stops above the closing call to action instead of covering it.
    // Scrolled there again on each poll: sections laid out as they come near (content-visibility) make
    // the page longer. (The End key, focus on a link of this list, once left the page where it was
    // for 10 s with three test files at once on two cores: how the end is reached is not tested here.)
    await expect
      .poll(async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return (await page.locator('#guide-cta').boundingBox())?.y ?? WIDE.height;
      })
      .toBeLessThan(WIDE.height / 2);
    const [listBox, ctaBox] = await Promise.all([nav.boundingBox(), page.locator('#guide-cta').boundingBox()]);
    expect(listBox && ctaBox && listBox.y + listBox.height <= ctaBox.y).toBe(true);
    // Beside the text, not over it.
    const navBox = await nav.boundingBox();
    const text = await page.locator('#tax-advantages .container').boundingBox();
    expect(navBox && text && navBox.x >= text.x + text.width).toBe(true);
    await context.close();
  });
});

describe('at 1440 px with JavaScript', () => {
  it('marks the section in view and shows more progress further down', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}${GUIDE}`, WIDE);
    const nav = sticky(page);
    const current = () => nav.locator('a[aria-current="location"]').getAttribute('href', { timeout: 2_000 }).catch(() => null);
    const progress = async () => Number(await page.getByTestId('sticky-contents-progress').getAttribute('aria-valuenow'));

    await page.locator('#tax-advantages').evaluate((section) => section.scrollIntoView());
    await expect.poll(current).toBe('#tax-advantages');
    expect(await nav.locator('[aria-current]').count()).toBe(1);
    expect(await page.getByTestId('sticky-contents-progress').isVisible()).toBe(true);
    const early = await progress();

    await page.locator('#iul-vs-whole-life').evaluate((section) => section.scrollIntoView());
    await expect.poll(current).toBe('#iul-vs-whole-life');
    await expect.poll(progress).toBeGreaterThan(early);
    expect(await inView(nav, WIDE)).toBe(true);

    // Back at the top, above the first section, nothing is marked.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => nav.locator('[aria-current]').count()).toBe(0);
    expect(await progress()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('at 375 px', () => {
  it('is not shown; the contents section at the top remains', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    await page.goto(`${site.url}${GUIDE}`);
    expect(await page.getByTestId('sticky-contents').isVisible()).toBe(false);
    expect(await sticky(page).count()).toBe(0);
    expect(await page.locator('#contents').getByRole('link', { name: ENTRIES[1]?.title ?? 'missing' }).first().isVisible()).toBe(true);
    await context.close();
  });
});
