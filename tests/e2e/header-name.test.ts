/**
 * The agency's name in the header, in real Chromium: drawn and readable at every width from a small
 * phone to a wide desktop (it was hidden from 961 to 1400 px to make room for the links), never
 * overlapping the navigation, which with its button ends inside the screen (up to 1100 px it is a
 * toggle menu), and never making the page wider than the screen.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { testSite } from '../support/site-fixture';

const site = testSite();

const WIDTHS = [320, 375, 768, 961, 1024, 1100, 1280, 1366, 1400, 1440, 1920];

describe('the agency name in the header', () => {
  it('is drawn at every width, at a readable size, clear of the navigation and within the screen', async () => {
    const context = await site.newContext({ javaScriptEnabled: false });
    try {
      const tab = await context.newPage();
      for (const width of WIDTHS) {
        await tab.setViewportSize({ width, height: 800 });
        await tab.goto(`${site.url}/faq`);
        const layout = await tab.evaluate(() => {
          const name = document.querySelector<HTMLElement>('.site-header .brand-name');
          const box = name?.getBoundingClientRect();
          const links = [...document.querySelectorAll<HTMLElement>('.site-header .nav-links > li')]
            .map((item) => item.getBoundingClientRect())
            .filter((rect) => rect.width > 0 && rect.height > 0);
          const mark = document.querySelector<HTMLElement>('.site-header .brand-mark')?.getBoundingClientRect();
          const style = name ? getComputedStyle(name) : null;
          return {
            text: name?.innerText ?? '',
            box: box ? { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width } : null,
            fontSize: style ? Number.parseFloat(style.fontSize) : 0,
            clipped: style ? style.clip !== 'auto' && style.clip !== '' : true,
            overlaps: box ? links.some((rect) => rect.left < box.right && rect.right > box.left && rect.top < box.bottom && rect.bottom > box.top) : true,
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            linksRight: Math.max(0, ...links.map((rect) => rect.right)),
            markSquare: mark ? Math.abs(mark.width - mark.height) < 1 : false,
          };
        });
        const at = `${width} px`;
        expect(layout.text.replace(/\s+/g, ' '), at).toBe(DEFAULT_SITE_CONFIG.agencyName);
        expect(layout.clipped, at).toBe(false);
        expect(layout.box?.width ?? 0, at).toBeGreaterThan(60);
        expect(layout.box?.left ?? -1, at).toBeGreaterThanOrEqual(0);
        expect(layout.box?.right ?? Infinity, at).toBeLessThanOrEqual(width);
        expect(layout.fontSize, at).toBeGreaterThanOrEqual(14);
        expect(layout.overlaps, at).toBe(false);
        expect(layout.overflow, at).toBeLessThanOrEqual(0);
        expect(layout.linksRight, `${at}: the links and the button end inside the screen`).toBeLessThanOrEqual(width);
        expect(layout.markSquare, `${at}: the brand mark keeps its shape`).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});
