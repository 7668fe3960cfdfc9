/** Opens a page in a fresh browser context, collects page (and console) errors, and waits for hydration. */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * Scrolls to an element the way a reader would, and waits for the frame that renders it: sections of
 * the long pages are laid out only as they near the viewport (content-visibility: auto), so text far
 * below the fold has no rendered form (innerText is empty) until then.
 */
export async function scrollToSection(locator: Locator): Promise<void> {
  await locator.scrollIntoViewIfNeeded();
  await nextFrames(locator.page());
}

/**
 * Waits until the page has rendered two more frames: by then what an earlier scroll, input or load
 * sets off (scroll and intersection handlers, effects, the requests they start) has run. A test that
 * checks something did *not* happen waits for this, not for a fixed time.
 */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Holds every module of the app back until the returned function is called: what the visitor does
 * meanwhile happens before the app has loaded, for certain (not a race with the download).
 */
export async function holdApp(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Pages start the React app on the visitor's first interaction (web/client/page-boot.ts). This presses
 * Shift, which changes nothing on the page but is activity, and waits until React has hydrated.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.keyboard.press('Shift');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export interface PageOptions {
  /** Whether console errors count as errors (default true); off where a test expects some, e.g. blocked third-party requests. */
  consoleErrors?: boolean;
}

/** Opens `url` in a new context of `browser` (the worker's browser, or a file's fixture that tracks its contexts). */
export async function openPage(
  browser: Pick<Browser, 'newContext'>,
  url: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
  options: PageOptions = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Console errors count too, unless the test expects some (e.g. blocked third-party requests).
  if (options.consoleErrors !== false) {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
  }
  await page.goto(url);
  await waitForHydration(page);
  return { context, page, errors };
}

/** Signs a staff member in on the sign-in page the page shows, and waits for the page it leads to. */
export async function signInOnPage(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/admin/login'), { waitUntil: 'load' });
}
