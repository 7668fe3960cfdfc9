/**
 * `npm run screenshots`: full-page pictures of the pages Lighthouse measures (scripts/production-site.ts) at a phone's width (375 x 812) and a
 * desktop's (1280 x 800), without JavaScript (the page as served), into reports/screenshots/, for a
 * person to look over (a design review, a pull request). The production build of the site on a fresh
 * data directory with the demo posts (scripts/production-site.ts), in Debian's Chromium. It checks
 * nothing: what a visitor must see is asserted by the browser tests; this only saves what they saw.
 * SCREENSHOT_PAGES (names separated by commas, e.g. `home,faq`) takes only those pages.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { ROOT, startProductionSite } from '../production-site';

const SCREENSHOTS = path.join(ROOT, 'reports', 'screenshots');
const SCREENS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
] as const;

async function main(): Promise<void> {
  const site = await startProductionSite('screenshots');
  const pages = site.pages;
  const only = process.env.SCREENSHOT_PAGES?.split(',').map((name) => name.trim());
  const chosen = pages.filter(([name]) => !only || only.includes(name));
  if (only && chosen.length !== only.length) throw new Error(`SCREENSHOT_PAGES names a page it does not know (known: ${pages.map(([name]) => name).join(', ')})`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const viewport of SCREENS) {
      const context = await browser.newContext({ viewport, javaScriptEnabled: false });
      const page = await context.newPage();
      for (const [name, pagePath] of chosen) {
        const response = await page.goto(`${site.origin}${pagePath}`, { waitUntil: 'load' });
        if (response?.status() !== 200) throw new Error(`${pagePath} answered ${response?.status() ?? 'nothing'}, not 200`);
        const file = path.join(SCREENSHOTS, `${name}-${viewport.width}.png`);
        rmSync(file, { force: true });
        await page.screenshot({ path: file, fullPage: true });
        console.log(path.relative(ROOT, file));
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await site.close();
  }
}

await main();
