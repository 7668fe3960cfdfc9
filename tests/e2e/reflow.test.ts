/**
 * Reflow at 200% text (issue 36, WCAG 1.4.4 Resize Text and 1.4.10 Reflow), in real Chromium: every
 * public page on a 320 px wide screen with the browser's text size set to 200% (the browser's default
 * font size 32 px instead of 16, as a visitor sets it in the browser's settings; a desktop zoomed to
 * 400% at 1280 px is the same 320 CSS px) reads without scrolling sideways and without anything cut:
 * - the page is no wider than the screen (tables scroll inside their own box);
 * - the header's name, brand mark and menu button are inside the screen, and no text in the header is
 *   cut short with an ellipsis;
 * - the call bar's buttons are inside the screen and show their whole text;
 * - a button whose text wraps onto several lines keeps a rounded rectangle, not an oval;
 * - no text is cut by a box that hides its overflow.
 * Every page with JavaScript on (the app hydrated); the home page and the quote form also without; and
 * every page at the default text size on the same 320 px (a 1280 px desktop zoomed to 400%).
 * A failure names the page and the element (tag, classes, right edge) to fix.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { waitForHydration } from '../support/page';
import { startSeededServer, testSite } from '../support/site-fixture';

const paths = productPaths(DEFAULT_SITE_CONFIG);

/** Every public page. A demo post with a table stands for the posts. */
const PAGES = [
  '/',
  '/faq',
  paths.ultimateGuide,
  '/about-us',
  paths.sepComparison,
  '/get-quote',
  '/get-quote/thank-you',
  '/blog',
  '/blog/how-to-budget-for-an-iul-premium-you-can-keep-paying',
  '/blog/category/tax-benefits',
  '/legal',
  '/legal/privacy-policy',
  '/legal/terms-of-service',
  '/api/test-console',
  '/api/usage-examples',
  '/login',
  '/no-such-page',
];
const WITHOUT_JAVASCRIPT = ['/', '/get-quote'];

const SCREEN = { width: 320, height: 640 };
/** The browser's text size at 200%: Chromium's default font sizes (16 px, 13 px monospace) doubled. */
const FONT_SIZES = { standard: 32, fixed: 26 };

const site = testSite(() => startSeededServer());

/** A page at 320 px whose browser text size is 200% (or the default), in one context (closed by the caller). */
async function openLargeText(javaScriptEnabled: boolean, largeText = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await site.newContext({ viewport: SCREEN, javaScriptEnabled });
  const page = await context.newPage();
  if (largeText) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.setFontSizes', { fontSizes: FONT_SIZES });
  }
  return { context, page };
}

/**
 * What a visitor with large text would find wrong on the page in view, one line per problem naming the
 * element. Every section is laid out first (the long pages lay a section out only as it nears the
 * screen, content-visibility), as the visitor scrolling down would have it.
 */
function reflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const layOutAll = document.createElement('style');
    layOutAll.textContent = '* { content-visibility: visible !important; }';
    document.head.append(layOutAll);
    const width = window.innerWidth;
    const height = window.innerHeight;
    const problems: string[] = [];

    const describe = (element: Element): string => {
      const classes = typeof element.className === 'string' && element.className.trim() ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      const box = element.getBoundingClientRect();
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
      return `<${element.tagName.toLowerCase()}${classes}> (left ${Math.round(box.left)}, right ${Math.round(box.right)} px) "${text}"`;
    };
    const isShown = (element: Element): boolean => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && style.clip !== 'rect(0px, 0px, 0px, 0px)';
    };
    /** Inside a box that scrolls sideways (a table in .table-scroll, code in <pre>). */
    const scrollsInBox = (element: Element): boolean => {
      const escapes = element instanceof HTMLElement && ['absolute', 'fixed'].includes(getComputedStyle(element).position);
      for (let parent = escapes ? (element as HTMLElement).offsetParent : element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll') return true;
      }
      return false;
    };

    const isFixed = (element: Element): boolean => {
      for (let node: Element | null = element; node && node !== document.body; node = node.parentElement) {
        if (getComputedStyle(node).position === 'fixed') return true;
      }
      return false;
    };

    // 1. The page is no wider than the screen; the element that sticks out furthest is named.
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > width) {
      let widest: Element | undefined;
      let furthest = width;
      for (const element of Array.from(document.querySelectorAll('body *'))) {
        // Text too long for its box (a word, an address) overflows it without widening the box: the
        // box's scroll width reaches it. The deepest element reaching furthest is the one to fix.
        const box = element.getBoundingClientRect();
        const holdsItsOverflow = !(element instanceof HTMLElement) || getComputedStyle(element).overflowX !== 'visible';
        const right = holdsItsOverflow ? box.right : Math.max(box.right, box.left + element.scrollWidth);
        // What is fixed to the screen (the header, the call bar) never widens the page: checked below.
        if (right >= furthest - 0.5 && right > width + 0.5 && !scrollsInBox(element) && !isFixed(element) && getComputedStyle(element).clip === 'auto') {
          furthest = right;
          widest = element;
        }
      }
      problems.push(`the page is ${scrollWidth} px wide on a ${width} px screen; widest: ${widest ? `${describe(widest)} reaching ${Math.round(furthest)} px` : 'none found'}`);
    }

    // 2. The header's controls are inside the screen, and no header text is cut with an ellipsis.
    for (const selector of ['.site-header .brand', '.site-header .brand-mark', '.site-header .brand-name', '.site-header .menu-toggle', '.site-header a[href^="tel:"]']) {
      for (const element of Array.from(document.querySelectorAll(selector)).filter(isShown)) {
        const box = element.getBoundingClientRect();
        if (box.left < -0.5 || box.right > width + 0.5) problems.push(`header control ${selector} is outside the screen: ${describe(element)}`);
      }
    }
    for (const element of Array.from(document.querySelectorAll('.site-header *')).filter(isShown)) {
      if (getComputedStyle(element).textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth) {
        problems.push(`header text is cut with an ellipsis (${element.scrollWidth} px of text in ${element.clientWidth} px): ${describe(element)}`);
      }
    }

    // 3. The call bar's buttons are inside the screen and show their whole text.
    for (const element of Array.from(document.querySelectorAll('.call-bar a, .call-bar button')).filter(isShown)) {
      const box = element.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5 || box.top < -0.5 || box.bottom > height + 0.5) {
        problems.push(`call bar button is outside the screen (top ${Math.round(box.top)}, bottom ${Math.round(box.bottom)}): ${describe(element)}`);
      }
      if (element.scrollWidth > element.clientWidth + 1) problems.push(`call bar button cuts its text (${element.scrollWidth} px of content in ${element.clientWidth} px): ${describe(element)}`);
    }

    // 4. A button (or a pill-shaped badge) on several lines keeps its corners: a radius of half its
    //    height or more is an oval that cuts into its text.
    for (const element of Array.from(document.querySelectorAll('.button, button[type="submit"], .quote-free-badge, .category-nav a, .post-tags li, .case-badge')).filter(isShown)) {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const lineHeight = Number.parseFloat(style.lineHeight) || Number.parseFloat(style.fontSize) * 1.2;
      const inner = (name: string) => Number.parseFloat(style.getPropertyValue(name)) || 0;
      const textHeight = box.height - inner('padding-top') - inner('padding-bottom') - inner('border-top-width') - inner('border-bottom-width');
      if (textHeight <= 1.5 * lineHeight) continue;
      const radius = style.borderTopLeftRadius.split(' ')[0] ?? '0';
      const radiusPx = radius.endsWith('%') ? (Number.parseFloat(radius) / 100) * Math.min(box.width, box.height) : Number.parseFloat(radius);
      if (radiusPx >= box.height / 2 - 0.5) {
        problems.push(`button or badge on ${Math.round(textHeight / lineHeight)} lines is drawn as an oval (border-radius ${radius}, height ${Math.round(box.height)} px): ${describe(element)}`);
      }
    }

    // 5. No text is cut by a box that hides its overflow (visually hidden text aside).
    for (const element of Array.from(document.querySelectorAll('body *')).filter(isShown)) {
      const style = getComputedStyle(element);
      if (style.overflowX !== 'hidden' && style.overflowX !== 'clip') continue;
      if (element.scrollWidth > element.clientWidth + 1 && (element.textContent ?? '').trim() !== '') {
        problems.push(`text is cut at the right of its box (${element.scrollWidth} px of content in ${element.clientWidth} px): ${describe(element)}`);
      }
    }

    layOutAll.remove();
    return problems;
  });
}

/** Opens each page in turn in the one tab, checks the text's size (200% unless told), and collects the problems. */
async function checkPages(page: Page, pagePaths: readonly string[], hydrate: boolean, rootFontSize = `${FONT_SIZES.standard}px`): Promise<string[]> {
  const problems: string[] = [];
  for (const pagePath of pagePaths) {
    await page.goto(`${site.url}${pagePath}`);
    if (hydrate) await waitForHydration(page);
    const fontSize = await page.evaluate(() => getComputedStyle(document.documentElement).fontSize);
    expect(fontSize, `${pagePath}: the browser's text size`).toBe(rootFontSize);
    problems.push(...(await reflowProblems(page)).map((problem) => `${pagePath}: ${problem}`));
  }
  return problems;
}

describe('every public page at 320 px with the text at 200%', () => {
  it('reflows with JavaScript on: nothing wider than the screen, cut, off-screen or oval', async () => {
    const { context, page } = await openLargeText(true);
    const problems = await checkPages(page, PAGES, true);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('reflows without JavaScript on the home page and the quote form, and its menu can be read to the end', async () => {
    const { context, page } = await openLargeText(false);
    try {
      expect(await checkPages(page, WITHOUT_JAVASCRIPT, false)).toEqual([]);

      // The menu, longer than the screen at this size, can be scrolled to its last item (a fixed
      // header would hold it where its end cannot be reached).
      await page.goto(`${site.url}/faq`);
      await page.locator('.site-header .menu-toggle').click();
      const last = page.locator('#main-menu > li').last();
      await last.scrollIntoViewIfNeeded();
      const menu = await last.evaluate((item) => {
        const box = item.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, left: box.left, right: box.right, text: item.textContent, scrollWidth: document.documentElement.scrollWidth };
      });
      expect(menu.top, `the menu's last item ("${menu.text}") is on the screen`).toBeGreaterThanOrEqual(0);
      expect(menu.bottom, `the menu's last item ("${menu.text}") is on the screen`).toBeLessThanOrEqual(SCREEN.height);
      expect(menu.left).toBeGreaterThanOrEqual(0);
      expect(menu.right).toBeLessThanOrEqual(SCREEN.width);
      expect(menu.scrollWidth, 'the open menu is no wider than the screen').toBeLessThanOrEqual(SCREEN.width);
    } finally {
      await context.close();
    }
  });

  it('keeps an FAQ answer that overflows its capped box reachable and scrollable from the keyboard (axe clean)', async () => {
    // With JavaScript on: axe runs in the page.
    const { context, page } = await openLargeText(true);
    try {
      await page.goto(`${site.url}/faq`);
      const panel = page.locator('.faq-page details[open] .accordion-panel').first();
      // At this text size the first answer is taller than its 24rem box.
      expect(await panel.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await panel.focus();
      await page.keyboard.press('End');
      // The box scrolls on the key (over a frame or more on a busy machine): its end comes into view.
      await expect.poll(() => panel.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('reflows at the default text size too, as a 1280 px desktop zoomed to 400% (320 CSS px) has it', async () => {
    const { context, page } = await openLargeText(false, false);
    const problems = await checkPages(page, PAGES, false, '16px');
    await context.close();
    expect(problems).toEqual([]);
  });
});
