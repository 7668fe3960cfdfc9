/**
 * A tap on the long pages repaints only the section it changes (decision 0039), in real Chromium.
 *
 * The home page, the Ultimate Guide and the API examples lay their sections out only as they near the
 * screen (`content-visibility: auto`, app.css), which also contains each section's layout and paint. A
 * page opened at an anchor, or whose anchor changes, lays every section out from the start, so the
 * browser scrolls to where the section really is (`content-visibility: visible`). Every section then
 * still keeps its layout and paint contained (`contain: layout style paint`): without it, a question
 * opened or a tab or a row chosen moves everything below it, and Chromium records the paint of every
 * moved element again, thousands of pixels of page, before the frame that shows the tap (on a phone,
 * 50 ms of the tap's 100). This asserts that structure on each page, anchored with JavaScript (the
 * page boot script marks it before the first paint) and without (CSS reads `:target`), and after a
 * jump to an anchor on the page; the time it saves is measured by `npm run bench:ux`.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { testSite } from '../support/site-fixture';

const paths = productPaths(DEFAULT_SITE_CONFIG);
const PHONE = { width: 375, height: 812 };

const site = testSite();

/** The long pages, each with an anchor of one of its sections. */
const LONG_PAGES = [
  { pagePath: '/', anchor: 'faq' },
  { pagePath: paths.ultimateGuide, anchor: 'common-questions' },
  { pagePath: '/api/usage-examples', anchor: 'images-heading' },
] as const;

interface SectionStyle {
  section: string;
  contentVisibility: string;
  /** Whether the section's layout and paint are contained (by `contain`, or implied by `content-visibility: auto`). */
  contained: boolean;
}

/** Each lazily laid-out section of the page: how it is laid out and whether it is contained. */
async function sectionStyles(page: Page): Promise<SectionStyle[]> {
  return page.locator('.lazy-sections > .page-section, .lazy-section').evaluateAll((sections) =>
    sections.map((section, index) => {
      const style = getComputedStyle(section);
      const contain = style.contain;
      const explicit = contain === 'content' || contain === 'strict' || (contain.includes('layout') && contain.includes('paint'));
      return {
        section: section.id || section.getAttribute('aria-labelledby') || `section ${index + 1}`,
        contentVisibility: style.contentVisibility,
        contained: explicit || style.contentVisibility === 'auto',
      };
    }),
  );
}

/** Every section laid out (so the anchor lands where it stays), and every one contained. */
function expectLaidOutAndContained(styles: SectionStyle[], where: string): void {
  expect(styles.length, `${where}: lazily laid-out sections`).toBeGreaterThan(1);
  for (const style of styles) {
    expect(style.contentVisibility, `${where}: ${style.section} laid out for the anchor`).toBe('visible');
    expect(style.contained, `${where}: ${style.section} keeps its layout and paint contained`).toBe(true);
  }
}

describe.each(LONG_PAGES)('$pagePath opened at #$anchor', ({ pagePath, anchor }) => {
  it('with JavaScript (before the app loads): every section laid out, each still contained', async () => {
    const context = await site.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${site.url}${pagePath}#${anchor}`);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    expectLaidOutAndContained(await sectionStyles(page), `${pagePath}#${anchor}`);
    await context.close();
  });

  it('without JavaScript: every section laid out, each still contained', async () => {
    const context = await site.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}${pagePath}#${anchor}`);
    // `:target` applies once the page has loaded (goto waits for the load event).
    expectLaidOutAndContained(await sectionStyles(page), `${pagePath}#${anchor} without JavaScript`);
    await context.close();
  });
});

describe('the home page', () => {
  it('opened without an anchor lays out only what comes into view; a jump to an anchor lays out all, each still contained', async () => {
    const context = await site.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    const before = await sectionStyles(page);
    expect(before.map((style) => style.contentVisibility)).toEqual(before.map(() => 'auto'));
    // A link of the menu or the contents, as a visitor follows it (the bench reaches its targets so).
    await page.evaluate(() => {
      location.hash = 'case-studies';
    });
    expectLaidOutAndContained(await sectionStyles(page), '/ after a jump to #case-studies');
    await context.close();
  });
});
