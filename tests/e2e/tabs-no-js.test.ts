/**
 * Tabs, the case selector and the header menu as plain HTML: the tabs are links to server-rendered
 * states (`/faq?tab=`, the guide's `?view=`, the home page's `?case=`), kept out of the page cache; with
 * JavaScript off each link shows its panel and the header menu opens at 375 px; with JavaScript on, a
 * tab tapped while the app is still held back shows at once (the page boot script) and stays chosen
 * once React is in charge.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { CASE_STUDIES } from '../../web/content/case-studies';
import { FAQ_CATEGORIES } from '../../web/content/faq';
import { holdApp, nextFrames } from '../support/page';
import { testSite } from '../support/site-fixture';

const GUIDE = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;

const site = testSite();

async function open(pagePath: string, options: { javaScript: boolean; width?: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await site.newContext({ javaScriptEnabled: options.javaScript, viewport: { width: options.width ?? 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${site.url}${pagePath}`);
  return { context, page };
}

/** The served page and its Cache-Control. */
async function served(pagePath: string): Promise<{ html: string; cacheControl: string | null }> {
  const res = await fetch(`${site.url}${pagePath}`);
  expect(res.status).toBe(200);
  return { html: await res.text(), cacheControl: res.headers.get('cache-control') };
}

/** The opening tags of the tab links in served HTML, in order, with whether each is selected. */
function servedTabs(html: string): Array<{ tabId: string; selected: boolean; href: string }> {
  return [...html.matchAll(/<a [^>]*role="tab"[^>]*>/g)].map(([tag]) => ({
    tabId: /data-tab-id="([^"]+)"/.exec(tag)?.[1] ?? '',
    selected: tag.includes('aria-selected="true"'),
    href: (/href="([^"]+)"/.exec(tag)?.[1] ?? '').replace(/&amp;/g, '&'),
  }));
}

/** The panel ids that are not hidden in served HTML. */
function shownPanels(html: string): string[] {
  return [...html.matchAll(/<div [^>]*role="tabpanel"[^>]*>/g)].filter(([tag]) => !/\shidden=""/.test(tag)).map(([tag]) => /data-tab-id="([^"]+)"/.exec(tag)?.[1] ?? '');
}

const selectedTabIds = (page: Page) =>
  page.locator('[role="tab"][aria-selected="true"]').evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('data-tab-id')));
const shownPanelIds = (page: Page) =>
  page.locator('[role="tabpanel"]:not([hidden])').evaluateAll((panels) => panels.map((panel) => panel.getAttribute('data-tab-id')));

describe('over HTTP', () => {
  it('/faq?tab=<id> renders that category chosen, kept out of the page cache; plain /faq stays cacheable', async () => {
    for (const category of FAQ_CATEGORIES) {
      const { html, cacheControl } = await served(`/faq?tab=${category.id}`);
      expect(servedTabs(html).filter((tab) => tab.selected).map((tab) => tab.tabId)).toEqual([category.id]);
      expect(shownPanels(html)).toEqual([category.id]);
      expect(cacheControl).toBe('no-store');
    }
    const plain = await served('/faq');
    expect(servedTabs(plain.html)).toEqual(FAQ_CATEGORIES.map((category, index) => ({ tabId: category.id, selected: index === 0, href: `?tab=${category.id}#faq-questions` })));
    expect(plain.cacheControl).toBe('no-cache');
  });

  it('falls back to the default for an unknown value, and keeps it out of the cache too', async () => {
    const faq = await served('/faq?tab=%3Cscript%3E');
    expect(shownPanels(faq.html)).toEqual(['general']);
    expect(faq.cacheControl).toBe('no-store');
    const guide = await served(`${GUIDE}?view=nope`);
    expect(shownPanels(guide.html)).toEqual(['list']);
  });

  it('renders the guide contents view and the case study the address names, not cached', async () => {
    const guide = await served(`${GUIDE}?view=table`);
    expect(shownPanels(guide.html)).toEqual(['table']);
    expect(guide.cacheControl).toBe('no-store');
    const home = await served('/?case=pre-retiree');
    expect(shownPanels(home.html)).toEqual(['pre-retiree']);
    expect(home.cacheControl).toBe('no-store');
    // A tab link carries only its own choice: the rest of the address is not echoed into every link.
    const both = await served('/?annualContribution=15000&case=business-owner');
    expect(servedTabs(both.html).map((tab) => tab.href)).toEqual(CASE_STUDIES.map((study) => `?case=${study.id}#case-studies`));
  });
});

describe('with JavaScript off', () => {
  it('/faq: each tab link shows its category, with ?tab= in the address', async () => {
    const { context, page } = await open('/faq', { javaScript: false });
    for (const category of [...FAQ_CATEGORIES].reverse()) {
      await page.getByRole('tab', { name: category.label }).click();
      await page.waitForURL((url) => url.searchParams.get('tab') === category.id);
      expect(await selectedTabIds(page)).toEqual([category.id]);
      const panel = page.locator('.faq-page [role="tabpanel"]:not([hidden])');
      expect(await panel.locator('summary').first().innerText()).toBe(category.items[0]?.question);
      expect(await panel.locator('summary').count()).toBe(category.items.length);
    }
    await context.close();
  });

  it('the guide: Table View shows the contents table, and its links are followable', async () => {
    const { context, page } = await open(GUIDE, { javaScript: false });
    expect(await page.getByTestId('contents-table').isVisible()).toBe(false);
    await page.getByRole('tab', { name: 'Table View' }).click();
    await page.waitForURL((url) => url.searchParams.get('view') === 'table' && url.hash === '#contents');
    expect(await page.getByTestId('contents-table').isVisible()).toBe(true);
    expect(await page.getByTestId('contents-list').isVisible()).toBe(false);
    await page.getByTestId('contents-table').getByRole('link').nth(1).click();
    await page.waitForURL(/#tax-advantages$/);
    await context.close();
  });

  it('the home page: each case study shows, with its chart named and its figures as text', async () => {
    const { context, page } = await open('/', { javaScript: false });
    for (const study of [...CASE_STUDIES].reverse()) {
      await page.locator('#case-studies').getByRole('tab', { name: study.title }).click();
      await page.waitForURL((url) => url.searchParams.get('case') === study.id);
      const shown = page.locator('[data-testid="case-detail"]:visible');
      expect(await shown.count()).toBe(1);
      expect(await shown.getAttribute('data-case-id')).toBe(study.id);
      const chart = shown.getByRole('img', { name: `${study.title}: projected results in bars` });
      expect(await chart.isVisible()).toBe(true);
      // The chart draws the study's own figures, and they are also text in the results list.
      const chartText = await chart.textContent();
      for (const result of study.results) {
        expect(chartText).toContain(result.value);
        expect(await shown.getByTestId('case-results').innerText()).toContain(result.value);
      }
      const widths = await chart.locator('rect').evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
      expect(widths).toHaveLength(study.results.length + 1);
      expect(Math.min(...widths)).toBeGreaterThan(0);
    }
    await context.close();
  });

  it('the header menu opens at 375 px and a link in it is followed', async () => {
    const { context, page } = await open('/', { javaScript: false, width: 375 });
    const nav = page.getByRole('navigation', { name: 'Main' });
    const faqLink = nav.getByRole('link', { name: 'FAQs' });
    expect(await faqLink.isVisible()).toBe(false);
    await nav.locator('summary', { hasText: 'Open menu' }).click();
    expect(await faqLink.isVisible()).toBe(true);
    expect(await nav.locator('summary').innerText()).toBe('Close menu');
    await faqLink.click();
    await page.waitForURL(`${site.url}/faq`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Frequently Asked Questions');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' }).isVisible()).toBe(false);
    await context.close();
  });
});

describe('with JavaScript on, tapped before the app has loaded', () => {
  /** Opens the page with the app's modules held back until `release` is called. */
  async function openHeld(pagePath: string): Promise<{ context: BrowserContext; page: Page; errors: string[]; release: () => void }> {
    const context = await site.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const release = await holdApp(page);
    await page.goto(`${site.url}${pagePath}`);
    return { context, page, errors, release };
  }
  const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');

  it.each([
    { pagePath: '/faq', name: 'Business Owner Questions', tabId: 'business', query: 'tab', then: 'Retirement Income & 401(k)', thenId: 'retirement' },
    { pagePath: GUIDE, name: 'Table View', tabId: 'table', query: 'view', then: 'List View', thenId: 'list' },
    { pagePath: '/', name: 'Pre-Retiree', tabId: 'pre-retiree', query: 'case', then: 'Business Owner', thenId: 'business-owner' },
  ])('$pagePath shows "$name" at once and keeps it once hydrated', async ({ pagePath, name, tabId, query, then, thenId }) => {
    const { context, page, errors, release } = await openHeld(pagePath);
    const scope = pagePath === '/' ? page.locator('#case-studies') : page.locator('main');
    await scope.getByRole('tab', { name }).click();
    // Shown by the page boot script while the app is still held back.
    expect(await isHydrated(page)).toBe(false);
    expect(await selectedTabIds(page)).toEqual([tabId]);
    expect(await shownPanelIds(page)).toEqual([tabId]);
    // The address follows once the frame showing the tab has been painted (decision 0039).
    await expect.poll(() => new URL(page.url()).searchParams.get(query)).toBe(tabId);
    expect(new URL(page.url()).pathname).toBe(pagePath);

    release();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    // What hydrating sets off (effects, a state React would put back) has run two frames later.
    await nextFrames(page);
    expect(await selectedTabIds(page)).toEqual([tabId]);
    expect(await shownPanelIds(page)).toEqual([tabId]);
    // React's state agrees: the next tab is chosen from there, without leaving the page.
    await scope.getByRole('tab', { name: then }).click();
    expect(await selectedTabIds(page)).toEqual([thenId]);
    expect(await shownPanelIds(page)).toEqual([thenId]);
    expect(new URL(page.url()).searchParams.get(query)).toBe(thenId);
    expect(await scope.getByRole('tab', { name: then }).getAttribute('tabindex')).toBe('0');
    expect(errors).toEqual([]);
    await context.close();
  });
});
