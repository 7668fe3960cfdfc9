/**
 * The home page's calculator in real Chromium. Without JavaScript it is a form the server answers:
 * change the inputs, press Calculate, read the new figures with the values kept, or the message next to
 * a wrong field. With JavaScript the figures follow the typing and Calculate (or Enter) keeps the page,
 * putting the inputs in the address to share. The button fits the layout at 375 and 1280 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calculateGrowth, formatDollars } from '../../web/content/calculator';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { openPage, scrollToSection } from '../support/page';

const site = testSite();

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 800 };

/** textContent: it needs no script in the page, and sections far below are not laid out until scrolled to. */
const result = async (page: Page, testId: string) => ((await page.locator(`[data-testid="${testId}"]`).textContent()) ?? '').trim();

async function openWithoutJavaScript(viewport = DESKTOP) {
  const context = await site.newContext({ viewport, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${site.url}/`);
  return { context, page };
}

describe('without JavaScript', () => {
  it('recalculates on the server when Calculate is pressed, keeping the values', async () => {
    const { context, page } = await openWithoutJavaScript();
    expect(await result(page, 'result-taxFree-keep')).toBe('$838,017');
    await page.getByLabel('Annual contribution').fill('15000');
    await page.getByLabel('Number of years').fill('20');
    await page.getByLabel('Income tax rate').fill('24');
    await Promise.all([page.waitForURL(/years=20/), page.getByRole('button', { name: 'Calculate' }).click()]);

    const url = new URL(page.url());
    expect(url.pathname).toBe('/');
    expect(url.hash).toBe('#calculator');
    const expected = calculateGrowth({ annualContribution: 15_000, years: 20, annualRatePercent: 6, taxRatePercent: 24 });
    expect(await result(page, 'result-taxFree-keep')).toBe(formatDollars(expected.taxFree.afterTax));
    expect(await result(page, 'result-taxable-keep')).toBe(formatDollars(expected.taxable.afterTax));
    expect(await result(page, 'result-taxDeferred-keep')).toBe(formatDollars(expected.taxDeferred.afterTax));
    expect(await result(page, 'result-total')).toBe('$300,000');
    expect(await page.getByLabel('Annual contribution').inputValue()).toBe('15000');
    expect(await page.getByLabel('Number of years').inputValue()).toBe('20');
    expect(await page.getByLabel('Annual growth rate').inputValue()).toBe('6');
    expect(await page.getByLabel('Income tax rate').inputValue()).toBe('24');
    await context.close();
  });

  it('shows the message next to an out-of-range field after Enter', async () => {
    const { context, page } = await openWithoutJavaScript(MOBILE);
    const years = page.getByLabel('Number of years');
    await years.fill('75');
    await Promise.all([page.waitForURL(/years=75/), years.press('Enter')]);
    const error = page.locator('[data-testid="calculator-error-years"]');
    expect(await error.textContent()).toBe('Number of years must be between 1 year and 60 years.');
    expect(await page.getByLabel('Number of years').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Number of years').getAttribute('aria-describedby')).toContain((await error.getAttribute('id')) ?? 'missing');
    expect(await page.getByLabel('Number of years').inputValue()).toBe('75');
    expect(await result(page, 'calculator-invalid')).toBe('Correct the highlighted value to see the results.');
    await context.close();
  });
});

describe('with JavaScript', () => {
  it('updates live, and Calculate or Enter keeps the page and puts the inputs in the address', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/`);
    await scrollToSection(page.locator('#calculator'));
    // A mark on the window: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { calculatorMark: true }));
    await page.getByLabel('Number of years').fill('25');
    const expected = calculateGrowth({ annualContribution: 10_000, years: 25, annualRatePercent: 6, taxRatePercent: 33 });
    expect(await result(page, 'result-taxFree-keep')).toBe(formatDollars(expected.taxFree.afterTax));

    await page.getByRole('button', { name: 'Calculate' }).click();
    await page.waitForURL(/years=25/);
    await page.getByLabel('Annual growth rate').fill('7');
    await page.getByLabel('Annual growth rate').press('Enter');
    await page.waitForURL(/annualRatePercent=7/);
    expect(await page.evaluate(() => (window as unknown as { calculatorMark?: boolean }).calculatorMark)).toBe(true);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ annualContribution: '10000', years: '25', annualRatePercent: '7', taxRatePercent: '33' });
    const changed = calculateGrowth({ annualContribution: 10_000, years: 25, annualRatePercent: 7, taxRatePercent: 33 });
    expect(await result(page, 'result-taxFree-keep')).toBe(formatDollars(changed.taxFree.afterTax));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('hydrates a page answered for inputs without errors, and axe finds nothing in its error state', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/?years=75#calculator`);
    expect(await page.getByLabel('Number of years').inputValue()).toBe('75');
    expect(await page.locator('[data-testid="calculator-error-years"]').isVisible()).toBe(true);
    // Still live after hydration: fixing the value brings the figures back.
    await page.getByLabel('Number of years').fill('30');
    expect(await result(page, 'result-taxFree-keep')).toBe('$838,017');
    await page.getByLabel('Number of years').fill('75');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('layout', () => {
  it.each([
    ['375 px', MOBILE],
    ['1280 px', DESKTOP],
  ])('shows Calculate as a site button inside the calculator at %s', async (_name, viewport) => {
    const { context, page } = await openPage(site, `${site.url}/`, viewport);
    const button = page.getByRole('button', { name: 'Calculate' });
    await button.scrollIntoViewIfNeeded();
    expect(await button.isVisible()).toBe(true);
    expect(await button.getAttribute('class')).toContain('button-primary');
    const box = await button.boundingBox();
    const calculator = await page.locator('[data-testid="calculator"]').boundingBox();
    expect(box && calculator).toBeTruthy();
    if (box && calculator) {
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.x).toBeGreaterThanOrEqual(calculator.x);
      expect(box.x + box.width).toBeLessThanOrEqual(calculator.x + calculator.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await context.close();
  });
});
