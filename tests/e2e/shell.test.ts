/**
 * The shared shell in real Chromium: the header's style past 10 px of scroll, the mobile menu,
 * scroll-to-top and hash scrolling between routes, the footer's call to action, the 404 page, and
 * client start-up.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { type OpenedPage, nextFrames, waitForHydration } from '../support/page';
import { once, testSite } from '../support/site-fixture';

const site = testSite();

function openPage(path: string, viewport = { width: 1280, height: 800 }): Promise<OpenedPage> {
  return site.open(path, viewport);
}

/** The home page as loaded at 1280 px, shared by the tests that only read its header. */
const loadedHome = once(() => openPage('/'));

/** Loads `path` again in a page already open, at `width`: a new document, hydrated, without a new context. */
async function reloadAt(page: Page, path: string, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await page.goto(`${site.url}${path}`);
  await waitForHydration(page);
}

async function headerState(page: Page) {
  return page.locator('[data-testid="site-header"]').evaluate((el) => ({
    scrolled: document.documentElement.getAttribute('data-scrolled'),
    background: getComputedStyle(el).backgroundColor,
    shadow: getComputedStyle(el).boxShadow,
  }));
}

/** The header's menu toggle: the summary of its `<details class="site-menu">` (Header.tsx). */
function menuToggle(page: Page) {
  return page.locator('[data-testid="site-header"] details.site-menu > summary');
}

/** Whether the header menu is open (the browser's state of the details, which it reports as expanded). */
function menuOpen(page: Page): Promise<boolean> {
  return page.locator('[data-testid="site-header"] details.site-menu').evaluate((el) => (el as HTMLDetailsElement).open);
}

describe('navigation bar', () => {
  it('is transparent at the top and turns white with a shadow past 10 px', async () => {
    const { context, page, errors } = await openPage('/legal/privacy-policy');
    const top = await headerState(page);
    expect(top).toMatchObject({ scrolled: 'false', background: 'rgba(0, 0, 0, 0)', shadow: 'none' });

    await page.evaluate(() => window.scrollTo(0, 10));
    await nextFrames(page);
    expect((await headerState(page)).scrolled).toBe('false');

    await page.evaluate(() => window.scrollTo(0, 11));
    await page.waitForFunction(() => document.documentElement.getAttribute('data-scrolled') === 'true');
    // Through the colour transition, however long a busy machine takes to run it.
    await expect.poll(async () => (await headerState(page)).background).toBe('rgb(255, 255, 255)');
    expect((await headerState(page)).shadow).not.toBe('none');

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => document.documentElement.getAttribute('data-scrolled') === 'false');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the links of the specification, with Stories opening in a new tab', async () => {
    const { page } = await loadedHome();
    const nav = page.getByRole('navigation', { name: 'Main' });
    const labels = await nav.getByRole('link').allInnerTexts();
    expect(labels.map((l) => l.replace(/\(opens in a new tab\)/, '').trim())).toEqual([
      expect.stringContaining('Hartwell'),
      'How It Works',
      'Benefits',
      'Case Studies',
      'SEP IRA vs IUL',
      'FAQs',
      'Stories',
      'Ultimate Guide',
      'About Us',
      'Get A Quote',
    ]);
    const stories = nav.getByRole('link', { name: /Stories/ });
    expect(await stories.getAttribute('target')).toBe('_blank');
    expect(await stories.getAttribute('rel')).toContain('noopener');
  });

  it('collapses into a toggle menu on a 768 px screen that closes when an item is chosen (and on a 1100 px one)', async () => {
    const tablet = await openPage('/', { width: 1100, height: 900 });
    expect(await menuToggle(tablet.page).isVisible()).toBe(true);
    await tablet.context.close();

    const { context, page } = await openPage('/', { width: 768, height: 900 });
    const toggle = menuToggle(page);
    const faqLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' });
    expect(await faqLink.isVisible()).toBe(false);
    expect(await toggle.innerText()).toBe('Open menu');
    await toggle.click();
    expect(await menuOpen(page)).toBe(true);
    expect(await toggle.innerText()).toBe('Close menu');
    expect(await faqLink.isVisible()).toBe(true);
    await faqLink.click();
    await page.waitForURL(`${site.url}/faq`);
    expect(await faqLink.isVisible()).toBe(false);
    expect(await menuOpen(page)).toBe(false);

    // Escape closes it too, and gives the focus back to the toggle.
    await toggle.click();
    expect(await menuOpen(page)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menuOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-toggle'))).toBe(true);
    await context.close();
  });

  it('keeps the toggle in its place while the page is still arriving: no browser "Details" box before its summary is read', async () => {
    const context = await site.newContext({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const box = () => page.locator('details.site-menu').evaluate((el) => {
      const rect = el.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, shown: getComputedStyle(el).visibility === 'visible' };
    });
    await page.goto(`${site.url}/get-quote`);
    const whole = await box();
    expect(whole).toMatchObject({ width: 44, height: 44, shown: true });
    // The same page as a slow network delivers it at one moment: the document read up to the menu's
    // <details>, its <summary> not yet. The parser closes what is open, as the browser paints it then.
    await page.route(`${site.url}/get-quote`, async (route) => {
      const html = await (await route.fetch()).text();
      const details = html.indexOf('<details class="site-menu"');
      expect(details).toBeGreaterThan(0);
      await route.fulfill({ contentType: 'text/html', body: html.slice(0, html.indexOf('>', details) + 1) });
    });
    await page.goto(`${site.url}/get-quote`);
    expect(await page.locator('details.site-menu > summary').count()).toBe(0);
    expect(await box()).toEqual({ ...whole, shown: false });
    await context.close();
  });

  it('shows the call bar once the page has brought all of it: no icon that moves when its text arrives', async () => {
    const context = await site.newContext({ viewport: { width: 375, height: 812 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const bar = page.getByTestId('call-bar');
    await page.goto(`${site.url}/faq`);
    expect(await bar.getByRole('link', { name: /^Call/ }).isVisible()).toBe(true);
    expect(await bar.getByRole('link', { name: 'Get a quote' }).isVisible()).toBe(true);
    // The page cut where a slow network may pause: after the call link's icon, and after the call link.
    for (const cutAfter of ['<svg', '</a>']) {
      await page.route(`${site.url}/faq`, async (route) => {
        const html = await (await route.fetch()).text();
        const at = html.indexOf(cutAfter, html.indexOf('class="call-bar"'));
        expect(at).toBeGreaterThan(0);
        await route.fulfill({ contentType: 'text/html', body: html.slice(0, html.indexOf('>', at) + 1) });
      });
      await page.goto(`${site.url}/faq`);
      expect(await bar.count(), cutAfter).toBe(1);
      expect(await bar.isVisible(), cutAfter).toBe(false);
      await page.unrouteAll();
    }
    await context.close();
  });

  it('fits the full link list on one line, inside the screen, from 1101 px up', async () => {
    // One page, loaded anew at each width (a new document each time, so nothing carries over).
    const { context, page } = await openPage('/faq', { width: 1101, height: 800 });
    for (const width of [1101, 1280, 1401, 1600]) {
      if (width !== 1101) await reloadAt(page, '/faq', width);
      expect(await menuToggle(page).isVisible(), `${width}`).toBe(false);
      const layout = await page.evaluate(() => {
        const links = [...document.querySelectorAll<HTMLElement>('#main-menu a')];
        return {
          right: Math.max(...links.map((a) => a.getBoundingClientRect().right)),
          tallest: Math.max(...links.map((a) => a.getBoundingClientRect().height)),
          header: document.querySelector<HTMLElement>('[data-testid="site-header"]')?.offsetHeight ?? 0,
        };
      });
      expect(layout.right, `${width}`).toBeLessThanOrEqual(width);
      expect(layout.tallest, `${width}`).toBeLessThan(48);
      expect(layout.header, `${width}`).toBe(72);
      // The brand link is named by the agency (drawn at every width: header-name.test.ts).
      expect(await page.getByRole('link', { name: 'Hartwell Family Insurance' }).count(), `${width}`).toBe(1);
    }
    await context.close();
  });

  it('shows the full link list without a toggle on a wide screen', async () => {
    const { page } = await loadedHome();
    expect(await menuToggle(page).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQs' }).isVisible()).toBe(true);
  });
});

describe('scrolling between routes', () => {
  it('scrolls to the top when following a link to another route', async () => {
    const { context, page } = await openPage('/legal/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByRole('contentinfo').getByRole('link', { name: 'All Legal Documents' }).click();
    await page.waitForURL(`${site.url}/legal`);
    await page.waitForFunction(() => window.scrollY === 0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it('scrolls to the anchor when the address has a hash, also arriving from another page', async () => {
    const { context, page } = await openPage('/legal/privacy-policy');
    await page.getByRole('link', { name: 'Your rights and choices' }).click();
    await page.waitForURL(/#your-choices$/);
    await page.waitForFunction(() => {
      const top = document.getElementById('your-choices')?.getBoundingClientRect().top ?? -1;
      return top >= 0 && top < 200;
    });

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('contentinfo').getByRole('link', { name: 'How It Works' }).click();
    await page.waitForURL(`${site.url}/#how-it-works`);
    await page.waitForFunction(() => {
      const el = document.getElementById('how-it-works');
      if (!el) return false;
      const top = el.getBoundingClientRect().top;
      return top >= 0 && top < 200;
    });
    await context.close();
  });
});

describe('footer', () => {
  /** The contrast ratios (WCAG 2.x) of the footer's Schedule Consultation button, from Chromium's computed styles. */
  async function scheduleButtonContrast(page: Page): Promise<{ text: number; boundary: number }> {
    return page.getByTestId('footer-schedule').evaluate((button) => {
      const rgb = (color: string): number[] => {
        const parts = (color.match(/[\d.]+/g) ?? []).map(Number);
        if (parts.length === 4 && parts[3] !== 1) throw new Error(`a translucent colour, ${color}: compare it over what is behind it`);
        return parts.slice(0, 3);
      };
      const luminance = (color: string): number => {
        const [r = 0, g = 0, b = 0] = rgb(color).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a: string, b: string): number => {
        const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
        return (light + 0.05) / (dark + 0.05);
      };
      const own = getComputedStyle(button);
      const footer = getComputedStyle(button.closest('footer') as HTMLElement).backgroundColor;
      // The button's edge is its border where it has a visible one, else its background.
      const edge = own.borderTopColor !== 'rgba(0, 0, 0, 0)' && own.borderTopWidth !== '0px' ? own.borderTopColor : own.backgroundColor;
      return { text: ratio(own.color, own.backgroundColor), boundary: ratio(edge, footer) };
    });
  }

  it('shows Schedule Consultation as a button a visitor can make out: 4.5:1 for its text, 3:1 for its edge, hovered too', async () => {
    const { context, page } = await openPage('/');
    const button = page.getByTestId('footer-schedule');
    await button.scrollIntoViewIfNeeded();
    expect(await button.getAttribute('href')).toBe('/get-quote');
    const resting = await scheduleButtonContrast(page);
    expect(resting.text).toBeGreaterThanOrEqual(4.5);
    expect(resting.boundary).toBeGreaterThanOrEqual(3);
    await button.hover();
    // Measured once the colour's transition has ended.
    await button.evaluate((el) => Promise.all(el.getAnimations().map((animation) => animation.finished)));
    const hovered = await scheduleButtonContrast(page);
    expect(hovered.text).toBeGreaterThanOrEqual(4.5);
    expect(hovered.boundary).toBeGreaterThanOrEqual(3);
    await context.close();
  });
});

describe('errors and start-up', () => {
  it('shows the not-found page with HTTP 404 for an unknown path', async () => {
    const context = await site.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${site.url}/this/does/not/exist`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Page not found');
    expect(await page.title()).toContain('Page not found');
    expect(await page.getByRole('link', { name: 'Go to the home page' }).count()).toBe(1);
    await context.close();
  });

  it('seeds the two sample quote requests once, and keeps what is already stored', async () => {
    const { context, page } = await openPage('/');
    const seeded = await page.evaluate(() => JSON.parse(localStorage.getItem('quote-requests') ?? 'null') as Array<{ status: string; annualContribution: number }>);
    expect(seeded.map((r) => [r.status, r.annualContribution])).toEqual([
      ['new', 10000],
      ['in-progress', 15000],
    ]);
    await page.evaluate(() => localStorage.setItem('quote-requests', '[]'));
    await page.reload();
    await waitForHydration(page);
    expect(await page.evaluate(() => localStorage.getItem('quote-requests'))).toBe('[]');
    await context.close();
  });

  it('has no accessibility violations in the shell pages', async () => {
    // One page, each path loaded anew in it at 1280 px, then checked again at 375 px.
    const { context, page } = await openPage('/legal');
    for (const path of ['/legal', '/legal/privacy-policy', '/admin/api-keys', '/login', '/legal/disclosures', '/no-such-page']) {
      if (path !== '/legal') await reloadAt(page, path, 1280);
      expect(await axeViolations(page), path).toEqual([]);
      for (const width of [375]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await axeViolations(page), `${path} at ${width}px`).toEqual([]);
      }
    }
    await context.close();
  });
});
