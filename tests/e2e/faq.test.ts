/**
 * The FAQ page in real Chromium and over plain HTTP: the three tabs (order, default, arrow keys with a
 * roving tabindex), 19 / 1 / 12 questions, the accordion (first general question open, one at a time,
 * the open one closes), the 24rem answer panel, arriving at the top, FAQPage JSON-LD that matches the
 * visible questions and answers, every spec figure in the served HTML, and axe at 1280 and 375 px.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAQ_CATEGORIES } from '../../web/content/faq';
import { axeViolations } from '../support/axe';
import { once, testSite } from '../support/site-fixture';
import { FAQ_PAGE_FIGURES as FIGURES } from '../support/spec-figures';
import { nextFrames, type OpenedPage, openPage, waitForHydration } from '../support/page';

const TAB_NAMES = ['General IUL Questions', 'Retirement Income & 401(k)', 'Business Owner Questions'];
const COUNTS = [19, 1, 12];


interface LdQuestion {
  '@type': string;
  name: string;
  acceptedAnswer: { '@type': string; text: string };
}

const site = testSite();
let html: string;

beforeAll(async () => {
  html = await (await fetch(`${site.url}/faq`)).text();
});

function openFaq(viewport = { width: 1280, height: 800 }): Promise<OpenedPage> {
  return openPage(site, `${site.url}/faq`, viewport, { consoleErrors: false });
}

/** The FAQ page as loaded, shared by the tests that only read it. */
const loadedFaq = once(() => openFaq());

function visiblePanel(page: Page): Locator {
  return page.locator('.faq-page [role="tabpanel"]:not([hidden])');
}

function questionButtons(page: Page): Locator {
  return visiblePanel(page).locator('.accordion-summary');
}

/** Whether each question of the visible tab is open (its `<details>` carries `open`). */
async function expandedStates(page: Page): Promise<boolean[]> {
  return visiblePanel(page)
    .locator('details.accordion-item')
    .evaluateAll((items) => items.map((d) => (d as HTMLDetailsElement).open));
}

/** The answer panel that belongs to a question's summary. */
function answerOf(summary: Locator): Locator {
  return summary.locator('xpath=following-sibling::div[contains(@class, "accordion-panel")]');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function faqPageLd(source: string): LdQuestion[] {
  const blocks = [...source.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? 'null') as { '@type'?: string; mainEntity?: LdQuestion[] },
  );
  const faq = blocks.filter((b) => b['@type'] === 'FAQPage');
  expect(faq).toHaveLength(1);
  return faq[0]?.mainEntity ?? [];
}

describe('FAQ page over HTTP', () => {
  it('serves the heading, title and description before any script runs', () => {
    expect(html).toContain('<h1 id="faq-title">Frequently Asked Questions</h1>');
    expect(html).toMatch(/<title>Frequently Asked Questions \| [^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{15,160}"/);
  });

  it('serves FAQPage JSON-LD with the 32 questions of the three lists, in order', () => {
    const questions = faqPageLd(html);
    expect(questions).toHaveLength(32);
    expect(questions.map((q) => q.name)).toEqual(FAQ_CATEGORIES.flatMap((c) => c.items.map((i) => i.question)));
    for (const q of questions) {
      expect(q['@type']).toBe('Question');
      expect(q.acceptedAnswer['@type']).toBe('Answer');
    }
  });

  it('serves every question of all three tabs in the HTML', () => {
    const text = decodeEntities(html);
    for (const item of FAQ_CATEGORIES.flatMap((c) => c.items)) expect(text).toContain(item.question);
  });

  it.each(FIGURES)('shows the spec figure %s in the served page', (figure) => {
    const body = decodeEntities(html.replace(/<script[\s\S]*?<\/script>/g, ''));
    expect(body).toContain(figure);
  });

  it('never shows a placeholder token', () => {
    const body = decodeEntities(html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ''));
    expect(body).not.toMatch(/\{(product|phone|email|key)[A-Za-z]*\}/);
  });
});

describe('FAQ page in the browser', () => {
  it('shows the three category tabs in order, General IUL Questions selected', async () => {
    const { page, errors } = await loadedFaq();
    const tabs = page.getByRole('tab');
    expect(await tabs.allInnerTexts()).toEqual(TAB_NAMES);
    expect(await tabs.evaluateAll((els) => els.map((el) => el.getAttribute('aria-selected')))).toEqual(['true', 'false', 'false']);
    expect(await page.getByRole('tabpanel').count()).toBe(1); // hidden panels are out of the accessibility tree
    expect(await page.getByRole('tablist', { name: 'FAQ categories' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('holds 19, 1 and 12 questions in the three tabs', async () => {
    const { context, page } = await openFaq();
    for (const [index, name] of TAB_NAMES.entries()) {
      await page.getByRole('tab', { name }).click();
      expect(await page.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true');
      expect(await questionButtons(page).count(), name).toBe(COUNTS[index]);
      expect(await visiblePanel(page).locator('.faq-count').innerText()).toBe(`${COUNTS[index]} ${COUNTS[index] === 1 ? 'question' : 'questions'}`);
    }
    await context.close();
  });

  it('opens the first general question initially, and only that one', async () => {
    const { page } = await loadedFaq();
    const states = await expandedStates(page);
    expect(states[0]).toBe(true);
    expect(states.filter(Boolean)).toHaveLength(1);
    const panel = answerOf(questionButtons(page).first());
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.innerText()).toContain(FAQ_CATEGORIES[0]?.items[0]?.answer.slice(0, 60));
    expect(await page.locator('.faq-page .accordion-panel:visible').count()).toBe(1);
  });

  it('closes the open question when it is clicked, and keeps one open at a time', async () => {
    const { context, page } = await openFaq();
    const buttons = questionButtons(page);
    await buttons.nth(0).click();
    expect((await expandedStates(page)).filter(Boolean)).toHaveLength(0);
    expect(await page.locator('.faq-page .accordion-panel:visible').count()).toBe(0);

    await buttons.nth(1).click();
    expect(await expandedStates(page)).toEqual(Array.from({ length: 19 }, (_, i) => i === 1));
    await buttons.nth(7).click();
    expect(await expandedStates(page)).toEqual(Array.from({ length: 19 }, (_, i) => i === 7));
    const panel = answerOf(buttons.nth(7));
    expect(await panel.isVisible()).toBe(true);
    await buttons.nth(7).click();
    expect((await expandedStates(page)).filter(Boolean)).toHaveLength(0);

    // The same in another category: its questions open and close one at a time too.
    await page.getByRole('tab', { name: 'Business Owner Questions' }).click();
    expect((await expandedStates(page)).filter(Boolean)).toHaveLength(0);
    await questionButtons(page).nth(2).click();
    await questionButtons(page).nth(5).click();
    expect(await expandedStates(page)).toEqual(Array.from({ length: 12 }, (_, i) => i === 5));
    await context.close();
  });

  it('moves between tabs with the arrow keys, Home and End, with a roving tabindex', async () => {
    const { context, page } = await openFaq();
    const tabs = page.getByRole('tab');
    const state = () =>
      tabs.evaluateAll((els) => ({
        selected: els.findIndex((el) => el.getAttribute('aria-selected') === 'true'),
        focused: els.findIndex((el) => el === document.activeElement),
        tabindex: els.map((el) => el.getAttribute('tabindex')),
      }));
    await tabs.first().focus();
    expect(await state()).toEqual({ selected: 0, focused: 0, tabindex: ['0', '-1', '-1'] });
    await page.keyboard.press('ArrowRight');
    expect(await state()).toEqual({ selected: 1, focused: 1, tabindex: ['-1', '0', '-1'] });
    expect(await questionButtons(page).count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    expect(await state()).toEqual({ selected: 2, focused: 2, tabindex: ['-1', '-1', '0'] });
    expect(await questionButtons(page).count()).toBe(12);
    await page.keyboard.press('ArrowRight');
    expect(await state()).toEqual({ selected: 0, focused: 0, tabindex: ['0', '-1', '-1'] });
    await page.keyboard.press('ArrowLeft');
    expect(await state()).toEqual({ selected: 2, focused: 2, tabindex: ['-1', '-1', '0'] });
    await page.keyboard.press('Home');
    expect((await state()).selected).toBe(0);
    await page.keyboard.press('End');
    expect((await state()).selected).toBe(2);
    // Tab leaves the tablist for the panel rather than walking through the other tabs.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tabpanel');
    await context.close();
  });

  it('caps an answer panel at 24rem (384px) and scrolls a longer answer inside it', async () => {
    const { context, page } = await openFaq({ width: 375, height: 800 });
    const firstPanel = page.locator('.faq-page .accordion-panel:visible');
    expect(await firstPanel.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('384px');
    expect(await firstPanel.evaluate((el) => getComputedStyle(el).overflowY)).toBe('auto');
    // An answer longer than the cap scrolls inside its panel instead of growing past 384px.
    const scroll = await firstPanel.evaluate((el) => {
      const extra = document.createElement('p');
      extra.textContent = 'A much longer answer. '.repeat(200);
      el.append(extra);
      el.scrollTop = 100;
      const result = { height: el.getBoundingClientRect().height, scrollHeight: el.scrollHeight, scrollTop: el.scrollTop };
      extra.remove();
      return result;
    });
    expect(scroll.height).toBe(384);
    expect(scroll.scrollHeight).toBeGreaterThan(384);
    expect(scroll.scrollTop).toBe(100);
    // Every real answer, opened on a narrow screen, stays within 384px.
    for (const name of TAB_NAMES) {
      await page.getByRole('tab', { name }).click();
      const count = await questionButtons(page).count();
      for (let i = 0; i < count; i += 1) {
        const button = questionButtons(page).nth(i);
        if (!(await expandedStates(page))[i]) await button.click();
        const height = await answerOf(button).evaluate((el) => el.getBoundingClientRect().height);
        expect(height, `${name} #${i}`).toBeLessThanOrEqual(384);
      }
    }
    await context.close();
  });

  it('arrives at the top of the page, even when reloaded after scrolling down', async () => {
    const { context, page } = await openFaq();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForFunction(() => window.scrollY > 1000);
    await page.reload();
    await waitForHydration(page);
    await nextFrames(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it('arrives at the top when a link from another page leads here', async () => {
    const { context, page } = await site.open('/legal', undefined, { consoleErrors: false });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('contentinfo').getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL(`${site.url}/faq`);
    await page.waitForFunction(() => window.scrollY === 0);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Frequently Asked Questions');
    await context.close();
  });

  it('carries JSON-LD whose questions and answers are exactly the ones the page shows', async () => {
    const { context, page } = await openFaq();
    const ld = faqPageLd(await page.content());
    const visible: Array<{ question: string; answer: string }> = [];
    for (const name of TAB_NAMES) {
      await page.getByRole('tab', { name }).click();
      const items = await visiblePanel(page)
        .locator('.accordion-item')
        .evaluateAll((els) =>
          els.map((el) => ({
            question: el.querySelector('.accordion-heading')?.textContent ?? '',
            answer: [...el.querySelectorAll('.accordion-panel p, .accordion-panel li')].map((p) => p.textContent ?? '').join(' '),
          })),
        );
      visible.push(...items);
    }
    expect(visible).toHaveLength(32);
    expect(ld.map((q) => ({ question: q.name, answer: q.acceptedAnswer.text }))).toEqual(visible);
    await context.close();
  });

  it('closes with a call to action to /get-quote and a phone link', async () => {
    const { page } = await loadedFaq();
    const cta = page.locator('#faq-cta');
    expect(await cta.getByRole('link', { name: /Get Your Free IUL Illustration/ }).getAttribute('href')).toBe('/get-quote');
    expect(await cta.getByRole('link', { name: /Call/ }).getAttribute('href')).toMatch(/^tel:\+\d+$/);
  });

  it('has no accessibility violations at 1280px and 375px', async () => {
    const { context, page } = await openFaq();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Business Owner Questions' }).click();
    await questionButtons(page).nth(1).click();
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('tab', { name: 'General IUL Questions' }).click();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 180_000);
});
