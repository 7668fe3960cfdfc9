/**
 * The JavaScript budget, and what keeps it: pages load no app JavaScript until the visitor interacts
 * (web/client/page-boot.ts, web/client/defer-hydration.ts): a tap, a click, a key or focus starts the
 * app, a scroll or a pointer passing over does not; and nothing the visitor does while the app loads is
 * lost (tests/e2e/no-replay.test.ts has the taps on tabs, rows, boxes and questions).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { QUOTE_REQUESTS_STORAGE_KEY } from '../../web/content/quote-requests';
import { describe, expect, it } from 'vitest';
import { DEFERRED_PRELOADS_ATTRIBUTE, DEFERRED_SCRIPT_TYPE } from '../../web/client/boot-contract';
import { holdApp, nextFrames } from '../support/page';
import { ROOT } from '../support/server';
import { startSeededServer, testSite } from '../support/site-fixture';

/** The budget for JavaScript the home page loads before any interaction, gzipped. */
const JS_BUDGET_BYTES = 100 * 1000;

// The home page as a visitor sees it, with the "Latest articles" strip filled.
const site = testSite(() => startSeededServer());

const gzipped = (text: string | Buffer): number => gzipSync(text, { level: 9 }).length;
const isHydrated = (page: Page) => page.evaluate(() => document.documentElement.dataset.hydrated === 'true');

/**
 * Lets `ms` of the page's time pass at once: every timer, animation frame and idle callback due within
 * it runs, then two frames are rendered, by which time a script the page meant to start in that time
 * has been requested. A test that checks nothing is loaded for a while asks for this instead of waiting
 * the while out; the context's clock is Playwright's (`clock.install()` before the page loads), which
 * otherwise runs at the real pace.
 */
async function letTimePass(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
  await nextFrames(page);
}

/** A new context whose page timers `letTimePass` can run ahead. */
async function contextWithClock(options: Parameters<typeof site.newContext>[0]): Promise<BrowserContext> {
  const context = await site.newContext(options);
  await context.clock.install();
  return context;
}

async function openUntouched(pagePath: string, viewport = { width: 375, height: 800 }) {
  const context = await contextWithClock({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${site.url}${pagePath}`, { waitUntil: 'networkidle' });
  return { context, page, errors, scripts };
}

/** Files of the production build, as the page names them (/assets/...). */
function buildFile(urlPath: string): Buffer {
  return readFileSync(path.join(ROOT, 'build/client', urlPath));
}

describe('JavaScript before the first interaction', () => {
  it('the home page stays within 100 KB gzipped, and the whole app arrives on the first interaction', async () => {
    const { context, page, errors, scripts } = await openUntouched('/');
    await letTimePass(page, 1000);
    const inline = await page.$$eval('script:not([src])', (elements) =>
      elements.filter((el) => !el.getAttribute('type') || el.getAttribute('type') === 'module').map((el) => el.textContent ?? ''),
    );
    const fetched = scripts.map((urlPath) => gzipped(buildFile(urlPath)));
    const before = inline.reduce((sum, text) => sum + gzipped(text), 0) + fetched.reduce((sum, size) => sum + size, 0);
    expect(scripts).toEqual([]);
    expect(before, `home page JavaScript before interaction: ${before} bytes gzipped`).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    expect(await isHydrated(page)).toBe(false);

    // What waits for the visitor is the real app: React Router's entry and route modules, from the build.
    const deferred = page.locator(`script[type="${DEFERRED_SCRIPT_TYPE}"]`);
    expect(await deferred.count()).toBe(1);
    const preloads = JSON.parse((await deferred.getAttribute(DEFERRED_PRELOADS_ATTRIBUTE)) ?? '[]') as string[];
    expect(preloads.some((href) => /\/assets\/entry\.client-[\w-]+\.js$/.test(href))).toBe(true);
    const app = preloads.reduce((sum, href) => sum + gzipped(buildFile(href)), 0);
    expect(app).toBeGreaterThan(JS_BUDGET_BYTES);

    // A pointer passing over and a scroll are not a use of the page: still nothing is loaded.
    await page.mouse.move(200, 300);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => window.scrollY > 0);
    await letTimePass(page, 500);
    expect(scripts).toEqual([]);
    // A click on the page's text is.
    await page.getByRole('heading', { level: 1 }).click();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    for (const href of preloads) expect(scripts).toContain(href);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(['/faq', '/get-quote', '/api/usage-examples', '/blog'])('%s loads no script file before the first interaction', async (pagePath) => {
    const { context, page, scripts } = await openUntouched(pagePath, { width: 1280, height: 800 });
    await letTimePass(page, 500);
    expect(scripts).toEqual([]);
    expect(await isHydrated(page)).toBe(false);
    await context.close();
  });
});

describe('on a phone', () => {
  /** A finger drawn up the screen: the page scrolls, and the browser cancels the touch (no tap, no click). */
  async function swipe(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    const at = (y: number) => [{ x: 180, y }];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(500) });
    for (let step = 1; step <= 6; step++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(500 - step * 30) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  it('scrolling loads nothing; the first tap starts the app, which then seeds the sample quote requests', async () => {
    const context = await contextWithClock({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${site.url}/`, { waitUntil: 'networkidle' });
    await swipe(page);
    await page.waitForFunction(() => window.scrollY > 0);
    await letTimePass(page, 800);
    expect(scripts).toEqual([]);
    expect(await isHydrated(page)).toBe(false);
    expect(await page.evaluate((storageKey) => localStorage.getItem(storageKey), QUOTE_REQUESTS_STORAGE_KEY)).toBeNull();

    await page.getByRole('heading', { level: 2 }).first().tap();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(scripts.length).toBeGreaterThan(0);
    const seeded = await page.evaluate((storageKey) => JSON.parse(localStorage.getItem(storageKey) ?? '[]') as Array<{ annualContribution: number }>, QUOTE_REQUESTS_STORAGE_KEY);
    expect(seeded.map((request) => request.annualContribution)).toEqual([10000, 15000]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a case study tapped while the app starts is shown at once, and stays chosen once the app is in charge', async () => {
    const context = await site.newContext({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}/`);
    const tabs = page.locator('#case-studies').getByRole('tab');
    await tabs.nth(1).scrollIntoViewIfNeeded();
    await swipe(page);
    // The first tap starts the app; the second lands while it loads, runs and hydrates.
    await page.locator('#case-studies h2').tap();
    await tabs.nth(1).tap();
    const chosen = () => tabs.evaluateAll((all) => all.map((tab) => tab.getAttribute('aria-selected')));
    const shownPanels = () => page.locator('#case-studies [role="tabpanel"]:not([hidden])').count();
    expect(await chosen()).toEqual(['false', 'true', 'false']);
    expect(await shownPanels()).toBe(1);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    // What hydrating sets off (effects, a state React would put back) has run two frames later.
    await nextFrames(page);
    expect(await chosen()).toEqual(['false', 'true', 'false']);
    // React agrees: the third tab is chosen from there, in the page.
    await tabs.nth(2).tap();
    expect(await chosen()).toEqual(['false', 'false', 'true']);
    expect(await shownPanels()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('what the visitor does while the app loads', () => {
  it.each(['/', '/no-such-page'])('on %s, a tap on the menu button opens the menu at once, and it stays open once the app is in charge', async (pagePath) => {
    const { context, page, errors } = await openUntouched(pagePath);
    expect(await isHydrated(page)).toBe(false);
    const toggle = page.locator('summary[aria-controls="main-menu"]');
    const menuOpen = () => toggle.evaluate((el) => (el.parentElement as HTMLDetailsElement).open);
    expect(await toggle.innerText()).toBe('Open menu');
    await toggle.click();
    expect(await menuOpen()).toBe(true);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await menuOpen()).toBe(true);
    expect(await toggle.innerText()).toBe('Close menu');
    expect(await page.locator('#main-menu').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a figure typed into the calculator before the app has loaded stays, and the app computes with it', async () => {
    const { context, page, errors } = await openUntouched('/', { width: 1280, height: 800 });
    const release = await holdApp(page);
    const contribution = page.getByTestId('calculator-annualContribution');
    await contribution.fill('20000');
    release();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await contribution.inputValue()).toBe('20000');
    // 30 years of $20,000, computed by the app from the figure it found in the field.
    expect(await page.getByTestId('result-total').innerText()).toBe('$600,000');
    // And it follows the next figure typed.
    await contribution.fill('10000');
    await expect.poll(() => page.getByTestId('result-total').innerText()).toBe('$300,000');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Enter in the calculator before the app has loaded sends the form, and the page shows the figure', async () => {
    const { context, page } = await openUntouched('/', { width: 1280, height: 800 });
    await holdApp(page);
    const contribution = page.getByTestId('calculator-annualContribution');
    await contribution.fill('20000');
    await contribution.press('Enter');
    // Sent as a plain form (GET /?annualContribution=...#calculator), answered by the server.
    await page.waitForURL((url) => url.searchParams.get('annualContribution') === '20000');
    expect(await page.getByTestId('result-total').innerText()).toBe('$600,000');
    expect(await page.getByTestId('calculator-annualContribution').inputValue()).toBe('20000');
    await context.close();
  });

  it('links work as plain links before the app loads', async () => {
    const { context, page } = await openUntouched('/', { width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL(`${site.url}/faq`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Frequently Asked Questions');
    await context.close();
  });
});
