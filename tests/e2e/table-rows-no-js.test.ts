/**
 * The comparison tables' row explanations as plain HTML: with JavaScript off, choosing a row's feature
 * on the home page, the SEP comparison and the Ultimate Guide loads the page with that row chosen and
 * its explanation shown below the table (the address says which: `?compare=<row>`), choosing it again
 * shows none, and choosing another row replaces the first. With the app running the same links
 * toggle in place and keep the address in step, so a reload or a shared link shows the same row; a row
 * tapped before the app has loaded shows its explanation at once (the page boot script) and React
 * agrees once it takes over.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { HOME_COMPARISON_ROWS } from '../../web/content/comparisons';
import { IUL_VS_WHOLE_LIFE_ROWS } from '../../web/content/guide/comparisons';
import { sepComparisonContent } from '../../web/content/sep-comparison';
import { holdApp } from '../support/page';
import { testSite } from '../support/site-fixture';

const paths = productPaths(DEFAULT_SITE_CONFIG);

const site = testSite();

/** The text shown under the table `testId`: the chosen row's explanation, or the hint. */
async function shownExplanation(page: Page, testId: string): Promise<string> {
  // Not innerText: sections far down the page are rendered lazily (content-visibility), and innerText
  // of a part not yet rendered is empty.
  return page.getByTestId(`${testId}-explanation`).evaluate((panel) =>
    Array.from(panel.children)
      .filter((child) => !(child as HTMLElement).hidden)
      .map((child) => child.textContent ?? '')
      .join(' '),
  );
}

async function expandedRows(page: Page, testId: string): Promise<string[]> {
  return page.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((rows) =>
    rows.filter((row) => row.querySelector('.row-toggle')?.getAttribute('aria-expanded') === 'true').map((row) => row.getAttribute('data-row-id') ?? ''),
  );
}

function rowLink(page: Page, testId: string, feature: string) {
  return page.getByTestId(testId).getByRole('button', { name: feature, exact: true });
}

const TABLES = [
  { pagePath: '/', testId: 'home-comparison', name: 'compare', rows: HOME_COMPARISON_ROWS },
  { pagePath: paths.sepComparison, testId: 'sep-comparison-table', name: 'compare', rows: sepComparisonContent(DEFAULT_SITE_CONFIG).comparison.rows },
  { pagePath: paths.ultimateGuide, testId: 'guide-whole-life-table', name: 'vs-whole-life', rows: IUL_VS_WHOLE_LIFE_ROWS },
] as const;

describe('comparison table rows without JavaScript', () => {
  for (const { pagePath, testId, name, rows } of TABLES) {
    it(`choose a row, another, then the same again on ${pagePath}`, async () => {
      const context = await site.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${site.url}${pagePath}`);
      const [first, second] = rows;
      if (!first || !second) throw new Error(`${testId} needs two rows`);
      expect(await shownExplanation(page, testId)).toContain('Select a row');

      await Promise.all([page.waitForURL((url) => url.searchParams.get(name) === first.id), rowLink(page, testId, first.feature).click()]);
      expect(await expandedRows(page, testId)).toEqual([first.id]);
      expect(await shownExplanation(page, testId)).toContain(first.explanation);
      expect(new URL(page.url()).hash).toBe(`#${name}-explanation`);

      await Promise.all([page.waitForURL((url) => url.searchParams.get(name) === second.id), rowLink(page, testId, second.feature).click()]);
      expect(await expandedRows(page, testId)).toEqual([second.id]);
      const text = await shownExplanation(page, testId);
      expect(text).toContain(second.explanation);
      expect(text).not.toContain(first.explanation);

      await Promise.all([page.waitForURL((url) => !url.searchParams.has(name)), rowLink(page, testId, second.feature).click()]);
      expect(await expandedRows(page, testId)).toEqual([]);
      expect(await shownExplanation(page, testId)).toContain('Select a row');
      await context.close();
    });
  }

  it('keeps the chosen row in the address with the app running, so a reload shows it again', async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}${paths.sepComparison}`);
    const [, second] = sepComparisonContent(DEFAULT_SITE_CONFIG).comparison.rows;
    if (!second) throw new Error('the SEP comparison needs two rows');
    // The tap starts the app and shows the row at once, in the address too; the app takes it over.
    await rowLink(page, 'sep-comparison-table', second.feature).click();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect.poll(() => new URL(page.url()).searchParams.get('compare')).toBe(second.id);
    expect(await shownExplanation(page, 'sep-comparison-table')).toContain(second.explanation);
    await page.reload();
    expect(await expandedRows(page, 'sep-comparison-table')).toEqual([second.id]);
    expect(await shownExplanation(page, 'sep-comparison-table')).toContain(second.explanation);
    await context.close();
  });

  it('shows a row tapped before the app has loaded at once, and React agrees once it takes over', async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto(`${site.url}${paths.sepComparison}`);
    const [first, second] = sepComparisonContent(DEFAULT_SITE_CONFIG).comparison.rows;
    if (!first || !second) throw new Error('the SEP comparison needs two rows');
    await rowLink(page, 'sep-comparison-table', first.feature).click();
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).not.toBe('true');
    expect(await expandedRows(page, 'sep-comparison-table')).toEqual([first.id]);
    expect(await shownExplanation(page, 'sep-comparison-table')).toContain(first.explanation);

    release();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    await expect.poll(() => new URL(page.url()).searchParams.get('compare')).toBe(first.id);
    expect(await expandedRows(page, 'sep-comparison-table')).toEqual([first.id]);
    // The next tap is React's: from the row shown, to the other one.
    await rowLink(page, 'sep-comparison-table', second.feature).click();
    expect(await expandedRows(page, 'sep-comparison-table')).toEqual([second.id]);
    const text = await shownExplanation(page, 'sep-comparison-table');
    expect(text).toContain(second.explanation);
    expect(text).not.toContain(first.explanation);
    await context.close();
  });
});
