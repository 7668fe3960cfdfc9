/**
 * The agency's phone number in real Chromium on the narrowest phone (320 px), without JavaScript:
 * every tel: link shows the number on one line (it never breaks inside, as it did in the call buttons),
 * also with the browser's text at 150% (a visitor's larger-text setting), and no page is wider than
 * the screen at the default size.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { testSite } from '../support/site-fixture';

const site = testSite();

const PAGES = ['/', '/get-quote', '/about-us', '/legal', '/no-such-page'];

describe('the phone number on a 320 px screen', () => {
  it.each(PAGES)('%s: every tel: link shows the whole number on one line', async (page) => {
    const context = await site.newContext({ viewport: { width: 320, height: 640 }, javaScriptEnabled: false });
    try {
      const tab = await context.newPage();
      await tab.goto(`${site.url}${page}`);
      const measure = () =>
        tab.locator('a[href^="tel:"]').evaluateAll((anchors, phone) =>
          anchors
            .filter((anchor) => anchor.textContent?.includes(phone))
            .map((anchor) => {
              // The number's own span, or the link itself when it holds only the number.
              const number = anchor.matches('.phone-number') ? anchor : anchor.querySelector('.phone-number');
              return {
                text: anchor.textContent?.trim() ?? '',
                wrapped: number?.textContent === phone,
                lines: number ? new Set([...number.getClientRects()].map((rect) => Math.round(rect.top))).size : 0,
              };
            }),
        DEFAULT_SITE_CONFIG.phoneDisplay);
      const links = await measure();
      expect(links.length, 'a tel: link showing the number').toBeGreaterThan(0);
      for (const link of links) {
        expect(link.wrapped, link.text).toBe(true);
        expect(link.lines, link.text).toBe(1);
      }
      const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await tab.evaluate(() => {
        document.documentElement.style.fontSize = '150%';
      });
      for (const link of await measure()) expect(link.lines, `${link.text} at 150% text`).toBe(1);
    } finally {
      await context.close();
    }
  });
});
