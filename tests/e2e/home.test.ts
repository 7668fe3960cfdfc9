/**
 * The home page in real Chromium: server-rendered text and figures, the section order, the hero
 * videos per screen size (and no third-party request before a click), every table toggle, the case
 * selector, the FAQ accordion and its links to /faq, the calculator, keyboard use and axe.
 */
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { calculateGrowth, formatDollars } from '../../web/content/calculator';
import { GENERAL_FAQS } from '../../web/content/faq';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { once, testSite } from '../support/site-fixture';
import { HOME_SECTION_IDS } from '../../web/content/home';
import { HOME_SPEC_FIGURES } from '../support/spec-figures';
import { nextFrames, type OpenedPage, scrollToSection, waitForHydration } from '../support/page';

const site = testSite();

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 375, height: 800 };

/** Every figure SPEC sections 1, 2 and 9 quote for the home page, as the spec writes it. */
const SPEC_FIGURES = [
  ...HOME_SPEC_FIGURES,
  // Labels the visitor reads next to the figures.
  'Annual Tax-Free Income',
  'Market Loss Risk',
  'Tax-Free Growth',
  'Access to Funds',
  'Unknown',
  'Start early',
  'Increase returns',
  'Eliminate taxes',
  'age 73',
  'Early Career Professional',
  'Business Owner',
  'Pre-Retiree',
  'Perfect For You If',
  'May Not Be Ideal If',
  'Standard versus Max Funded',
  'Living Benefits',
];

/** The home page in a fresh context, hydrated: for a test that clicks, types or resizes. */
function openHome(viewport = DESKTOP): Promise<OpenedPage> {
  return site.open('/', viewport);
}

/**
 * The home page as loaded, at 1280 and at 375 px, each shared by the tests that only read it (and
 * scroll, as a reader does): a load and hydration each instead of one per test. A test that changes
 * anything on the page opens its own.
 */
const loadedHome = once(() => openHome(DESKTOP));
const loadedPhoneHome = once(() => openHome(MOBILE));

async function selectedRows(page: Page, testId: string): Promise<string[]> {
  return page.locator(`[data-testid="${testId}"] tbody tr[data-selected="true"]`).evaluateAll((rows) =>
    rows.map((row) => row.getAttribute('data-row-id') ?? ''),
  );
}

function rowButton(page: Page, testId: string, rowId: string) {
  return page.locator(`[data-testid="${testId}"] tr[data-row-id="${rowId}"] .row-toggle`);
}

describe('server-rendered HTML', () => {
  it('has every spec figure, the 19 FAQ questions and the head, before any JavaScript runs', async () => {
    const context = await site.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const figure of SPEC_FIGURES) expect(text, figure).toContain(figure);
    for (const faq of GENERAL_FAQS) expect(text, faq.question).toContain(faq.question);
    expect(text).toContain('Tax-Free Retirement');
    expect(text).toContain(DEFAULT_SITE_CONFIG.productName);

    const title = await page.title();
    expect(title).toContain('Tax-Free Retirement');
    expect(title).toContain(DEFAULT_SITE_CONFIG.productName);
    const description = (await page.locator('meta[name="description"]').getAttribute('content')) ?? '';
    expect(description.length).toBeGreaterThanOrEqual(15);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(await page.locator('h1').count()).toBe(1);
    // The calculator's first result is in the HTML too.
    expect(await page.locator('[data-testid="result-taxFree-keep"]').textContent()).toBe('$838,017');
    await context.close();
  });
});

describe('page structure', () => {
  it('has every section, in the spec order', async () => {
    const { page, errors } = await loadedHome();
    const ids = await page.evaluate((wanted) => {
      const all = Array.from(document.querySelectorAll('main [id]')).map((el) => el.id);
      return all.filter((id) => wanted.includes(id));
    }, [...HOME_SECTION_IDS] as string[]);
    expect(ids).toEqual(HOME_SECTION_IDS);
    expect(errors).toEqual([]);
  });

  it('shows the four hero claims and the illustration button', async () => {
    const { page } = await loadedHome();
    const claims = await page.locator('[data-testid="hero-claims"] li').allInnerTexts();
    expect(claims.map((c) => c.replace(/\s+/g, ' ').trim().toLowerCase())).toEqual([
      '$200k+ annual tax-free income',
      '0% market loss risk',
      '100% tax-free growth',
      '24/7 access to funds',
    ]);
    const cta = page.locator('#hero').getByRole('link', { name: 'Get Your Free IUL Illustration' });
    expect(await cta.getAttribute('href')).toBe('/get-quote');
  });

  it('shows four numbered headline benefits, six benefit cards and four bucket columns', async () => {
    const { page } = await loadedHome();
    expect(await page.locator('#benefits [data-testid="headline-benefits"] > li').count()).toBe(4);
    expect(await page.locator('#benefits [data-testid="benefit-cards"] > li').count()).toBe(6);
    expect(await page.locator('#three-buckets [data-testid="bucket-columns"] > li').count()).toBe(4);
    const fit = page.locator('#right-for-you');
    expect(await fit.getByRole('link', { name: 'Request My Free Illustration' }).getAttribute('href')).toBe('/get-quote');
    expect(await fit.locator('a[href^="tel:"]').getAttribute('href')).toBe(`tel:${DEFAULT_SITE_CONFIG.phoneE164}`);
  });
});

describe('hero videos', () => {
  it('shows the portrait player on desktop and the landscape player and call button on mobile', async () => {
    // The players are switched by CSS at the page's width: the page as loaded at 1280 px, then at 375 px.
    const desktopHome = (await loadedHome()).page;
    const desktop = desktopHome.locator('[data-testid="hero-video-desktop"]');
    expect(await desktop.isVisible()).toBe(true);
    expect(await desktopHome.locator('[data-testid="hero-video-mobile"]').isVisible()).toBe(false);
    expect(await desktopHome.locator('[data-testid="hero-mobile-call"]').isVisible()).toBe(false);
    const portrait = await desktop.locator('.video-facade').boundingBox();
    expect(portrait && portrait.height / portrait.width).toBeCloseTo(1.7778, 2);

    const phoneHome = (await loadedPhoneHome()).page;
    const mobile = phoneHome.locator('[data-testid="hero-video-mobile"]');
    const call = phoneHome.locator('[data-testid="hero-mobile-call"]');
    expect(await phoneHome.locator('[data-testid="hero-video-desktop"]').isVisible()).toBe(false);
    expect(await mobile.isVisible()).toBe(true);
    expect(await call.isVisible()).toBe(true);
    expect(await call.innerText()).toContain('Questions? Call Now');
    expect(await call.getAttribute('href')).toBe(`tel:${DEFAULT_SITE_CONFIG.phoneE164}`);
    const landscape = await mobile.locator('.video-facade').boundingBox();
    expect(landscape && landscape.height / landscape.width).toBeCloseTo(0.6667, 2);
  });

  it('makes no third-party request until the poster is clicked, then inserts the player', async () => {
    const context = await site.newContext({ viewport: DESKTOP });
    const requests: string[] = [];
    context.on('request', (request: Request) => requests.push(request.url()));
    // Nothing may reach the internet from the test: third-party requests are recorded, then refused.
    await context.route(
      (url) => url.origin !== new URL(site.url).origin,
      (route) => route.abort(),
    );
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    const origin = new URL(site.url).origin;
    const external = (urls: string[]) => urls.filter((url) => /^https?:/.test(url) && new URL(url).origin !== origin);
    expect(external(requests)).toEqual([]);
    expect(await page.locator('#hero iframe').count()).toBe(0);

    const poster = page.locator('[data-testid="hero-video-desktop"]').getByRole('link', { name: /^Play video: / });
    // A link to the video's own page, for a visitor without JavaScript; a plain click plays it here.
    expect(await poster.getAttribute('href')).toBe(`https://www.youtube.com/watch?v=${DEFAULT_SITE_CONFIG.heroVideoPortraitId}`);
    await poster.click();
    const iframe = page.locator('[data-testid="hero-video-desktop"] iframe');
    await iframe.waitFor();
    const src = (await iframe.getAttribute('src')) ?? '';
    expect(src.startsWith(`${DEFAULT_SITE_CONFIG.videoHost}/embed/${DEFAULT_SITE_CONFIG.heroVideoPortraitId}`)).toBe(true);
    await expect.poll(() => external(requests).some((url) => url.startsWith(DEFAULT_SITE_CONFIG.videoHost))).toBe(true);
    // The other (mobile) player is still only a poster.
    expect(await page.locator('[data-testid="hero-video-mobile"] iframe').count()).toBe(0);
    await context.close();
  });
});

describe('home comparison table', () => {
  it('has 14 rows (8, the living-benefits category and its 5 sub-rows) and 6 products', async () => {
    const { page } = await loadedHome();
    const table = page.locator('[data-testid="home-comparison"]');
    await scrollToSection(table);
    expect(await table.locator('tbody tr').count()).toBe(14);
    expect(await table.locator('thead th').allInnerTexts()).toEqual([
      'Feature',
      'IUL',
      '401(k)',
      'Traditional IRA',
      'Roth IRA',
      'SEP IRA',
      'Investment Portfolio',
    ]);
    expect(await table.locator('tbody tr.row-category').count()).toBe(1);
    expect(await table.locator('tbody tr.row-category').getAttribute('data-row-id')).toBe('living-benefits');
    expect(await table.locator('tbody tr.row-sub').count()).toBe(5);
    expect(await table.locator('tbody .mark').count()).toBe(14 * 6);
    // Sub-rows are indented beyond the main rows.
    const indent = async (rowId: string) =>
      table.locator(`tr[data-row-id="${rowId}"] th`).evaluate((th) => parseFloat(getComputedStyle(th).paddingLeft));
    expect(await indent('critical-illness')).toBeGreaterThan(await indent('tax-free-growth'));
  });

  it('selects a row and explains it below, and deselects it on a second click', async () => {
    const { context, page } = await openHome();
    const explanation = page.locator('[data-testid="home-comparison-explanation"]');
    expect(await selectedRows(page, 'home-comparison')).toEqual([]);
    await rowButton(page, 'home-comparison', 'market-downside-protection').click();
    expect(await selectedRows(page, 'home-comparison')).toEqual(['market-downside-protection']);
    expect(await explanation.innerText()).toContain('Market downside protection');
    expect(await explanation.innerText()).toContain('typically 0-1%');
    await rowButton(page, 'home-comparison', 'chronic-illness').click();
    expect(await selectedRows(page, 'home-comparison')).toEqual(['chronic-illness']);
    await rowButton(page, 'home-comparison', 'chronic-illness').click();
    expect(await selectedRows(page, 'home-comparison')).toEqual([]);
    expect(await explanation.innerText()).toContain('Select a row');
    await context.close();
  });

  it('works from the keyboard', async () => {
    const { context, page } = await openHome();
    await rowButton(page, 'home-comparison', 'tax-free-growth').focus();
    await page.keyboard.press('Enter');
    expect(await selectedRows(page, 'home-comparison')).toEqual(['tax-free-growth']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    expect(await selectedRows(page, 'home-comparison')).toEqual(['no-income-limits']);
    await page.keyboard.press('Space');
    expect(await selectedRows(page, 'home-comparison')).toEqual([]);
    await context.close();
  });
});

describe('IUL vs Roth and IUL vs 401(k)', () => {
  const tables = [
    { testId: 'iul-vs-roth-table', section: 'iul-vs-roth', rows: 8, first: 'contributions', second: 'income-limits', text: '$146,000' },
    { testId: 'iul-vs-401k-table', section: 'iul-vs-401k', rows: 10, first: 'contributions', second: 'rmds', text: 'age 73' },
  ];

  it.each(tables)('$section: none open at first, click opens, another switches, again closes', async (t) => {
    const { context, page } = await openHome();
    const table = page.locator(`#${t.section} [data-testid="${t.testId}"]`);
    expect(await table.locator('tbody tr').count()).toBe(t.rows);
    expect(await selectedRows(page, t.testId)).toEqual([]);
    expect(await table.locator('button[aria-expanded="true"]').count()).toBe(0);

    await rowButton(page, t.testId, t.first).click();
    expect(await selectedRows(page, t.testId)).toEqual([t.first]);
    expect(await rowButton(page, t.testId, t.first).getAttribute('aria-expanded')).toBe('true');

    await rowButton(page, t.testId, t.second).click();
    expect(await selectedRows(page, t.testId)).toEqual([t.second]);
    expect(await rowButton(page, t.testId, t.first).getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator(`[data-testid="${t.testId}-explanation"]`).innerText()).toContain(t.text);

    await rowButton(page, t.testId, t.second).click();
    expect(await selectedRows(page, t.testId)).toEqual([]);
    await context.close();
  });

  it('works from the keyboard', async () => {
    const { context, page } = await openHome();
    await rowButton(page, 'iul-vs-401k-table', 'employer-match').focus();
    await page.keyboard.press('Enter');
    expect(await selectedRows(page, 'iul-vs-401k-table')).toEqual(['employer-match']);
    await page.keyboard.press('Enter');
    expect(await selectedRows(page, 'iul-vs-401k-table')).toEqual([]);
    await context.close();
  });
});

describe('case studies', () => {
  const visibleCase = (page: Page) => page.locator('[data-testid="case-detail"]:visible');

  it('shows the first case by default and switches on click, with the spec figures', async () => {
    const { context, page } = await openHome();
    const buttons = page.locator('[data-testid="case-selector"] [role="tab"]');
    await scrollToSection(page.locator('#case-studies'));
    expect(await buttons.allInnerTexts()).toEqual([
      expect.stringContaining('Early Career Professional'),
      expect.stringContaining('Business Owner'),
      expect.stringContaining('Pre-Retiree'),
    ]);
    expect(await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual(['true', 'false', 'false']);
    expect(await visibleCase(page).count()).toBe(1);
    let text = await visibleCase(page).innerText();
    for (const figure of ['Age 35', '$25,000 a year', '$2,496,000', '$230,000', '$6,900,000', '$3,000,000', 'Hypothetical projection, not a guarantee']) {
      expect(text).toContain(figure);
    }
    for (const heading of ['Profile', 'Strategy', 'Projected results', 'Benefits']) expect(text).toContain(heading);

    await buttons.nth(1).click();
    expect(await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual(['false', 'true', 'false']);
    text = await visibleCase(page).innerText();
    for (const figure of ['Age 45', '$30,000 a year', '$2,850,000', '$229,000', '$5,725,000', '$950,000']) expect(text).toContain(figure);
    expect(text).not.toContain('$2,496,000');

    await buttons.nth(2).click();
    text = await visibleCase(page).innerText();
    for (const figure of ['Age 55', '$50,000 a year for 10 years', '$730,000', '$58,000', '$1,160,000', '$350,000']) expect(text).toContain(figure);
    expect(await visibleCase(page).getAttribute('data-case-id')).toBe('pre-retiree');
    await context.close();
  });

  it('is operated from the keyboard', async () => {
    const { context, page } = await openHome();
    const buttons = page.locator('[data-testid="case-selector"] [role="tab"]');
    // Tabs: the arrow keys move and choose, Home and End go to the ends (roving tabindex).
    await buttons.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    expect(await visibleCase(page).getAttribute('data-case-id')).toBe('business-owner');
    await page.keyboard.press('End');
    expect(await visibleCase(page).getAttribute('data-case-id')).toBe('pre-retiree');
    await page.keyboard.press('ArrowRight');
    expect(await visibleCase(page).getAttribute('data-case-id')).toBe('early-career');
    expect(await buttons.nth(0).getAttribute('aria-selected')).toBe('true');
    expect(await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('tabindex')))).toEqual(['0', '-1', '-1']);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-tab-id'))).toBe('early-career');
    await context.close();
  });
});

describe('FAQ section', () => {
  it('has 19 questions with one answer open at a time', async () => {
    const { context, page } = await openHome();
    const faq = page.locator('#faq');
    await scrollToSection(faq);
    const buttons = faq.locator('.accordion-summary');
    expect(await buttons.count()).toBe(19);
    expect(await buttons.allInnerTexts()).toEqual(GENERAL_FAQS.map((f) => expect.stringContaining(f.question)));
    const openPanels = () => faq.locator('.accordion-panel:visible').count();
    const isOpen = (index: number) => faq.locator('details.accordion-item').nth(index).evaluate((d) => (d as HTMLDetailsElement).open);
    expect(await openPanels()).toBe(0);
    await buttons.nth(0).click();
    expect(await openPanels()).toBe(1);
    expect(await isOpen(0)).toBe(true);
    await buttons.nth(4).click();
    expect(await openPanels()).toBe(1);
    expect(await isOpen(0)).toBe(false);
    expect(await isOpen(4)).toBe(true);
    await buttons.nth(4).click();
    expect(await openPanels()).toBe(0);
    await context.close();
  });

  it.each(['view-all-faq-button', 'see-more-faq-button'])('%s opens /faq at the top of the page', async (testId) => {
    const { context, page } = await openHome();
    const link = page.locator(`[data-testid="${testId}"]`);
    expect(await link.getAttribute('href')).toBe('/faq');
    await link.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await link.click();
    await page.waitForURL(`${site.url}/faq`);
    await page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' }).waitFor();
    await nextFrames(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });
});

describe('calculator', () => {
  it('shows $838,017 with the defaults and recalculates when inputs change', async () => {
    const { context, page } = await openHome();
    const results = page.locator('[data-testid="calculator-results"]');
    await scrollToSection(page.locator('#calculator'));
    expect(await results.getAttribute('aria-live')).toBe('polite');
    const value = (id: string) => page.locator(`[data-testid="${id}"]`).innerText();
    expect(await page.getByLabel('Annual contribution').inputValue()).toBe('10000');
    expect(await page.getByLabel('Number of years').inputValue()).toBe('30');
    expect(await page.getByLabel('Annual growth rate').inputValue()).toBe('6');
    expect(await value('result-taxFree-keep')).toBe('$838,017');
    const defaults = calculateGrowth({ annualContribution: 10_000, years: 30, annualRatePercent: 6, taxRatePercent: 33 });
    expect(await value('result-taxable-keep')).toBe(formatDollars(defaults.taxable.afterTax));
    expect(await value('result-taxDeferred-keep')).toBe(formatDollars(defaults.taxDeferred.afterTax));

    await page.getByLabel('Number of years').fill('20');
    await page.getByLabel('Annual contribution').fill('15000');
    await page.getByLabel('Income tax rate').fill('24');
    const changed = calculateGrowth({ annualContribution: 15_000, years: 20, annualRatePercent: 6, taxRatePercent: 24 });
    expect(await value('result-taxFree-keep')).toBe(formatDollars(changed.taxFree.afterTax));
    expect(await value('result-taxable-keep')).toBe(formatDollars(changed.taxable.afterTax));
    expect(await value('result-taxDeferred-keep')).toBe(formatDollars(changed.taxDeferred.afterTax));
    expect(await value('result-taxFree-keep')).not.toBe('$838,017');
    expect(await value('result-total')).toBe('$300,000');

    // The page states the formula, the assumptions and why the quoted illustrations can differ.
    expect(await page.locator('[data-testid="calculator-formula"]').innerText()).toContain('(1 + r)');
    expect(await page.locator('[data-testid="calculator-note"]').innerText()).toContain('different figures');
    await context.close();
  });

  it('explains out-of-range input next to the field', async () => {
    const { context, page } = await openHome();
    const years = page.getByLabel('Number of years');
    await years.fill('75');
    expect(await years.getAttribute('aria-invalid')).toBe('true');
    const error = page.locator('[data-testid="calculator-error-years"]');
    expect(await error.innerText()).toBe('Number of years must be between 1 year and 60 years.');
    expect(await years.getAttribute('aria-describedby')).toContain((await error.getAttribute('id')) ?? 'missing');
    expect(await page.locator('[data-testid="calculator-invalid"]').isVisible()).toBe(true);
    await years.fill('30');
    expect(await years.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('[data-testid="result-taxFree-keep"]').innerText()).toBe('$838,017');
    await context.close();
  });
});

describe('accessibility', () => {
  // axe on this long page takes a while on a busy two-core machine.
  it('has no axe violations at 1280 px', async () => {
    const { page, errors } = await loadedHome();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);

  it('has no axe violations with rows, a case, an answer and an input error open', async () => {
    const { context, page } = await openHome(DESKTOP);
    await rowButton(page, 'home-comparison', 'living-benefits').click();
    await rowButton(page, 'iul-vs-roth-table', 'growth').click();
    await page.locator('[data-testid="case-selector"] [role="tab"]').nth(1).click();
    await page.locator('#faq .accordion-summary').first().click();
    await page.getByLabel('Number of years').fill('0');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('has no axe violations at 375 px', async () => {
    const { page, errors } = await loadedPhoneHome();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
