/**
 * Cover images on the site, over real HTTP and in Chromium. A photo uploaded with POST /api/media and
 * named as a post's cover_image is shown above the post (a `<picture>` with AVIF and WebP sources, a
 * high-priority `<img>` whose box is reserved before it loads: no layout shift), as the thumbnail of
 * its card on /blog, its category page and the home page's "Latest articles" (lazily but for the first
 * card of a list), as the Open Graph image
 * and in the JSON-LD `image` beside the publisher's logo (which answers as a PNG). A post without a
 * cover gets the drawn stand-in on its cards (its category's own drawing, no image request) and keeps
 * the small Twitter card.
 */
import sharp from 'sharp';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST_IMAGE_SIZES, type MediaResponse } from '../../contract/media';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { CARD_IMAGE_SIZES } from '../../web/components/blog/cover';
import { call, validPost } from '../api/support';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';

const SITE = DEFAULT_SITE_CONFIG.siteUrl;
const COVER_ALT = 'A family reviewing a policy illustration at the kitchen table';

const site = testSite();
let media: MediaResponse;
let covered: string;
let plain: string;

/** Posts without a cover, older than the rest: one in each built-in category but Retirement Planning's, and one that maps to uncategorized. */
const UNCOVERED_ELSEWHERE = [
  ['What a Premium Pays For', 'Insurance Basics'],
  ['Caps, Floors and Participation Rates', 'IUL Strategies'],
  ['Reading an Illustration Line by Line', 'Financial Education'],
  ['Why Tax Diversification Matters', 'Tax Benefits'],
  ['A Note From the Office', 'Office News'],
] as const;

/** A 1200x800 JPEG with some texture (a flat colour would encode to almost nothing). */
function photo(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 40, g: 90, b: 140 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

async function createPost(key: string, overrides: Record<string, unknown>): Promise<string> {
  const res = await call<{ post: { slug: string } }>(site.server, 'POST', '/api/blog', { key, body: validPost({ status: 'published', ...overrides }) });
  expect(res.status, res.text).toBe(201);
  return res.json.post.slug;
}

beforeAll(async () => {
  const key = await site.server.createKey('cover-tests');
  const upload = await call<MediaResponse>(site.server, 'POST', '/api/media', { key, body: await photo(), headers: { 'content-type': 'image/jpeg' } });
  expect(upload.status, upload.text).toBe(201);
  media = upload.json;
  // Oldest, without covers: one in each category the posts below leave out, and one in no built-in category.
  for (const [title, category] of UNCOVERED_ELSEWHERE) await createPost(key, { title, category });
  // Newest first on every list: the covered post, the plain one, then an older covered one.
  await createPost(key, { title: 'An Older Article With the Same Cover', category: 'Tax Benefits', cover_image: media.id, cover_image_alt: COVER_ALT });
  plain = await createPost(key, { title: 'Roth Conversions Without a Picture', category: 'Retirement Planning' });
  covered = await createPost(key, { title: 'How Policy Loans Work', category: 'Tax Benefits', cover_image: media.id, cover_image_alt: COVER_ALT });
});

async function html(pagePath: string): Promise<string> {
  const res = await fetch(`${site.url}${pagePath}`);
  expect(res.status).toBe(200);
  return res.text();
}

function jsonLd(page: string): Array<Record<string, unknown>> {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>);
}

function metaContent(page: string, name: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)"`).exec(page);
  return match ? (match[1] ?? '').replace(/&amp;/g, '&') : null;
}

/** What the browser made of a `<picture>`: its sources, the img's attributes, what it loaded and its box. */
async function pictureState(picture: Locator) {
  return picture.evaluate((picture) => {
    const img = picture.querySelector('img') as HTMLImageElement;
    const box = img.getBoundingClientRect();
    return {
      sources: [...picture.querySelectorAll('source')].map((s) => ({ type: s.type, srcset: s.srcset, sizes: s.sizes })),
      src: img.getAttribute('src'),
      alt: img.getAttribute('alt'),
      loading: img.getAttribute('loading'),
      decoding: img.getAttribute('decoding'),
      fetchpriority: img.getAttribute('fetchpriority'),
      width: img.getAttribute('width'),
      height: img.getAttribute('height'),
      complete: img.complete,
      naturalWidth: img.naturalWidth,
      currentSrc: img.currentSrc,
      box: { width: box.width, height: box.height },
    };
  });
}

/**
 * Waits until an image has loaded, asking from here: without JavaScript the page runs no callbacks
 * (no load event, no animation frame), but its state can still be read.
 */
async function loaded(img: Locator): Promise<void> {
  for (let tries = 0; tries < 100; tries += 1) {
    if (await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The image ${await img.getAttribute('src')} did not load within 10 s`);
}

describe('the post page', () => {
  it('renders the cover as a picture with AVIF and WebP sources, sized, eager and high priority', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/blog/${covered}`, { waitUntil: 'load' });
    const state = await pictureState(page.locator('[data-testid="post-cover"] picture'));
    expect(state.sources).toEqual([
      { type: 'image/avif', srcset: media.srcset_avif, sizes: POST_IMAGE_SIZES },
      { type: 'image/webp', srcset: media.srcset, sizes: POST_IMAGE_SIZES },
    ]);
    expect(state).toMatchObject({ src: media.url, alt: COVER_ALT, loading: null, decoding: 'async', fetchpriority: 'high', complete: true });
    expect(Number(state.width) / Number(state.height)).toBeCloseTo(1200 / 800, 2);
    expect(state.naturalWidth).toBeGreaterThan(0);
    // Chromium takes the first source it can show: AVIF, at a width the srcset offers.
    expect(state.currentSrc).toMatch(/\/media\/[0-9a-f]{32}-\d+\.avif$/);
    expect(state.box.height).toBeCloseTo((state.box.width * 800) / 1200, 0);
    await context.close();
  });

  it('keeps its layout while the cover loads: the box is reserved, nothing moves, no layout shift', async () => {
    const context = await site.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      const scope = window as unknown as { cls: number };
      scope.cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
          if (!entry.hadRecentInput) scope.cls += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const page = await context.newPage();
    // Hold the cover's bytes back until the page has been measured without them.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/media/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${site.url}/blog/${covered}`, { waitUntil: 'domcontentloaded' });
    const content = page.locator('.post-content');
    const before = await pictureState(page.locator('[data-testid="post-cover"] picture'));
    const contentTop = await content.evaluate((el) => el.getBoundingClientRect().top);
    expect(before.complete).toBe(false);
    expect(before.box.height).toBeGreaterThan(200);
    release();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="post-cover"] img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const after = await pictureState(page.locator('[data-testid="post-cover"] picture'));
    expect(after.box).toEqual(before.box);
    expect(await content.evaluate((el) => el.getBoundingClientRect().top)).toBe(contentTop);
    expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
    await context.close();
  });

  it('names the cover as the Open Graph image and in the JSON-LD, with the publisher logo, all absolute', async () => {
    const page = await html(`/blog/${covered}`);
    const ogImage = metaContent(page, 'og:image');
    expect(ogImage).toBe(`${SITE}${media.url}`);
    expect(metaContent(page, 'og:image:width')).toBe(String(media.variants.find((v) => v.url === media.url)?.width));
    expect(metaContent(page, 'og:image:height')).toBe(String(media.variants.find((v) => v.url === media.url)?.height));
    expect(metaContent(page, 'og:image:alt')).toBe(COVER_ALT);
    expect(metaContent(page, 'og:image:type')).toBe('image/jpeg');
    expect(metaContent(page, 'twitter:card')).toBe('summary_large_image');
    const article = jsonLd(page).find((d) => d['@type'] === 'BlogPosting');
    expect(article).toMatchObject({
      image: [{ '@type': 'ImageObject', url: `${SITE}${media.url}`, width: expect.any(Number), height: expect.any(Number) }],
      publisher: { logo: { '@type': 'ImageObject', url: `${SITE}/logo.png`, width: 512, height: 512 } },
    });
    // The OG image is the very file the URL names: its size is what the tags say.
    const served = await fetch(`${site.url}${new URL(ogImage ?? '').pathname}`);
    expect(served.status).toBe(200);
    const size = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([Number(metaContent(page, 'og:image:width')), Number(metaContent(page, 'og:image:height'))]);
  });

  it('serves the logo as a 512x512 PNG; a post without a cover has the logo but no image and the small card', async () => {
    const logo = await fetch(`${site.url}/logo.png`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
    const page = await html(`/blog/${plain}`);
    expect(metaContent(page, 'og:image')).toBeNull();
    expect(metaContent(page, 'twitter:card')).toBe('summary');
    expect(page).not.toContain('data-testid="post-cover"');
    const article = jsonLd(page).find((d) => d['@type'] === 'BlogPosting');
    expect(article).not.toHaveProperty('image');
    expect(article).toMatchObject({ publisher: { logo: { url: `${SITE}/logo.png` } } });
  });
});

describe('the cards', () => {
  /** The card whose title is `title`, scrolled to: its thumbnail once loaded, or its stand-in. */
  async function card(page: Page, title: string) {
    const found = page.getByTestId('post-card').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await found.scrollIntoViewIfNeeded();
    const picture = found.locator('[data-testid="post-card-image"] picture');
    const fallback = found.getByTestId('post-card-fallback');
    if ((await picture.count()) > 0) await loaded(picture.locator('img'));
    return {
      picture: (await picture.count()) > 0 ? await pictureState(picture) : null,
      fallback: (await fallback.count()) > 0 ? { text: (await fallback.textContent())?.trim(), images: await fallback.locator('img').count(), box: await fallback.boundingBox() } : null,
    };
  }

  for (const [where, pagePath, first] of [
    ['the blog list', '/blog', 'eager'],
    ['the category page', '/blog/category/tax-benefits', 'eager'],
    ['the home strip', '/', 'lazy'],
  ] as const) {
    it(`shows the covers as thumbnails on ${where}, lazy but for a list's first card, without JavaScript`, async () => {
      const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${site.url}${pagePath}`);
      const newest = (await card(page, 'How Policy Loans Work')).picture;
      const older = (await card(page, 'An Older Article With the Same Cover')).picture;
      for (const picture of [newest, older]) {
        expect(picture).toMatchObject({
          sources: [
            { type: 'image/avif', srcset: media.srcset_avif, sizes: CARD_IMAGE_SIZES },
            { type: 'image/webp', srcset: media.srcset, sizes: CARD_IMAGE_SIZES },
          ],
          src: media.url,
          alt: '',
          decoding: 'async',
          fetchpriority: null,
        });
        expect(picture?.naturalWidth).toBeGreaterThan(0);
        // Cropped to the cards' 16:9 whatever the photo's shape.
        expect(picture?.box.height).toBeCloseTo(((picture?.box.width ?? 0) * 9) / 16, 0);
      }
      // The first card of the blog list or a category is in a phone's first screen: not lazy there.
      expect(newest?.loading).toBe(first === 'eager' ? null : 'lazy');
      expect(older?.loading).toBe('lazy');
      await context.close();
    });
  }

  it("draws each category its own picture on /blog, and shows a post's cover where it has one", async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/blog`);
    const drawn = new Map<string, { scene: string | null; markup: string; hidden: string | null; box: { width: number; height: number } | null }>();
    for (const title of ['Roth Conversions Without a Picture', ...UNCOVERED_ELSEWHERE.map(([t]) => t)]) {
      const found = page.getByTestId('post-card').filter({ has: page.getByRole('link', { name: title, exact: true }) });
      const fallback = found.getByTestId('post-card-fallback');
      const art = fallback.getByTestId('category-illustration');
      drawn.set((await fallback.getAttribute('data-category')) ?? '', {
        scene: await art.getAttribute('data-illustration'),
        markup: await art.innerHTML(),
        hidden: await fallback.getAttribute('aria-hidden'),
        box: await fallback.boundingBox(),
      });
    }
    expect([...drawn.keys()].sort()).toEqual(['financial-education', 'insurance-basics', 'iul-strategies', 'retirement-planning', 'tax-benefits', 'uncategorized']);
    // Five categories and the rest, six different drawings: named differently and drawn differently.
    expect(new Set([...drawn.values()].map((d) => d.scene)).size).toBe(6);
    expect(new Set([...drawn.values()].map((d) => d.markup)).size).toBe(6);
    for (const [category, d] of drawn) {
      expect(d.hidden, category).toBe('true');
      expect(d.box && d.box.height / d.box.width, category).toBeCloseTo(9 / 16, 2);
    }
    // The covered posts show their cover, not a drawing.
    for (const title of ['How Policy Loans Work', 'An Older Article With the Same Cover']) {
      const found = page.getByTestId('post-card').filter({ has: page.getByRole('link', { name: title, exact: true }) });
      expect(await found.getByTestId('post-card-fallback').count(), title).toBe(0);
      expect(await found.locator('[data-testid="post-card-image"] img').getAttribute('src'), title).toBe(media.url);
    }
    await context.close();
  });

  it('gives a post without a cover the drawn stand-in: its category, no image, the same box as a cover', async () => {
    const context = await site.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'image') requests.push(request.url());
    });
    await page.goto(`${site.url}/blog`);
    const withCover = await card(page, 'How Policy Loans Work');
    const without = await card(page, 'Roth Conversions Without a Picture');
    expect(without.picture).toBeNull();
    expect(without.fallback).toMatchObject({ text: 'Retirement Planning', images: 0 });
    expect(without.fallback?.box?.height).toBeCloseTo(withCover.picture?.box.height ?? 0, 0);
    expect(without.fallback?.box?.width).toBeCloseTo(withCover.picture?.box.width ?? 0, 0);
    // Only the cover's thumbnail was fetched: the stand-in is CSS and inline SVG.
    expect(requests.every((url) => new URL(url).pathname.startsWith('/media/'))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
