/**
 * No page requests a third-party player, booking form or script before the visitor asks for it
 * (videos and the booking form are facades that load on a click).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { testSite } from '../support/site-fixture';
import { nextFrames, waitForHydration } from '../support/page';

const site = testSite();

describe('third-party requests', () => {
  const guide = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;

  it.each(['/', '/get-quote', guide, '/faq', '/about-us', '/api/usage-examples'])(
    '%s requests nothing from another origin before the visitor asks',
    async (pagePath) => {
      const context = await site.newContext({ viewport: { width: 1280, height: 800 } });
      const foreign: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (!url.startsWith(site.url)) {
          foreign.push(url);
          return route.abort();
        }
        return route.continue();
      });
      const page = await context.newPage();
      await page.goto(`${site.url}${pagePath}`, { waitUntil: 'networkidle' });
      await waitForHydration(page);
      // Scrolling through the page is not asking for a player or the booking form.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await nextFrames(page);
      await context.close();
      expect(foreign).toEqual([]);
    },
  );
});
