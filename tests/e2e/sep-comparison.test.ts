/**
 * The SEP IRA vs IUL page in real Chromium: 4 statistic tiles with the spec's figures, the comparison
 * table's row toggles (none at first, one at a time, again to close, keyboard), the hero's button to
 * /get-quote and link to the Ultimate Guide, the final call to action, and axe at 1280 and 375 px.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sepComparisonContent } from '../../web/content/sep-comparison';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { once, testSite } from '../support/site-fixture';
import { SEP_PAGE_FIGURES } from '../support/spec-figures';
import { type OpenedPage, openPage } from '../support/page';

const config = DEFAULT_SITE_CONFIG;
const paths = productPaths(config);
const content = sepComparisonContent(config);


const site = testSite();

function openSep(viewport = { width: 1280, height: 800 }): Promise<OpenedPage> {
  return openPage(site, `${site.url}${paths.sepComparison}`, viewport, { consoleErrors: false });
}

/** The page as loaded, shared by the tests that only read it. */
const loadedSep = once(() => openSep());

async function selectedRows(page: Page): Promise<string[]> {
  return page.locator('[data-testid="sep-comparison-table"] tr[data-selected="true"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id') ?? ''));
}

describe('SEP comparison page', () => {
  it('serves every spec figure of the page, and SEP IRA, in the raw HTML', async () => {
    const res = await fetch(`${site.url}${paths.sepComparison}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('SEP IRA');
    expect(html).toContain('SIMPLE IRA');
    for (const figure of SEP_PAGE_FIGURES) expect(html, figure).toContain(figure);
  });

  it('shows four statistic tiles with the SEP IRA limits, RMD age, 59½ and the IUL floor', async () => {
    const { page, errors } = await loadedSep();
    const tiles = page.getByTestId('sep-stat');
    expect(await tiles.count()).toBe(4);
    const text = (await tiles.allInnerTexts()).join('\n');
    for (const figure of ['$70,000', '25% of compensation or $70,000', '25% of pay or $66,000', '73', '59½', '10% penalty', '0-1%']) {
      expect(text, figure).toContain(figure);
    }
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('SEP IRA');
    expect(errors).toEqual([]);
  });

  it('explains the SEP IRA and the SIMPLE IRA, lists four reasons and when a SEP IRA may be better', async () => {
    const { page } = await loadedSep();
    expect(await page.getByRole('heading', { level: 2, name: content.explainer.heading }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { level: 3, name: 'And the SIMPLE IRA?' }).isVisible()).toBe(true);
    expect(await page.getByTestId('sep-reason').count()).toBe(4);
    expect(await page.getByTestId('sep-when').innerText()).toMatch(/deduction now/);
  });

  it('toggles the comparison rows: none at first, one at a time, again to close', async () => {
    const { context, page } = await openSep();
    const table = page.getByTestId('sep-comparison-table');
    const explanation = page.getByTestId('sep-comparison-table-explanation');
    const rows = content.comparison.rows;
    expect(await table.locator('tbody tr').count()).toBe(rows.length);
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['Feature', 'SEP IRA', config.productName]);
    expect(await selectedRows(page)).toEqual([]);
    expect(await explanation.innerText()).toContain('Select a row');

    const [first, second] = rows;
    if (!first || !second) throw new Error('the comparison needs at least two rows');
    const firstButton = table.getByRole('button', { name: first.feature });
    const secondButton = table.getByRole('button', { name: second.feature });

    await firstButton.click();
    expect(await selectedRows(page)).toEqual([first.id]);
    expect(await firstButton.getAttribute('aria-expanded')).toBe('true');
    expect(await explanation.innerText()).toContain(first.explanation);

    await secondButton.click();
    expect(await selectedRows(page)).toEqual([second.id]);
    expect(await firstButton.getAttribute('aria-expanded')).toBe('false');
    expect(await explanation.innerText()).toContain(second.explanation);
    expect(await explanation.innerText()).not.toContain(first.explanation);

    await secondButton.click();
    expect(await selectedRows(page)).toEqual([]);
    expect(await explanation.innerText()).toContain('Select a row');

    // Keyboard: a row is a real button.
    await firstButton.focus();
    await page.keyboard.press('Enter');
    expect(await selectedRows(page)).toEqual([first.id]);
    await page.keyboard.press('Space');
    expect(await selectedRows(page)).toEqual([]);
    await context.close();
  });

  it('sends the hero button to /get-quote', async () => {
    const { context, page } = await openSep();
    const button = page.getByTestId('sep-hero-quote');
    expect(await button.getAttribute('href')).toBe('/get-quote');
    await button.click();
    await page.waitForURL(`${site.url}/get-quote`);
    await context.close();
  });

  it('links the hero to the Ultimate Guide', async () => {
    const { context, page } = await openSep();
    const link = page.getByTestId('sep-guide-link');
    expect(await link.innerText()).toContain('Ultimate Guide');
    expect(await link.getAttribute('href')).toBe(paths.ultimateGuide);
    await link.click();
    await page.waitForURL(`${site.url}${paths.ultimateGuide}`);
    await context.close();
  });

  it('ends with a call to action to /get-quote and a phone call', async () => {
    const { page } = await loadedSep();
    const cta = page.locator('#sep-cta');
    expect(await cta.getByRole('heading', { level: 2 }).innerText()).toBe(content.cta.heading);
    const links = await cta.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links).toEqual(['/get-quote', `tel:${config.phoneE164}`]);
  });

  it('has no accessibility violations at 1280 and 375 px, also with a row open', async () => {
    const { context, page } = await openSep();
    expect(await axeViolations(page)).toEqual([]);
    const first = content.comparison.rows[0];
    if (!first) throw new Error('no rows');
    await page.getByTestId('sep-comparison-table').getByRole('button', { name: first.feature }).click();
    expect(await axeViolations(page), 'with a row open').toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axeViolations(page), 'at 375px').toEqual([]);
    await context.close();
  });
});
