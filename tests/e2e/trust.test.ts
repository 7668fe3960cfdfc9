/**
 * A design that earns trust, as a visitor meets it (issue 19): the headings are set in the site's own
 * typeface, downloaded from the site's origin (preloaded, with its licence served) and nothing from
 * another origin; every footer shows the agency's licence number and the states it is licensed in;
 * each education page says who reviewed it and when, next to its heading; the About page's leaders have
 * drawn portraits named for screen readers; the video facades show drawn posters that fill their fixed
 * boxes; the key figures of the guide and the SEP page carry a note linking to their disclosure; and
 * the home page draws the Tax Train and the seed and the harvest. Without JavaScript where the feature
 * is plain HTML.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, licensedStateNames, productPaths } from '../../contract/site-config';
import { aboutContent } from '../../web/content/about';
import { reviewNote } from '../../web/content/review';
import { testSite } from '../support/site-fixture';

const config = DEFAULT_SITE_CONFIG;
const paths = productPaths(config);
const FONT_FAMILY = 'Source Sans 3 Variable';

const site = testSite();

async function open(pagePath: string, javaScriptEnabled = false, width = 1280): Promise<{ context: BrowserContext; page: Page; requests: string[] }> {
  const context = await site.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${site.url}${pagePath}`, { waitUntil: 'load' });
  return { context, page, requests };
}

const loaded = new Map<string, Promise<Page>>();

/**
 * A page without JavaScript as loaded, shared by the tests that only read it (and scroll to what they
 * read): one load per page and width instead of one per test. Its context is closed with the file's.
 */
function loadedPage(pagePath: string, width = 1280): Promise<Page> {
  const key = `${pagePath} ${width}`;
  let page = loaded.get(key);
  if (!page) {
    page = open(pagePath, false, width).then((opened) => opened.page);
    loaded.set(key, page);
  }
  return page;
}

describe('the typeface', () => {
  it('sets the headings in Source Sans 3, loaded from the site itself, preloaded, with nothing from another origin', async () => {
    const { context, page, requests } = await open('/', true);
    const font = await page.evaluate(async (family) => {
      await document.fonts.ready;
      const faces = [...document.fonts].filter((face) => face.family.replace(/["']/g, '') === family);
      const h1 = document.querySelector('h1');
      return {
        statuses: faces.map((face) => face.status),
        headingFamily: h1 ? getComputedStyle(h1).fontFamily : '',
        bodyFamily: getComputedStyle(document.body).fontFamily,
        rendered: document.fonts.check(`700 40px "${family}"`, 'About'),
        preload: document.querySelector<HTMLLinkElement>('link[rel="preload"][as="font"]')?.href ?? '',
      };
    }, FONT_FAMILY);
    expect(font.statuses).toEqual(['loaded']);
    expect(font.headingFamily.split(',')[0]?.replace(/["']/g, '').trim()).toBe(FONT_FAMILY);
    expect(font.bodyFamily.split(',')[0]?.replace(/["']/g, '').trim()).toBe(FONT_FAMILY);
    expect(font.rendered).toBe(true);
    const fontRequests = requests.filter((url) => url.endsWith('.woff2'));
    expect(fontRequests).toEqual([font.preload]);
    expect(font.preload.startsWith(`${site.url}/`)).toBe(true);
    expect(requests.filter((url) => !url.startsWith(site.url) && !url.startsWith('data:'))).toEqual([]);
    const fontFile = await fetch(font.preload);
    expect(fontFile.headers.get('content-type')).toMatch(/font\/woff2/);
    expect((await fontFile.arrayBuffer()).byteLength).toBeLessThan(40_000);
    await context.close();
  });

  /**
   * Where every box of a phone's first screen starts, in the page as drawn: with the web font, or with
   * its size-matched fallback (the font's request refused). The text is left out (its glyphs differ by
   * design); what it pushes around (the boxes below a heading, an icon beside a line) is what counts.
   */
  async function firstScreenBoxes(pagePath: string, width: number, withFont: boolean): Promise<Map<string, number>> {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
    const page = await context.newPage();
    if (!withFont) await page.route('**/*.woff2', (route) => route.abort());
    await page.goto(`${site.url}${pagePath}`, { waitUntil: 'load' });
    const tops = await page.evaluate(async () => {
      await document.fonts.ready;
      const boxes: Array<[string, number]> = [];
      document.querySelectorAll('body *').forEach((element, index) => {
        const box = element.getBoundingClientRect();
        if (box.width === 0 || box.top > innerHeight || box.bottom < 0) return;
        const name = `${element.tagName.toLowerCase()}${element.getAttribute('class') ? `.${element.getAttribute('class')?.replace(/\s+/g, '.')}` : ''} #${index}`;
        boxes.push([name, Math.round(box.top * 2) / 2]);
      });
      return boxes;
    });
    await context.close();
    return new Map(tops);
  }

  // A late font (it arrives in the moments optional gives it, while the text is still invisible) lays the
  // text out again: if the fallback wraps or sits otherwise, whatever is drawn beside or below it moves,
  // a layout shift Lighthouse counts (CI, 2026-11-29: the SEP page's "Reviewed by" badge, one pixel, as
  // the eyebrow above it sat on the fallback's baseline; the home hero's claims, 35 px, as its bold lead
  // wrapped in a narrower drawn bold).
  for (const [name, pagePath] of [
    ['the home page', '/'],
    ['the guide', paths.ultimateGuide],
    ['the SEP page', paths.sepComparison],
    ['the About page', '/about-us'],
    ['the FAQ', '/faq'],
    ['the blog', '/blog'],
  ] as const) {
    it(`places ${name}'s first screen on a phone the same in the fallback as in the web font`, async () => {
      // At Lighthouse's phone (412 px wide); 375 and 390 px measured the same when this was written (decision 0009).
      const [font, fallback] = await Promise.all([firstScreenBoxes(pagePath, 412, true), firstScreenBoxes(pagePath, 412, false)]);
      const moved = [...font].filter(([box, top]) => fallback.has(box) && fallback.get(box) !== top).map(([box, top]) => `${box}: ${fallback.get(box)} -> ${top}`);
      expect(moved).toEqual([]);
      expect(font.size).toBeGreaterThan(20);
    });
  }

  it('serves the font licence', async () => {
    const res = await fetch(`${site.url}/licenses/source-sans-3-OFL.txt`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('SIL Open Font License, Version 1.1');
  });
});

describe('licence and review', () => {
  it('shows the licence number and the licensed states in every footer and on /about-us, without JavaScript', async () => {
    const states = licensedStateNames(config);
    for (const pagePath of ['/', '/faq', '/blog']) {
      const html = await (await fetch(`${site.url}${pagePath}`)).text();
      const footer = html.slice(html.indexOf('<footer'));
      expect(footer, pagePath).toContain(config.agencyLicenseNumber);
      expect(footer, pagePath).toContain(states);
    }
    const page = await loadedPage('/about-us');
    const licences = page.getByTestId('about-licenses');
    expect(await licences.innerText()).toContain(`license No. ${config.agencyLicenseNumber}`);
    expect(await licences.innerText()).toContain(`Licensed to offer life insurance in ${states}.`);
    expect(await page.locator('footer').getByTestId('footer-licenses').isVisible()).toBe(true);
  });

  it.each([
    { pagePath: '/faq', near: 'h1' },
    { pagePath: paths.ultimateGuide, near: 'h1' },
    { pagePath: paths.sepComparison, near: 'h1' },
    { pagePath: '/', near: '#how-it-works h2' },
  ])('says who reviewed $pagePath and when, next to its heading', async ({ pagePath, near }) => {
    const note = reviewNote();
    const page = await loadedPage(pagePath);
    const line = page.getByTestId('reviewed-by');
    expect(await line.count()).toBe(1);
    await line.scrollIntoViewIfNeeded();
    expect(await line.innerText()).toBe(`Reviewed by ${note.name}, ${note.credentials} on ${note.dateLabel}`);
    expect(await line.locator('time').getAttribute('datetime')).toBe(note.date);
    expect(await line.getByRole('link', { name: note.name }).getAttribute('href')).toBe('/about-us');
    const heading = await page.locator(near).first().boundingBox();
    const box = await line.boundingBox();
    expect(heading && box, 'both are laid out').toBeTruthy();
    if (heading && box) expect(box.y - (heading.y + heading.height)).toBeLessThan(220);
  });

  it('shows the line once the page has brought all of it: read in part, it is not shown', async () => {
    const { context, page } = await open('/faq', false, 375);
    const line = page.getByTestId('reviewed-by');
    expect(await line.isVisible()).toBe(true);
    // The page as a slow network may have brought it at one moment: cut inside the line, before its date.
    await page.route(`${site.url}/faq`, async (route) => {
      const html = await (await route.fetch()).text();
      const at = html.indexOf('Reviewed by', html.indexOf('data-testid="reviewed-by"'));
      expect(at).toBeGreaterThan(0);
      await route.fulfill({ contentType: 'text/html', body: html.slice(0, at + 'Reviewed by'.length) });
    });
    await page.goto(`${site.url}/faq`);
    expect(await line.count()).toBe(1);
    expect(await line.isVisible()).toBe(false);
    await context.close();
  });
});

describe('disclosures beside the figures', () => {
  it.each([
    { pagePath: paths.ultimateGuide, figures: '.guide-facts' },
    { pagePath: paths.sepComparison, figures: '[data-testid="sep-stats"]' },
  ])('qualifies the key figures of $pagePath where they stand and links to the disclosure below', async ({ pagePath, figures }) => {
    const page = await loadedPage(pagePath);
    const note = page.getByTestId('figure-note');
    expect(await note.count()).toBe(1);
    expect(await note.innerText()).toMatch(/not guarantees/);
    const [figureBox, noteBox] = [await page.locator(figures).boundingBox(), await note.boundingBox()];
    expect(figureBox && noteBox).toBeTruthy();
    if (figureBox && noteBox) expect(noteBox.y - (figureBox.y + figureBox.height)).toBeLessThan(80);
    const href = (await note.getByRole('link').getAttribute('href')) ?? '';
    const target = page.locator(href);
    expect(await target.count()).toBe(1);
    expect(await target.evaluate((el) => el.closest('section')?.textContent ?? el.textContent)).toMatch(/not guarantee/i);
  });

  it.each([paths.ultimateGuide, paths.sepComparison])('lands on the disclosure text itself when "Read the disclosures" is followed on %s without JavaScript', async (pagePath) => {
    const { context, page } = await open(pagePath);
    await page.getByTestId('figure-note').getByRole('link', { name: 'Read the disclosures' }).click();
    await page.waitForFunction(() => document.querySelector(':target') !== null);
    const landing = page.locator(':target');
    // The element the address names holds the wording, not only a heading above it...
    const text = await landing.evaluate((el) => el.textContent ?? '');
    for (const wording of [/projections/i, /not guaranteed?/i, /not a solicitation/i]) expect(text).toMatch(wording);
    // ...and the reader is taken to it.
    expect(await landing.isVisible()).toBe(true);
    const box = await landing.boundingBox();
    expect(box && box.y).toBeLessThan(800);
    await context.close();
  });
});

describe('pictures', () => {
  it('draws the leaders on /about-us as named portraits in their own colours', async () => {
    const page = await loadedPage('/about-us');
    const leaders = aboutContent(config).leadership.leaders;
    const fills: string[] = [];
    for (const leader of leaders) {
      const portrait = page.getByRole('img', { name: `Portrait of ${leader.name}` });
      expect(await portrait.isVisible()).toBe(true);
      const box = await portrait.boundingBox();
      expect(box?.width).toBeGreaterThan(60);
      fills.push((await portrait.locator('rect').first().getAttribute('fill')) ?? '');
    }
    expect(new Set(fills).size).toBe(leaders.length);
  });

  it.each([
    { pagePath: '/', width: 1280, facade: 'video-portrait', scene: 'growth', ratio: 16 / 9 },
    { pagePath: '/', width: 375, facade: 'video-landscape', scene: 'growth', ratio: 2 / 3 },
    { pagePath: '/get-quote', width: 1280, facade: 'video-landscape', scene: 'illustration', ratio: 2 / 3 },
  ])('draws a poster that fills the $facade facade on $pagePath at $width px', async ({ pagePath, width, facade, scene, ratio }) => {
    const page = await loadedPage(pagePath, width);
    const box = page.getByTestId(facade).first();
    await box.scrollIntoViewIfNeeded();
    const art = box.getByTestId('video-poster-art');
    expect(await art.getAttribute('data-scene')).toBe(scene);
    expect(await art.locator('path, rect, circle').count()).toBeGreaterThan(5);
    const [outer, inner] = [await box.boundingBox(), await art.boundingBox()];
    expect(outer && inner).toBeTruthy();
    if (outer && inner) {
      expect(Math.abs(outer.height / outer.width - ratio)).toBeLessThan(0.01);
      expect(inner).toEqual(outer);
    }
    expect(await box.getByRole('link', { name: /^Play video: / }).innerText()).toMatch(/\S/);
  });

  it('draws the Tax Train and the seed and the harvest on the home page, from the figures of the copy', async () => {
    const page = await loadedPage('/');
    const train = page.getByTestId('tax-train-art');
    await train.scrollIntoViewIfNeeded();
    expect(await train.isVisible()).toBe(true);
    expect(await train.locator('text').allTextContents()).toEqual(expect.arrayContaining(['Past', '70%', 'Present', '37%', 'Future']));
    const harvest = page.getByTestId('seed-harvest-art');
    await harvest.scrollIntoViewIfNeeded();
    expect(await harvest.isVisible()).toBe(true);
    const words = (await harvest.locator('text').allTextContents()).join(' | ');
    expect(words).toContain('Seed $100,000');
    expect(words).toContain('Harvest $1,006,266');
    expect(words).toContain('30 years at a hypothetical 8%');
  });
});

describe('framing', () => {
  it("stays out of another site's frame: the page's policy (frame-ancestors) is what refuses it", async () => {
    const context = await site.newContext({ javaScriptEnabled: true });
    const page = await context.newPage();
    // A page of another origin (the same server under another host name) framing the FAQ twice: as the
    // server sends it, and as the server sends it with its Content-Security-Policy header taken out.
    const other = new URL(site.url);
    other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    await page.route(`${other.origin}/framer`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>framer</title><iframe name="page" src="${site.url}/faq"></iframe><iframe name="bare" src="${site.url}/faq?without-policy"></iframe>`,
      }),
    );
    await page.route(`${site.url}/faq?without-policy`, async (route) => {
      const response = await route.fetch();
      const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => name !== 'content-security-policy'));
      await route.fulfill({ response, headers });
    });
    await page.goto(`${other.origin}/framer`, { waitUntil: 'load' });
    // Chromium shows its own error page in place of a refused frame: none of the site's page is in it.
    const framed = page.frame({ name: 'page' });
    expect(framed?.url()).toBe('chrome-error://chromewebdata/');
    expect(await framed?.locator('main#main').count()).toBe(0);
    // Without the policy nothing else the server sends (no X-Frame-Options any more) keeps the page out.
    const bare = page.frame({ name: 'bare' });
    expect(bare?.url()).toBe(`${site.url}/faq?without-policy`);
    expect(await bare?.locator('main#main').count()).toBe(1);
    await context.close();
  });
});
