/**
 * The Ultimate Guide in real Chromium and over plain HTTP: section order and anchors, the contents tabs
 * (List View default, Table View), every contents link landing on its section, the five structure cards
 * and five steps, the case study figures, the Roth / 401(k) / whole-life tables (none open at first,
 * one at a time, click again closes), the 8 Common Questions with FAQPage JSON-LD, the Article JSON-LD,
 * Next Steps and its button to /get-quote, the disclosures, and axe at 1280 and 375 px.
 */
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { IUL_VS_401K_ROWS, IUL_VS_ROTH_ROWS } from '../../web/content/comparisons';
import { GUIDE_FAQS } from '../../web/content/faq';
import { IUL_VS_WHOLE_LIFE_ROWS } from '../../web/content/guide/comparisons';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { once, testSite } from '../support/site-fixture';
import { GUIDE_FIGURES as FIGURES } from '../support/spec-figures';
import { type OpenedPage, openPage, scrollToSection } from '../support/page';

const PATH = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;

const ANCHORS = [
  'what-is-iul',
  'tax-advantages',
  'protection-features',
  'optimal-structure',
  'implementation',
  'iul-vs-roth',
  'iul-vs-401k',
  'iul-vs-whole-life',
  'common-questions',
  'next-steps',
];

const CASE_STUDY_FIGURES = ['45-year-old', '$75,000', '$1,450,000', '$116,000 a year', '25 years', '$2,900,000', '$750,000', '$1,600,000', '$64,000 a year'];

const site = testSite();
let html: string;

beforeAll(async () => {
  html = await (await fetch(`${site.url}${PATH}`)).text();
});

function openGuide(viewport = { width: 1280, height: 800 }): Promise<OpenedPage> {
  return openPage(site, `${site.url}${PATH}`, viewport, { consoleErrors: false });
}

/** The guide as loaded, shared by the tests that only read it (scrolling as a reader does). */
const loadedGuide = once(() => openGuide());

function decodeEntities(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function jsonLd(source: string): Array<Record<string, unknown>> {
  return [...source.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as Record<string, unknown>,
  );
}

async function rowStates(table: Locator): Promise<Array<[string, string, string]>> {
  return table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row): [string, string, string] => [
      row.getAttribute('data-row-id') ?? '',
      row.getAttribute('data-selected') ?? '',
      row.querySelector('.row-toggle')?.getAttribute('aria-expanded') ?? '',
    ]),
  );
}

function selectedIds(states: Array<[string, string, string]>): string[] {
  return states.filter(([, selected, expanded]) => selected === 'true' && expanded === 'true').map(([id]) => id);
}

describe('guide over HTTP', () => {
  it('serves a title naming the Ultimate Guide, and the sections in the order of the spec', () => {
    expect(html).toMatch(/<title>[^<]*Ultimate Guide[^<]*<\/title>/);
    expect(html).toContain(`<h1 id="guide-title">The Ultimate Guide to ${DEFAULT_SITE_CONFIG.productName}</h1>`);
    const order = ['guide-title', 'contents', ...ANCHORS.slice(0, 8), 'common-mistakes', 'common-questions', 'next-steps', 'disclosures', 'guide-cta'].map(
      (id) => html.indexOf(`id="${id}"`),
    );
    expect(order.every((position) => position > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('serves every anchor of the contents as an element id, linked from both views and the side contents', () => {
    for (const anchor of ANCHORS) {
      expect(html.match(new RegExp(`id="${anchor}"`, 'g')), anchor).toHaveLength(1);
      expect(html.match(new RegExp(`href="#${anchor}"`, 'g')), anchor).toHaveLength(3);
    }
  });

  it.each([...FIGURES, ...CASE_STUDY_FIGURES])('shows the spec figure %s in the served page', (figure) => {
    const body = decodeEntities(html.replace(/<script[\s\S]*?<\/script>/g, ''));
    expect(body).toContain(figure);
  });

  it('serves Article and FAQPage JSON-LD built from the page content', () => {
    const blocks = jsonLd(html);
    const article = blocks.find((b) => b['@type'] === 'Article');
    expect(article).toMatchObject({
      headline: `The Ultimate Guide to ${DEFAULT_SITE_CONFIG.productName}`,
      author: { '@type': 'Organization', name: DEFAULT_SITE_CONFIG.agencyName },
      publisher: { '@type': 'Organization', name: DEFAULT_SITE_CONFIG.agencyName },
    });
    expect(typeof article?.description).toBe('string');
    const faq = blocks.filter((b) => b['@type'] === 'FAQPage');
    expect(faq).toHaveLength(1);
    const questions = faq[0]?.mainEntity as Array<{ name: string }>;
    expect(questions.map((q) => q.name)).toEqual(GUIDE_FAQS.map((item) => item.question));
  });

  it('never shows a placeholder token', () => {
    const body = decodeEntities(html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ''));
    expect(body).not.toMatch(/\{(product|phone|email|key)[A-Za-z]*\}/);
  });
});

describe('guide in the browser', () => {
  it('opens the contents in List View and switches to Table View, by click and by arrow key', async () => {
    const { context, page, errors } = await openGuide();
    const tabs = page.getByRole('tablist', { name: 'Table of contents views' }).getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(['List View', 'Table View']);
    expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual(['true', 'false']);
    const list = page.getByTestId('contents-list');
    const table = page.getByTestId('contents-table');
    expect(await list.isVisible()).toBe(true);
    expect(await table.isVisible()).toBe(false);
    expect(await list.getByRole('link').count()).toBe(10);

    await page.getByRole('tab', { name: 'Table View' }).click();
    expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual(['false', 'true']);
    expect(await list.isVisible()).toBe(false);
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').count()).toBe(10);
    expect(await table.getByRole('link').count()).toBe(10);

    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'List View' }).getAttribute('aria-selected')).toBe('true');
    expect(await list.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes every contents link, in both views, to its section', async () => {
    const { context, page } = await openGuide();
    for (const view of ['List View', 'Table View']) {
      for (const anchor of ANCHORS) {
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.getByRole('tab', { name: view }).click();
        await page.locator(`[role="tabpanel"]:not([hidden]) a[href="#${anchor}"]`).click();
        await page.waitForURL(new RegExp(`#${anchor}$`));
        await page.waitForFunction((id) => {
          const top = document.getElementById(id)?.getBoundingClientRect().top ?? -1;
          return top >= 0 && top < 120;
        }, anchor);
      }
    }
    await context.close();
  });

  it('shows five numbered structure cards, five implementation steps and the design panel', async () => {
    const { page } = await loadedGuide();
    const cards = page.locator('#optimal-structure [data-testid="structure-cards"] > li');
    await scrollToSection(page.locator('#optimal-structure'));
    expect(await cards.count()).toBe(5);
    expect(await cards.locator('.guide-number').allInnerTexts()).toEqual(['1', '2', '3', '4', '5']);
    await scrollToSection(page.locator('#implementation'));
    expect(await page.locator('#implementation [data-testid="implementation-steps"] > li').count()).toBe(5);
    expect(await page.locator('#implementation [data-testid="design-elements"]').isVisible()).toBe(true);
    expect(await page.locator('#implementation [data-testid="illustration-guidance"]').isVisible()).toBe(true);
  });

  it('shows the case study figures, labelled a hypothetical projection', async () => {
    const { page } = await loadedGuide();
    const study = page.getByTestId('guide-case-study');
    await scrollToSection(study);
    expect(await study.isVisible()).toBe(true);
    const text = await study.innerText();
    for (const figure of CASE_STUDY_FIGURES) expect(text).toContain(figure);
    expect(text).toMatch(/hypothetical projection/i);
    for (const value of ['$1,450,000', '$116,000 a year', '$2,900,000', '$750,000', '$1,600,000', '$64,000 a year']) {
      expect(await study.getByText(value, { exact: true }).isVisible(), value).toBe(true);
    }
  });

  it('opens IUL vs Roth and IUL vs 401(k) rows one at a time, none at first, click again closes', async () => {
    const { context, page } = await openGuide();
    for (const [testId, rows] of [
      ['guide-roth-table', IUL_VS_ROTH_ROWS],
      ['guide-401k-table', IUL_VS_401K_ROWS],
    ] as const) {
      const table = page.getByTestId(testId);
      const explanation = page.getByTestId(`${testId}-explanation`);
      await scrollToSection(table);
      expect((await rowStates(table)).map(([id]) => id)).toEqual(rows.map((r) => r.id));
      expect(selectedIds(await rowStates(table))).toEqual([]);
      expect(await explanation.innerText()).toContain('Select a row');

      const [first, second] = rows;
      await table.getByRole('button', { name: first?.feature, exact: true }).click();
      expect(selectedIds(await rowStates(table))).toEqual([first?.id]);
      expect(await explanation.innerText()).toContain(first?.explanation);

      await table.getByRole('button', { name: second?.feature, exact: true }).click();
      expect(selectedIds(await rowStates(table))).toEqual([second?.id]);
      expect(await explanation.innerText()).toContain(second?.explanation);

      await table.getByRole('button', { name: second?.feature, exact: true }).click();
      expect(selectedIds(await rowStates(table))).toEqual([]);
      expect(await explanation.innerText()).toContain('Select a row');
    }
    await context.close();
  });

  it('compares IUL with whole life in two cards, an 8-row table and the guidance box', async () => {
    const { context, page } = await openGuide();
    const section = page.locator('#iul-vs-whole-life');
    expect(await section.getByTestId('whole-life-cards').locator('> .card').count()).toBe(2);
    const table = page.getByTestId('guide-whole-life-table');
    const explanation = page.getByTestId('guide-whole-life-table-explanation');
    const states = await rowStates(table);
    expect(states.map(([id]) => id)).toEqual([
      'premium-structure',
      'cash-value-growth',
      'retirement-income-potential',
      'policy-costs',
      'risk-profile',
      'policy-loans',
      'customisation',
      'best-use-case',
    ]);
    expect(selectedIds(states)).toEqual([]);

    for (const row of IUL_VS_WHOLE_LIFE_ROWS) {
      await table.getByRole('button', { name: row.feature, exact: true }).click();
      expect(selectedIds(await rowStates(table))).toEqual([row.id]);
      expect(await explanation.innerText()).toContain(row.explanation);
    }
    const last = IUL_VS_WHOLE_LIFE_ROWS[IUL_VS_WHOLE_LIFE_ROWS.length - 1];
    await table.getByRole('button', { name: last?.feature, exact: true }).click();
    expect(selectedIds(await rowStates(table))).toEqual([]);
    expect(await explanation.innerText()).not.toContain(last?.explanation);

    const guidance = section.getByTestId('which-option');
    expect(await guidance.getByRole('heading', { name: 'Which Option Is Right For You' }).isVisible()).toBe(true);
    await context.close();
  });

  it('answers the 8 common questions in an accordion matching its JSON-LD', async () => {
    const { context, page } = await openGuide();
    const buttons = page.locator('#common-questions .accordion-summary');
    expect(await buttons.count()).toBe(8);
    const expanded = () =>
      page.locator('#common-questions details.accordion-item').evaluateAll((els) => els.map((el) => (el as HTMLDetailsElement).open));
    expect((await expanded()).filter(Boolean)).toHaveLength(0);
    await buttons.nth(2).click();
    expect(await expanded()).toEqual(Array.from({ length: 8 }, (_, i) => i === 2));
    await buttons.nth(4).click();
    expect(await expanded()).toEqual(Array.from({ length: 8 }, (_, i) => i === 4));
    await buttons.nth(4).click();
    expect((await expanded()).filter(Boolean)).toHaveLength(0);

    const visible = await page.locator('#common-questions .accordion-item').evaluateAll((els) =>
      els.map((el) => ({
        question: el.querySelector('.accordion-heading')?.textContent ?? '',
        answer: [...el.querySelectorAll('.accordion-panel p, .accordion-panel li')].map((p) => p.textContent ?? '').join(' '),
      })),
    );
    const faq = jsonLd(await page.content()).find((b) => b['@type'] === 'FAQPage');
    const entities = faq?.mainEntity as Array<{ name: string; acceptedAnswer: { text: string } }>;
    expect(entities.map((e) => ({ question: e.name, answer: e.acceptedAnswer.text }))).toEqual(visible);
    await context.close();
  });

  it('lists three next steps whose button leads to /get-quote', async () => {
    const { context, page } = await openGuide();
    const steps = page.locator('#next-steps [data-testid="next-steps-list"] > li h3');
    await scrollToSection(page.locator('#next-steps'));
    expect(await steps.allInnerTexts()).toEqual(['Schedule a consultation', 'Receive your personalised analysis', 'Implementation']);
    const button = page.getByTestId('next-steps-button');
    expect(await button.getAttribute('href')).toBe('/get-quote');
    await button.click();
    await page.waitForURL(`${site.url}/get-quote`);
    await context.close();
  });

  it('closes with the disclosures and a call to action', async () => {
    const { page } = await loadedGuide();
    await scrollToSection(page.getByTestId('guide-disclosures'));
    const disclosures = await page.getByTestId('guide-disclosures').innerText();
    expect(disclosures).toMatch(/not a solicitation/);
    expect(disclosures).toMatch(/not guaranteed/);
    expect(disclosures).toMatch(/reduce the cash value and the death benefit/);
    expect(disclosures).toMatch(/claims-paying ability/);
    expect(disclosures).toMatch(/tax advisor/);
    const cta = page.locator('#guide-cta');
    expect(await cta.getByRole('link', { name: /Get Your Free IUL Illustration/ }).getAttribute('href')).toBe('/get-quote');
    expect(await cta.getByRole('link', { name: /Call/ }).getAttribute('href')).toMatch(/^tel:\+\d+$/);
    expect(await page.locator('h1').count()).toBe(1);
  });

  // axe over this long page takes a while on a 2-core machine: one view per test, with room to run.
  it('has no accessibility violations at 1280px, as loaded and with rows and tabs opened', async () => {
    const { context, page } = await openGuide();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('guide-whole-life-table').getByRole('button', { name: 'Policy loans', exact: true }).click();
    await page.locator('#common-questions .accordion-summary').first().click();
    await page.getByRole('tab', { name: 'Table View' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);

  it('has no accessibility violations at 375px in either contents view', async () => {
    const { context, page } = await openGuide({ width: 375, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Table View' }).click();
    await page.getByTestId('guide-roth-table').getByRole('button', { name: IUL_VS_ROTH_ROWS[0]?.feature, exact: true }).click();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
