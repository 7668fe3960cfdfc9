/**
 * The calculator's chart in real Chromium: drawn by the server, so it is there with JavaScript off,
 * labelled as a projection, with its numbers in a table whose last year is the figures shown above it;
 * submitting the form without JavaScript draws it again for the new inputs, and with JavaScript it
 * follows the typing. At 320 px its labels stay readable and the page no wider than the screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calculateGrowth, formatDollars } from '../../web/content/calculator';
import { testSite } from '../support/site-fixture';
import { openPage, scrollToSection } from '../support/page';

const site = testSite();

const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? '').trim();
const line = (page: Page, series: string) => page.locator(`[data-testid="projection-line-${series}"]`).getAttribute('points');

/** The table's last row as [year, tax-free, taxable, contributions], read from the markup (no script needed). */
async function lastRow(page: Page): Promise<string[]> {
  return page.locator('[data-testid="projection-table"] tbody tr').last().locator('th, td').allTextContents();
}

describe('without JavaScript', () => {
  it('is in the page the server sends, labelled a projection, with its numbers as a table that opens', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/#calculator`);
    const chart = page.locator('[data-testid="projection-chart"]');
    await chart.scrollIntoViewIfNeeded();
    expect(await chart.isVisible()).toBe(true);

    // One image to assistive technology, named by the figure's caption and described by its summary.
    const image = chart.locator('[role="img"]');
    const title = await chart.locator('figcaption').textContent();
    expect(await page.getByRole('img', { name: title ?? 'missing' }).count()).toBe(1);
    const summaryId = (await image.getAttribute('aria-describedby')) ?? 'missing';
    expect(await page.locator(`[id="${summaryId}"]`).textContent()).toContain('$838,017');
    expect(await text(page, '[data-testid="projection-chart-note"]')).toContain('hypothetical projection at an assumed 6% a year');
    expect(await text(page, '[data-testid="projection-chart-note"]')).toContain('not guaranteed');
    expect(await image.innerText()).toContain('Balance in dollars');
    expect(await image.innerText()).toContain('Years from today');
    for (const series of ['taxFree', 'taxable', 'contributions']) expect(await line(page, series)).toMatch(/^0,100( [\d.]+,[\d.]+){30}$/);

    // The table's last year is exactly what the results above say.
    const table = page.locator('[data-testid="projection-table"]');
    expect(await table.isVisible()).toBe(false);
    await page.getByText('Show the numbers as a table').click();
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').count()).toBe(30);
    expect(await lastRow(page)).toEqual([
      '30',
      await text(page, '[data-testid="result-taxFree-balance"]'),
      await text(page, '[data-testid="result-taxable-keep"]'),
      await text(page, '[data-testid="result-total"]'),
    ]);
    expect(await lastRow(page)).toEqual(['30', '$838,017', '$585,348', '$300,000']);
    await context.close();
  });

  it('is drawn again by the server for the inputs the form sends', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    const before = await line(page, 'taxFree');
    await page.getByLabel('Number of years').fill('20');
    await page.getByLabel('Annual growth rate').fill('8');
    await Promise.all([page.waitForURL(/years=20/), page.getByRole('button', { name: 'Calculate' }).click()]);

    const after = await line(page, 'taxFree');
    expect(after).not.toBe(before);
    expect(after?.split(' ')).toHaveLength(21);
    expect(await text(page, '[data-testid="projection-chart-note"]')).toContain('assumed 8% a year');
    const expected = calculateGrowth({ annualContribution: 10_000, years: 20, annualRatePercent: 8, taxRatePercent: 33 });
    expect(await lastRow(page)).toEqual(['20', formatDollars(expected.taxFree.balance), formatDollars(expected.taxable.afterTax), '$200,000']);
    expect(await text(page, '[data-testid="projection-legend-taxFree"]')).toBe(await text(page, '[data-testid="result-taxFree-balance"]'));
    await context.close();
  });
});

describe('with JavaScript', () => {
  it('follows the inputs as the visitor types, and waits for valid values', async () => {
    const { context, page, errors } = await openPage(site, `${site.url}/`);
    await scrollToSection(page.locator('[data-testid="projection-chart"]'));
    const before = await line(page, 'taxable');
    await page.getByLabel('Income tax rate').fill('45');
    await expect.poll(() => line(page, 'taxable')).not.toBe(before);
    const expected = calculateGrowth({ annualContribution: 10_000, years: 30, annualRatePercent: 6, taxRatePercent: 45 });
    expect(await lastRow(page)).toEqual(['30', '$838,017', formatDollars(expected.taxable.afterTax), '$300,000']);
    expect(await text(page, '[data-testid="projection-legend-taxable"]')).toBe(formatDollars(expected.taxable.afterTax));
    // The tax-free line does not depend on the tax rate.
    expect(await line(page, 'taxFree')).not.toBeNull();

    await page.getByLabel('Number of years').fill('75');
    await expect.poll(() => page.locator('[data-testid="projection-chart"]').count()).toBe(0);
    expect(await text(page, '[data-testid="projection-chart-invalid"]')).toBe('Correct the highlighted values to see the chart.');
    await page.getByLabel('Number of years').fill('12');
    await expect.poll(async () => (await line(page, 'taxable'))?.split(' ').length).toBe(13);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('at 320 px', () => {
  it('keeps its labels at a readable size, inside the screen', async () => {
    const { context, page } = await openPage(site, `${site.url}/`, { width: 320, height: 700 });
    const chart = page.locator('[data-testid="projection-chart"]');
    await scrollToSection(chart);
    const box = await chart.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 320).toBe(true);
    const sizes = await chart
      .locator('.projection-y-ticks span, .projection-x-ticks span, .projection-axis-title')
      .evaluateAll((labels) => labels.map((label) => parseFloat(getComputedStyle(label).fontSize)));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // The open table scrolls in its own box; the page stays as wide as the screen.
    await page.getByText('Show the numbers as a table').click();
    expect(await page.locator('[data-testid="projection-table"]').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await context.close();
  });
});
