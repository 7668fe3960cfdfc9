/**
 * What the page boot script keeps out of a tap's frame (decision 0039), in real Chromium before the app
 * has loaded: the tap's visible change is made in its click, and two costs wait until that frame has
 * been painted.
 *
 * - The address: a tab or a comparison row is shown in the click, and the address (`history.replaceState`,
 *   several milliseconds on a phone) is written once the frame showing it has been painted; choices made
 *   before then all reach the address.
 * - The app: it starts on the tap's click, not on its pointerup, which on a phone comes a few frames
 *   before the click in a task of its own (the app's first tasks would run in between, and the click
 *   would wait for them).
 */
import { describe, expect, it } from 'vitest';
import { holdApp, nextFrames } from '../support/page';
import { testSite } from '../support/site-fixture';

const site = testSite();
const PHONE = { viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true };

describe('a tab or a row tapped before the app has loaded', () => {
  it('is shown in the click; the address follows once that frame has been painted, with every choice made', async () => {
    const context = await site.newContext(PHONE);
    const page = await context.newPage();
    await holdApp(page);
    await page.goto(`${site.url}/`);
    // The second of each, as a visitor's first choice (the first case study is shown to begin with).
    const tab = '#case-studies [role="tab"]';
    const row = '[data-testid="home-comparison"] .row-toggle';
    const caseId = await page.locator(tab).nth(1).getAttribute('data-choice-value');
    const rowId = await page.locator(row).nth(1).getAttribute('data-choice-value');
    expect(caseId && rowId).toBeTruthy();

    // In the clicks' own task: the tab is chosen and its panel shown, the row opened, and the address
    // not yet written.
    const inTheClicks = await page.evaluate(
      ([tabs, rows]) => {
        const tabElement = document.querySelectorAll<HTMLElement>(tabs)[1];
        const toggle = document.querySelectorAll<HTMLElement>(rows)[1];
        tabElement?.click();
        toggle?.click();
        const panel = document.getElementById(tabElement?.getAttribute('aria-controls') ?? '');
        return { selected: tabElement?.getAttribute('aria-selected'), panelShown: panel !== null && !panel.hidden, rowOpen: toggle?.getAttribute('aria-expanded'), search: location.search };
      },
      [tab, row] as const,
    );
    expect(inTheClicks).toEqual({ selected: 'true', panelShown: true, rowOpen: 'true', search: '' });

    await nextFrames(page);
    const address = new URL(page.url());
    expect(address.searchParams.get('case')).toBe(caseId);
    expect(address.searchParams.get('compare')).toBe(rowId);
    expect(address.pathname).toBe('/');
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    await context.close();
  });
});

describe('the app starts on the tap', () => {
  it('on its click, not on the pointerup that comes before it', async () => {
    const context = await site.newContext(PHONE);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${site.url}/faq`, { waitUntil: 'networkidle' });
    expect(scripts).toEqual([]);

    // A pointer lifted (as a tap's is, frames before its click): the app does not start on it.
    await page.evaluate(() => {
      document.body.dispatchEvent(new PointerEvent('pointerup', { bubbles: true, pointerType: 'touch' }));
    });
    await nextFrames(page);
    await nextFrames(page);
    expect(scripts).toEqual([]);

    // The click that completes the tap starts it.
    await page.locator('main h1').click();
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
    expect(scripts.length).toBeGreaterThan(0);
    await context.close();
  });
});
