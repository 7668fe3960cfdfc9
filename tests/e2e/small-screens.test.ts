/**
 * The site on small screens, in real Chromium (issue 19):
 * - no public page is wider than the screen at 320, 375 and 768 px (JavaScript off; the two API pages,
 *   which are islands, also with the app running); a failure names the element that sticks out;
 * - at 375 x 812 the home page's quote button and call button, and /get-quote's phone number and quote
 *   form, are on the first screen, not under the header or the call bar;
 * - the call bar (Call <phone>, Get a quote) is fixed at the bottom on phones, covers nothing once the
 *   page is scrolled to its end, and is left out on /get-quote, the staff pages and desktop;
 * - comparison tables scroll inside their box under a hint, the feature column stays in place, feature
 *   names take at most three lines, and a range of figures never breaks inside.
 * (Full-page pictures for a person to look over are `npm run screenshots`, not a test.)
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { waitForHydration } from '../support/page';
import { startSeededServer, testSite } from '../support/site-fixture';

const paths = productPaths(DEFAULT_SITE_CONFIG);
const PHONE = DEFAULT_SITE_CONFIG.phoneDisplay;

/** Every public page. A demo post with a table stands for the posts. */
const PAGES = [
  { name: 'home', pagePath: '/' },
  { name: 'faq', pagePath: '/faq' },
  { name: 'guide', pagePath: paths.ultimateGuide },
  { name: 'about-us', pagePath: '/about-us' },
  { name: 'sep-comparison', pagePath: paths.sepComparison },
  { name: 'get-quote', pagePath: '/get-quote' },
  { name: 'get-quote-thank-you', pagePath: '/get-quote/thank-you' },
  { name: 'blog', pagePath: '/blog' },
  { name: 'blog-post', pagePath: '/blog/how-to-budget-for-an-iul-premium-you-can-keep-paying' },
  { name: 'blog-category', pagePath: '/blog/category/tax-benefits' },
  { name: 'legal', pagePath: '/legal' },
  { name: 'privacy-policy', pagePath: '/legal/privacy-policy' },
  { name: 'terms-of-service', pagePath: '/legal/terms-of-service' },
  { name: 'api-test-console', pagePath: '/api/test-console' },
  { name: 'api-usage-examples', pagePath: '/api/usage-examples' },
  { name: 'login', pagePath: '/login' },
  { name: 'not-found', pagePath: '/no-such-page' },
] as const;

const ISLANDS = ['/api/test-console', '/api/usage-examples'];
const WIDTHS = [320, 375, 768] as const;
const PHONE_SCREEN = { width: 375, height: 812 };

const site = testSite(() => startSeededServer());

/** A page without JavaScript at a given screen size (one context each, closed by the caller). */
async function openScreen(width: number, height = 812, javaScriptEnabled = false): Promise<Page> {
  const context = await site.newContext({ viewport: { width, height }, javaScriptEnabled });
  return context.newPage();
}

/** How far the page is wider than the screen, and the element that sticks out furthest (not counting
 * content that scrolls inside its own box). Every section is laid out first: the long pages lay out
 * a section only as it nears the screen (content-visibility), and one further down that sticks out
 * widens the page once the visitor gets there (on a phone the browser then zooms the page out). */
function overflowOf(page: Page): Promise<{ scrollWidth: number; innerWidth: number; widest: string }> {
  return page.evaluate(() => {
    const layOutAll = document.createElement('style');
    layOutAll.textContent = '* { content-visibility: visible !important; }';
    document.head.append(layOutAll);
    let widest = '';
    let furthest = window.innerWidth;
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const right = element.getBoundingClientRect().right;
      if (right <= furthest + 0.5) continue;
      // Inside a box that scrolls sideways, unless positioned by something outside it (visually hidden
      // text in a table cell whose box is not positioned hangs out of the box, widening the page).
      const escapes = element instanceof HTMLElement && ['absolute', 'fixed'].includes(getComputedStyle(element).position);
      const from = escapes ? (element.offsetParent as Element | null) : element.parentElement;
      let scrolled = false;
      for (let parent = from; parent && parent !== document.body; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX !== 'visible' && overflowX !== 'clip') scrolled = true;
      }
      if (scrolled) continue;
      furthest = right;
      const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      widest = `<${element.tagName.toLowerCase()}${classes}> right edge at ${Math.round(right)} px: "${(element.textContent ?? '').trim().slice(0, 60)}"`;
    }
    const found = { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest };
    layOutAll.remove();
    return found;
  });
}

function describeOverflow(pagePath: string, found: { scrollWidth: number; innerWidth: number; widest: string }): string {
  return `${pagePath} is ${found.scrollWidth} px wide on a ${found.innerWidth} px screen; widest: ${found.widest}`;
}

describe('no page is wider than the screen', () => {
  it.each(WIDTHS)('at %i px without JavaScript', async (width) => {
    const page = await openScreen(width);
    const problems: string[] = [];
    for (const { pagePath } of PAGES) {
      await page.goto(`${site.url}${pagePath}`);
      const found = await overflowOf(page);
      if (found.scrollWidth > found.innerWidth) problems.push(describeOverflow(pagePath, found));
    }
    await page.context().close();
    expect(problems).toEqual([]);
  });

  it('on the API pages with the app running, at each width', async () => {
    const page = await openScreen(WIDTHS[0], 812, true);
    const problems: string[] = [];
    for (const pagePath of ISLANDS) {
      await page.goto(`${site.url}${pagePath}`);
      await waitForHydration(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 812 });
        const found = await overflowOf(page);
        if (found.scrollWidth > found.innerWidth) problems.push(describeOverflow(`${pagePath} at ${width} px`, found));
      }
    }
    await page.context().close();
    expect(problems).toEqual([]);
  });
});

/** Where an element is on the screen, and whether a tap at its centre reaches it (nothing on top). */
function placeOf(page: Page, selector: string) {
  return page.locator(selector).first().evaluate((element) => {
    const box = element.getBoundingClientRect();
    const onTop = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const bar = document.querySelector('.call-bar');
    const barTop = bar && getComputedStyle(bar).display !== 'none' ? bar.getBoundingClientRect().top : window.innerHeight;
    return {
      top: box.top,
      bottom: box.bottom,
      barTop,
      reachable: onTop !== null && element.contains(onTop),
      text: (element.textContent ?? '').replace(/\s+/g, ' ').trim(),
    };
  });
}

describe('the first screen of a phone (375 x 812)', () => {
  it('shows the home page quote button and the call button with the number above the call bar', async () => {
    const page = await openScreen(PHONE_SCREEN.width, PHONE_SCREEN.height);
    await page.goto(`${site.url}/`);
    const quote = await placeOf(page, '#hero .hero-actions a[href="/get-quote"]');
    const call = await placeOf(page, '[data-testid="hero-mobile-call"]');
    for (const place of [quote, call]) {
      expect(place.top).toBeGreaterThanOrEqual(0);
      expect(place.bottom).toBeLessThanOrEqual(place.barTop);
      expect(place.reachable).toBe(true);
    }
    expect(quote.text).toBe('Get Your Free IUL Illustration');
    expect(call.text).toContain(PHONE);
    expect(call.barTop).toBeLessThan(PHONE_SCREEN.height);
    await page.context().close();
  });

  it('shows the phone number and the start of the quote form on /get-quote', async () => {
    const page = await openScreen(PHONE_SCREEN.width, PHONE_SCREEN.height);
    await page.goto(`${site.url}/get-quote`);
    const phone = await placeOf(page, '[data-testid="quote-intro-phone"] a[href^="tel:"]');
    const formHeading = await placeOf(page, '#request h2');
    const firstField = await placeOf(page, '#request .form-field input');
    for (const place of [phone, formHeading, firstField]) {
      expect(place.top).toBeGreaterThanOrEqual(0);
      expect(place.bottom).toBeLessThanOrEqual(PHONE_SCREEN.height);
      expect(place.reachable).toBe(true);
    }
    expect(phone.text).toBe(PHONE);
    await page.context().close();
  });
});

describe('the call bar', () => {
  it('sits at the bottom of a phone screen with a call link and a quote link, and covers nothing at the end of the page', async () => {
    const page = await openScreen(PHONE_SCREEN.width, PHONE_SCREEN.height);
    for (const pagePath of ['/', '/faq', '/no-such-page']) {
      await page.goto(`${site.url}${pagePath}`);
      const bar = page.getByTestId('call-bar');
      const box = await bar.boundingBox();
      expect(box && Math.round(box.y + box.height)).toBe(PHONE_SCREEN.height);
      const call = bar.locator('a[href^="tel:"]');
      expect(await call.getAttribute('href')).toBe(`tel:${DEFAULT_SITE_CONFIG.phoneE164}`);
      expect((await call.textContent())?.replace(/\s+/g, ' ').trim()).toBe(`Call ${PHONE}`);
      const number = call.locator('.phone-number');
      expect(await number.evaluate((span) => getComputedStyle(span).whiteSpace)).toBe('nowrap');
      expect(await number.evaluate((span) => span.getClientRects().length)).toBe(1);
      expect(await bar.locator('a[href="/get-quote"]').innerText()).toBe('Get a quote');

      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const end = await page.evaluate(() => {
        const texts = Array.from(document.querySelectorAll('footer *')).filter((element) => element.children.length === 0 && (element.textContent ?? '').trim() !== '');
        const last = texts[texts.length - 1];
        const bar = document.querySelector('.call-bar');
        if (!last || !bar) return { text: 'no footer or no bar', bottom: Infinity, barTop: 0, reachable: false };
        const lastBox = last.getBoundingClientRect();
        const onTop = document.elementFromPoint(lastBox.left + 1, lastBox.top + lastBox.height / 2);
        return { text: last.textContent, bottom: lastBox.bottom, barTop: bar.getBoundingClientRect().top, reachable: onTop !== null && last.contains(onTop) };
      });
      expect(end.bottom, `${pagePath}: the footer's last line ("${end.text}") ends under the bar`).toBeLessThanOrEqual(end.barTop);
      expect(end.reachable).toBe(true);
    }
    await page.context().close();
  });

  it('offers only the call after a request, and is left out on the quote form, the staff pages and desktop', async () => {
    const page = await openScreen(PHONE_SCREEN.width, PHONE_SCREEN.height);
    await page.goto(`${site.url}/get-quote/thank-you`);
    expect(await page.getByTestId('call-bar').locator('a').count()).toBe(1);
    expect(await page.getByTestId('call-bar').locator('a[href^="tel:"]').count()).toBe(1);
    for (const pagePath of ['/get-quote', '/login', '/admin/login']) {
      await page.goto(`${site.url}${pagePath}`);
      expect(await page.getByTestId('call-bar').count(), pagePath).toBe(0);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${site.url}/`);
    expect(await page.getByTestId('call-bar').isVisible()).toBe(false);
    await page.context().close();
  });
});

describe('comparison tables on a phone', () => {
  it.each([
    { pagePath: '/', testId: 'home-comparison' },
    { pagePath: paths.sepComparison, testId: 'sep-comparison-table' },
  ])('$testId scrolls in its box under a hint, with the feature column held in place', async ({ pagePath, testId }) => {
    const page = await openScreen(PHONE_SCREEN.width, PHONE_SCREEN.height);
    await page.goto(`${site.url}${pagePath}`);
    const table = page.getByTestId(testId);
    await table.scrollIntoViewIfNeeded();
    expect(await table.locator('.table-scroll-hint').isVisible()).toBe(true);
    const box = table.locator('.table-scroll');
    const feature = box.locator('tbody th').first();
    const cell = box.locator('tbody td').first();
    const before = { feature: (await feature.boundingBox())?.x, cell: (await cell.boundingBox())?.x };
    expect(await box.evaluate((scroller) => scroller.scrollWidth > scroller.clientWidth)).toBe(true);
    await box.evaluate((scroller) => scroller.scrollTo(200, 0));
    const after = { feature: (await feature.boundingBox())?.x, cell: (await cell.boundingBox())?.x };
    expect(after.feature).toBeDefined();
    expect(after.feature).toBe(before.feature);
    expect(after.cell).toBeLessThan(before.cell ?? 0);
    // Feature names are read in at most three lines.
    const lines = await box.locator('.row-toggle').evaluateAll((buttons) =>
      buttons.map((button) => Math.round(button.getBoundingClientRect().height / parseFloat(getComputedStyle(button).lineHeight))),
    );
    expect(Math.max(...lines)).toBeLessThanOrEqual(3);
    await page.context().close();
  });

  it('keeps a range of figures (8-12%) on one line', async () => {
    const page = await openScreen(320);
    await page.goto(`${site.url}/`);
    const figures = page.getByTestId('iul-vs-roth-table').locator('td .figure');
    expect(await figures.count()).toBeGreaterThan(0);
    const pieces = await figures.evaluateAll((spans) => spans.map((span) => `${span.textContent}: ${span.getClientRects().length}`));
    expect(pieces).toContain('8-12%: 1');
    expect(pieces.every((piece) => piece.endsWith(': 1'))).toBe(true);
    await page.context().close();
  });
});
