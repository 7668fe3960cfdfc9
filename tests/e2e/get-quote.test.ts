/**
 * /get-quote in real Chromium, offline: every request leaving the test server is answered by the test
 * (page.route) or aborted. Checks that neither the booking provider nor the video host is contacted
 * before the visitor asks; that the form and video openers are links to their own pages (followed
 * without JavaScript, or on a Ctrl or middle click) and a plain click opens them in place (one made
 * before the app has loaded shows the link as opening, and the app opens it when it takes over); that the click inserts the iframe (src, title, 800px / 600px, lazy)
 * and then the embed script; the phone fallback when the script fails or the frame never loads; the
 * video facade; the Service JSON-LD with a free Offer; and axe at 1280 and 375 px.
 */
import type { BrowserContext, Locator, Page, Route as PlaywrightRoute } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BOOKING_LOAD_TIMEOUT_MS, quoteContent } from '../../web/content/get-quote';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { nextFrames, waitForHydration } from '../support/page';

const config = DEFAULT_SITE_CONFIG;
const content = quoteContent(config);
const THIRD_PARTY_ORIGINS = [config.bookingFormUrl, config.bookingScriptUrl, config.videoHost].map((url) => new URL(url).origin);
/** The quote video's own page on the hosting service (the privacy-enhanced host has none of its own). */
const VIDEO_PAGE = `https://www.youtube.com/watch?v=${config.quoteVideoId}`;

/** A small, accessible stand-in for the provider's form. */
const FAKE_FORM_HTML =
  '<!doctype html><html lang="en"><head><title>Booking form</title></head><body><h1>Book a time</h1><p>Test form</p></body></html>';

type ExternalHandler = (route: PlaywrightRoute, url: URL) => Promise<void> | void;

interface Opened {
  context: BrowserContext;
  page: Page;
  requests: string[];
  errors: string[];
}

const site = testSite();

/**
 * Opens /get-quote with every request recorded; requests to other origins go to `external`
 * (aborted by default), so nothing reaches the internet.
 */
async function openQuote(
  options: { viewport?: { width: number; height: number }; external?: ExternalHandler; beforeGoto?: (page: Page) => Promise<void> } = {},
): Promise<Opened> {
  const context = await site.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const local = new URL(site.url).origin;
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin === local) return route.continue();
    if (options.external) return options.external(route, url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  await options.beforeGoto?.(page);
  await page.goto(`${site.url}/get-quote`);
  await waitForHydration(page);
  return { context, page, requests, errors };
}

/** The provider answered: the form page and an empty script. */
const providerWorks: ExternalHandler = (route, url) => {
  const href = url.href;
  if (href === config.bookingFormUrl) return route.fulfill({ status: 200, contentType: 'text/html', body: FAKE_FORM_HTML });
  if (href === config.bookingScriptUrl) return route.fulfill({ status: 200, contentType: 'text/javascript', body: 'window.__bookingScriptRan = true;' });
  return route.abort();
};

/** The provider answered, and so does the video's own page. */
const providerAndVideoWork: ExternalHandler = (route, url) => {
  if (url.href === VIDEO_PAGE) return route.fulfill({ status: 200, contentType: 'text/html', body: FAKE_VIDEO_PAGE_HTML });
  return providerWorks(route, url);
};

/** A stand-in for the video's page on the hosting service. */
const FAKE_VIDEO_PAGE_HTML = '<!doctype html><html lang="en"><head><title>Video</title></head><body><h1>The video page</h1></body></html>';

/** The form page loads but the provider's script is blocked. */
const scriptBlocked: ExternalHandler = (route, url) => {
  if (url.href === config.bookingFormUrl) return route.fulfill({ status: 200, contentType: 'text/html', body: FAKE_FORM_HTML });
  return route.abort('blockedbyclient');
};

function thirdPartyRequests(requests: readonly string[]): string[] {
  return requests.filter((url) => THIRD_PARTY_ORIGINS.includes(new URL(url).origin));
}

/** Records the order in which the booking iframe and script enter the document. */
async function watchInsertions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const order: string[] = [];
    const seen = new WeakSet<Element>();
    (window as unknown as { __insertions: string[] }).__insertions = order;
    new MutationObserver((mutations) => {
      for (const mutation of mutations) {
        for (const node of mutation.addedNodes) {
          if (!(node instanceof Element)) continue;
          for (const el of [node, ...node.querySelectorAll('iframe, script')]) {
            if (seen.has(el) || (el.tagName !== 'IFRAME' && el.tagName !== 'SCRIPT')) continue;
            seen.add(el);
            order.push(`${el.tagName.toLowerCase()} ${el.getAttribute('src') ?? ''}`);
          }
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
}

describe('quote page: server-rendered head and copy', () => {
  it('serves the title, "free" and Service JSON-LD with an Offer at 0 USD, and no embed, in the raw HTML', async () => {
    const res = await fetch(`${site.url}/get-quote`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<title>[^<]*Free IUL Illustration[^<]*<\/title>/);
    expect(html).toContain('Free, no obligation');
    expect(html).toContain(content.form.openLabel);
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1] ?? 'null') as { '@type': string; name?: string; offers?: { '@type': string; price: string; priceCurrency: string } },
    );
    const service = blocks.find((b) => b['@type'] === 'Service');
    expect(service?.name).toBe(content.service.name);
    expect(service?.offers).toMatchObject({ '@type': 'Offer', price: '0', priceCurrency: 'USD' });
    // The page itself carries neither the form frame nor the provider's script before a click.
    expect(html).not.toMatch(/<iframe/);
    expect(html).not.toContain(`src="${config.bookingScriptUrl}"`);
    for (const item of content.inclusions.items) expect(html, item.title).toContain(item.title);
    expect(html).toContain(content.inclusions.projectionNote);
  });
});

describe('quote page without JavaScript', () => {
  it('links the scheduling form and the video to their own pages, in the same tab', async () => {
    const context = await site.newContext({ javaScriptEnabled: false, viewport: { width: 375, height: 800 } });
    const local = new URL(site.url).origin;
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      return url.origin === local ? route.continue() : providerAndVideoWork(route, url);
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/get-quote`);
    const form = page.getByRole('link', { name: content.form.openLabel });
    expect(await form.getAttribute('href')).toBe(config.bookingFormUrl);
    expect(await form.getAttribute('target')).toBeNull();
    await form.click();
    await page.waitForURL(config.bookingFormUrl);
    expect(await page.getByRole('heading', { name: 'Book a time' }).isVisible()).toBe(true);

    await page.goto(`${site.url}/get-quote`);
    const poster = page.getByTestId('video-landscape').getByRole('link', { name: `Play video: ${content.video.title}` });
    expect(await poster.getAttribute('href')).toBe(VIDEO_PAGE);
    // Still the fixed 3:2 box, filled by the poster link.
    const [box, link] = [await page.getByTestId('video-landscape').boundingBox(), await poster.boundingBox()];
    expect(box && link && box.height / box.width).toBeCloseTo(2 / 3, 2);
    expect(link).toEqual(box);
    await poster.click();
    await page.waitForURL(VIDEO_PAGE);
    expect(await page.getByRole('heading', { name: 'The video page' }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('quote page in the browser', () => {
  it('requests nothing from the booking provider or the video host before the visitor asks', async () => {
    const { context, page, requests, errors } = await openQuote({ external: providerWorks });
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await nextFrames(page);
    expect(thirdPartyRequests(requests)).toEqual([]);
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await page.locator(`script[src="${config.bookingScriptUrl}"]`).count()).toBe(0);
    expect(await page.getByTestId('booking-embed').getAttribute('data-state')).toBe('closed');
    expect(await page.getByTestId('booking-facade').innerText()).toContain(content.form.stepsHeading);
    expect(await page.getByTestId('quote-form-steps').locator('li').count()).toBe(content.form.steps.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says the illustration is free, lists what it includes and keeps a phone fallback beside the form', async () => {
    const { context, page } = await openQuote();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('Free IUL Illustration');
    const badge = page.getByTestId('quote-free-badge');
    expect(await badge.isVisible()).toBe(true);
    expect(await badge.innerText()).toMatch(/Free, no obligation/);
    expect(await page.getByTestId('quote-inclusion').count()).toBe(6);
    expect(await page.getByTestId('quote-projection-note').innerText()).toMatch(/projections, not guarantees/);
    const phone = page.getByTestId('quote-phone-fallback');
    expect(await phone.isVisible()).toBe(true);
    expect(await phone.innerText()).toContain(`Prefer to talk? Call ${config.phoneDisplay}`);
    expect(await phone.getByRole('link', { name: config.phoneDisplay }).getAttribute('href')).toBe(`tel:${config.phoneE164}`);

    // Beside the form on a wide screen; above it on a phone, so the 800px form never hides it.
    const embed = page.getByTestId('booking-embed');
    const [phoneBox, embedBox] = [await phone.boundingBox(), await embed.boundingBox()];
    if (!phoneBox || !embedBox) throw new Error('phone card or form not laid out');
    expect(phoneBox.x).toBeGreaterThanOrEqual(embedBox.x + embedBox.width);
    expect(phoneBox.y).toBeLessThan(embedBox.y + embedBox.height);
    await page.setViewportSize({ width: 375, height: 800 });
    const [narrowPhone, narrowEmbed] = [await phone.boundingBox(), await embed.boundingBox()];
    if (!narrowPhone || !narrowEmbed) throw new Error('phone card or form not laid out');
    expect(narrowPhone.y + narrowPhone.height).toBeLessThanOrEqual(narrowEmbed.y);
    await context.close();
  });

  it('inserts the iframe and then the provider script when the visitor opens the form', async () => {
    const { context, page, requests, errors } = await openQuote({ external: providerWorks });
    await watchInsertions(page);
    await page.getByRole('link', { name: content.form.openLabel }).click();

    const frame = page.getByTestId('booking-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(config.bookingFormUrl);
    expect(await frame.getAttribute('title')).toBe(content.form.frameTitle);
    expect(await frame.getAttribute('loading')).toBe('lazy');
    const size = await frame.evaluate((el) => ({
      height: (el as HTMLElement).style.height,
      minHeight: (el as HTMLElement).style.minHeight,
      computedHeight: getComputedStyle(el).height,
      computedMinHeight: getComputedStyle(el).minHeight,
    }));
    expect(size).toEqual({ height: '800px', minHeight: '600px', computedHeight: '800px', computedMinHeight: '600px' });

    const script = page.locator(`script[src="${config.bookingScriptUrl}"]`);
    await script.waitFor({ state: 'attached' });
    expect(await script.evaluate((el) => (el as HTMLScriptElement).async)).toBe(true);
    // The script sits after the iframe in the document and was inserted after it.
    expect(await page.evaluate(() => {
      const iframe = document.querySelector('[data-testid="booking-frame"]');
      const s = document.querySelector('[data-testid="booking-script-slot"] script');
      return Boolean(iframe && s && iframe.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING);
    })).toBe(true);
    const insertions = await page.evaluate(() => (window as unknown as { __insertions: string[] }).__insertions);
    expect(insertions).toEqual([`iframe ${config.bookingFormUrl}`, `script ${config.bookingScriptUrl}`]);

    await page.waitForFunction(() => document.querySelector('[data-testid="booking-embed"]')?.getAttribute('data-state') === 'ready');
    expect(await page.evaluate(() => (window as unknown as { __bookingScriptRan?: boolean }).__bookingScriptRan)).toBe(true);
    expect(thirdPartyRequests(requests)).toEqual(expect.arrayContaining([config.bookingFormUrl, config.bookingScriptUrl]));
    expect(await page.getByTestId('booking-fallback').count()).toBe(0);
    expect(await page.getByTestId('quote-phone-fallback').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the phone and e-mail fallback when the provider script cannot load', async () => {
    const { context, page } = await openQuote({ external: scriptBlocked });
    await page.getByRole('link', { name: content.form.openLabel }).click();
    const fallback = page.getByTestId('booking-fallback');
    await fallback.waitFor();
    expect(await fallback.getAttribute('role')).toBe('alert');
    expect(await fallback.getByRole('heading').innerText()).toBe(content.form.fallbackHeading);
    expect(await fallback.getByTestId('booking-fallback-phone').getAttribute('href')).toBe(`tel:${config.phoneE164}`);
    expect(await fallback.getByTestId('booking-fallback-email').getAttribute('href')).toBe(`mailto:${config.email}`);
    expect(await page.getByTestId('booking-embed').getAttribute('data-state')).toBe('failed');
    await context.close();
  });

  it('shows the fallback when the form fires no load event within 15 seconds', async () => {
    const pending: PlaywrightRoute[] = [];
    const { context, page } = await openQuote({
      // The form's request never answers; the script loads.
      external: (route, url) => {
        if (url.href === config.bookingFormUrl) {
          pending.push(route);
          return;
        }
        return providerWorks(route, url);
      },
      beforeGoto: (p) => p.clock.install(),
    });
    // The page's clock stops before the click, so the form's 15 s are counted by the test alone, not by
    // the real seconds a busy machine takes between the click and the checks.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));
    await page.getByRole('link', { name: content.form.openLabel }).click();
    await page.locator(`script[src="${config.bookingScriptUrl}"]`).waitFor({ state: 'attached' });
    // The form's request reaches the route handler through the browser's protocol, which a busy machine
    // delays: the clock moves only once the request is held, so the fallback below is the timeout's.
    await expect.poll(() => pending.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await page.clock.fastForward(BOOKING_LOAD_TIMEOUT_MS - 1_000);
    expect(await page.getByTestId('booking-embed').getAttribute('data-state')).toBe('loading');
    expect(await page.getByTestId('booking-fallback').count()).toBe(0);
    await page.clock.fastForward(1_500);
    await page.getByTestId('booking-fallback').waitFor();
    expect(await page.getByTestId('booking-fallback-phone').getAttribute('href')).toBe(`tel:${config.phoneE164}`);
    await Promise.all(pending.map((route) => route.abort().catch(() => undefined)));
    await context.close();
  });

  it('swaps the video facade for the player only on click', async () => {
    const { context, page, requests } = await openQuote();
    const video = page.getByTestId('video-landscape');
    expect(await video.locator('iframe').count()).toBe(0);
    expect(await video.evaluate((el) => (el as HTMLElement).style.paddingBottom)).toBe('66.67%');
    expect(thirdPartyRequests(requests)).toEqual([]);
    await video.getByRole('link', { name: `Play video: ${content.video.title}` }).click();
    const player = video.locator('iframe');
    await player.waitFor({ state: 'attached' });
    expect(await player.getAttribute('src')).toMatch(new RegExp(`^${config.videoHost.replace(/[.]/g, '\\.')}/embed/${config.quoteVideoId}\\?`));
    expect(await player.getAttribute('title')).toBe(content.video.title);
    // What the page's Permissions-Policy and the player's allow attribute give the player's frame
    // (Chromium's featurePolicy introspection, at the player's own origin): what a video needs, and
    // none of the features the site turns off.
    const granted = await player.evaluate((frame) => {
      const policy = (frame as HTMLIFrameElement & { featurePolicy: { allowsFeature(feature: string, origin?: string): boolean } }).featurePolicy;
      const origin = new URL((frame as HTMLIFrameElement).src).origin;
      const features = ['autoplay', 'encrypted-media', 'picture-in-picture', 'fullscreen', 'accelerometer', 'gyroscope', 'camera', 'microphone', 'geolocation', 'payment'];
      return Object.fromEntries(features.map((feature) => [feature, policy.allowsFeature(feature, origin)]));
    });
    expect(granted).toEqual({
      autoplay: true,
      'encrypted-media': true,
      'picture-in-picture': true,
      fullscreen: true,
      accelerometer: true,
      gyroscope: true,
      camera: false,
      microphone: false,
      geolocation: false,
      payment: false,
    });
    await context.close();
  });

  it('opens the form and the video in place on a plain click, and in a new tab on a Ctrl or middle click', async () => {
    const { context, page, errors } = await openQuote({ external: providerAndVideoWork });
    const here = page.url();
    const form = page.getByRole('link', { name: content.form.openLabel });
    const video = page.getByTestId('video-landscape');
    const poster = video.getByRole('link', { name: `Play video: ${content.video.title}` });

    // Ctrl/Cmd or the middle button opens the link in a new tab, as on any link: the click is left to the
    // browser (not prevented), a tab opens, and this page stays as it was. (The new tab's own request is
    // not routed by Playwright, so where it leads is read from the click's link.)
    await page.evaluate(() => {
      const seen: Array<{ type: string; href: string | undefined; prevented: boolean }> = [];
      (window as unknown as { __linkClicks: typeof seen }).__linkClicks = seen;
      for (const type of ['click', 'auxclick']) {
        window.addEventListener(type, (event) => {
          seen.push({ type, href: (event.target as Element).closest('a')?.href, prevented: event.defaultPrevented });
        });
      }
    });
    const elsewhere: Array<[Locator, Parameters<Locator['click']>[0]]> = [
      [form, { modifiers: ['ControlOrMeta'] }],
      [poster, { button: 'middle' }],
    ];
    for (const [link, options] of elsewhere) {
      const tab = context.waitForEvent('page');
      await link.click(options);
      await (await tab).close();
    }
    expect(await page.evaluate(() => (window as unknown as { __linkClicks: unknown[] }).__linkClicks)).toEqual([
      { type: 'click', href: config.bookingFormUrl, prevented: false },
      { type: 'auxclick', href: VIDEO_PAGE, prevented: false },
    ]);
    await nextFrames(page);
    expect(page.url()).toBe(here);
    expect(await page.getByTestId('booking-embed').getAttribute('data-state')).toBe('closed');
    expect(await page.locator('iframe').count()).toBe(0);

    // A plain click keeps the visitor on the page and opens each in place.
    await form.click();
    await page.getByTestId('booking-frame').waitFor();
    await poster.click();
    await video.locator('iframe').waitFor({ state: 'attached' });
    expect(page.url()).toBe(here);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a click on the form link made before the app has loaded as opening, and opens the form in place once it has', async () => {
    const context = await site.newContext({ viewport: { width: 375, height: 800 } });
    const local = new URL(site.url).origin;
    // The app's modules wait until the test lets them through: the click lands before the app has loaded.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await context.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      if (url.origin !== local) return providerWorks(route, url);
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) await held;
      return route.continue();
    });
    const page = await context.newPage();
    await page.goto(`${site.url}/get-quote`);
    const opener = page.getByRole('link', { name: content.form.openLabel });
    await opener.click();
    // Not followed away, not replayed later: shown as opening at once, and a second tap changes nothing.
    expect(await opener.getAttribute('data-opening')).toBe('true');
    await opener.click();
    expect(page.url()).toBe(`${site.url}/get-quote`);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();
    release();
    await page.getByTestId('booking-frame').waitFor();
    expect(page.url()).toBe(`${site.url}/get-quote`);
    expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe('true');
    await context.close();
  });

  it('has no accessibility violations at 1280 and 375 px: facade, open form and fallback', async () => {
    const closed = await openQuote();
    expect(await axeViolations(closed.page), 'facade at 1280px').toEqual([]);
    await closed.page.setViewportSize({ width: 375, height: 800 });
    expect(await axeViolations(closed.page), 'facade at 375px').toEqual([]);
    await closed.context.close();

    const open = await openQuote({ external: providerWorks });
    await open.page.getByRole('link', { name: content.form.openLabel }).click();
    await open.page.waitForFunction(() => document.querySelector('[data-testid="booking-embed"]')?.getAttribute('data-state') === 'ready');
    expect(await axeViolations(open.page), 'open form at 1280px').toEqual([]);
    await open.context.close();

    const failed = await openQuote({ external: scriptBlocked, viewport: { width: 375, height: 800 } });
    await failed.page.getByRole('link', { name: content.form.openLabel }).click();
    await failed.page.getByTestId('booking-fallback').waitFor();
    await failed.page.frameLocator('[data-testid="booking-frame"]').getByRole('heading', { name: 'Book a time' }).waitFor();
    expect(await axeViolations(failed.page), 'fallback at 375px').toEqual([]);
    await failed.page.setViewportSize({ width: 1280, height: 800 });
    expect(await axeViolations(failed.page), 'fallback at 1280px').toEqual([]);
    await failed.context.close();
  });
});
