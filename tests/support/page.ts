/** Opens a page in a fresh browser context, collects console errors, and waits for hydration. */
import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  return { context, page, errors };
}
