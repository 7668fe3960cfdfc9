/**
 * The FAQ accordions as plain HTML (`<details name>`/`<summary>`): with JavaScript off on /faq, / and the
 * Ultimate Guide a click on a question shows its answer, opening another closes the first, and clicking
 * the open one closes it; Enter and Space on a focused question do the same; and with JavaScript on, a
 * question tapped before the app has loaded opens at once and stays open when the app takes over.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { GENERAL_FAQS, GUIDE_FAQS } from '../../web/content/faq';
import { testSite } from '../support/site-fixture';

/** Each page with an accordion, where its questions live, and its questions in order. */
const PAGES = [
  { pagePath: '/faq', scope: '.faq-page [role="tabpanel"]:not([hidden])', faqs: GENERAL_FAQS, firstOpen: true },
  { pagePath: '/', scope: '#faq', faqs: GENERAL_FAQS, firstOpen: false },
  { pagePath: productPaths(DEFAULT_SITE_CONFIG).ultimateGuide, scope: '#common-questions', faqs: GUIDE_FAQS, firstOpen: false },
] as const;

const site = testSite();

async function openWithoutScript(pagePath: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${site.url}${pagePath}`);
  return { context, page };
}

function question(page: Page, scope: string, index: number): Locator {
  return page.locator(scope).locator('summary.accordion-summary').nth(index);
}

/** The answer text a visitor can see under question `index`; null when it is not shown. */
async function visibleAnswer(page: Page, scope: string, index: number): Promise<string | null> {
  const panel = page.locator(scope).locator('details.accordion-item').nth(index).locator('.accordion-panel');
  return (await panel.isVisible()) ? panel.innerText() : null;
}

async function visibleAnswerCount(page: Page, scope: string): Promise<number> {
  return page.locator(scope).locator('.accordion-panel:visible').count();
}

describe.each(PAGES)('$pagePath with JavaScript off', ({ pagePath, scope, faqs, firstOpen }) => {
  it('shows an answer when its question is clicked, one at a time, and hides it on a second click', async () => {
    const { context, page } = await openWithoutScript(pagePath);
    expect(await question(page, scope, 0).textContent()).toContain(faqs[0]?.question);
    expect(await visibleAnswerCount(page, scope)).toBe(firstOpen ? 1 : 0);

    await question(page, scope, 1).click();
    expect(await visibleAnswer(page, scope, 1)).toContain(faqs[1]?.answer.slice(0, 60));
    expect(await visibleAnswerCount(page, scope)).toBe(1);

    await question(page, scope, 3).click();
    expect(await visibleAnswer(page, scope, 1)).toBeNull();
    expect(await visibleAnswer(page, scope, 3)).toContain(faqs[3]?.answer.slice(0, 60));
    expect(await visibleAnswerCount(page, scope)).toBe(1);

    await question(page, scope, 3).click();
    expect(await visibleAnswerCount(page, scope)).toBe(0);
    await context.close();
  });

  it('opens and closes a focused question with Enter and Space', async () => {
    const { context, page } = await openWithoutScript(pagePath);
    await question(page, scope, 2).focus();
    await page.keyboard.press('Enter');
    expect(await visibleAnswer(page, scope, 2)).toContain(faqs[2]?.answer.slice(0, 60));
    await page.keyboard.press('Enter');
    expect(await visibleAnswer(page, scope, 2)).toBeNull();
    await page.keyboard.press('Space');
    expect(await visibleAnswer(page, scope, 2)).toContain(faqs[2]?.answer.slice(0, 60));
    await question(page, scope, 4).focus();
    await page.keyboard.press('Space');
    expect(await visibleAnswer(page, scope, 2)).toBeNull();
    expect(await visibleAnswer(page, scope, 4)).toContain(faqs[4]?.answer.slice(0, 60));
    await context.close();
  });

  it('keeps every question a heading in the page outline', async () => {
    const { context, page } = await openWithoutScript(pagePath);
    const headings = page.locator(scope).getByRole('heading', { level: 3 });
    expect(await headings.allTextContents()).toEqual(expect.arrayContaining([faqs[0]?.question, faqs[1]?.question]));
    expect(await page.locator(scope).locator('summary h3').count()).toBe(faqs.length);
    await context.close();
  });
});

describe('with JavaScript on, before the app has loaded', () => {
  it.each(PAGES.map((p) => [p.pagePath, p] as const))('%s opens a tapped question at once and keeps it open once hydrated', async (_, { pagePath, scope, faqs }) => {
    const context = await site.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${site.url}${pagePath}`);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull();
    await question(page, scope, 1).click();
    // Open as the click returns: the browser toggled it, nothing waited for the app.
    expect(await visibleAnswer(page, scope, 1)).toContain(faqs[1]?.answer.slice(0, 60));
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(await visibleAnswer(page, scope, 1)).toContain(faqs[1]?.answer.slice(0, 60));
    expect(await visibleAnswerCount(page, scope)).toBe(1);
    // After hydration the browser still owns the toggle: another question replaces it, a second click closes.
    await question(page, scope, 2).click();
    expect(await visibleAnswer(page, scope, 1)).toBeNull();
    await question(page, scope, 2).click();
    expect(await visibleAnswerCount(page, scope)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
