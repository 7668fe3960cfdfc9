/**
 * The browser tests' fixture: `testSite()` gives a test file its own server (and store) and the worker's
 * Chromium, and closes what the file opened when it ends. The browser is shared by every file a Vitest
 * worker runs (the e2e projects share a worker's modules between files, `isolate: false`): files keep
 * apart through browser contexts, which share no cookies, storage or cache, while a Chromium launch and
 * close (two to five seconds on a busy two-core machine) is paid once per worker instead of once per
 * file. When no file has used it for half a second (the worker has run its last file), it is closed, so
 * the worker ends without a Chromium still attached: left to the worker's exit, a browser slow to die on a
 * loaded machine held the worker past Vitest's teardown ("Timeout terminating forks worker").
 */
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { type OpenedPage, openPage, type PageOptions } from './page';
import { makeTempDir, seedDemoDataDir, startTestServer, type TestServer, type TestServerOptions } from './server';

let launching: Promise<Browser> | undefined;

/** The worker's Chromium: launched by the first file that asks, again if it has crashed or closed. */
export function workerBrowser(): Promise<Browser> {
  launching ??= launchBrowser().then(
    (browser) => {
      browser.on('disconnected', () => {
        launching = undefined;
      });
      return browser;
    },
    (error: unknown) => {
      launching = undefined;
      throw error;
    },
  );
  return launching;
}

/** How long the browser stays open with no file using it: a worker's next file claims it well within this. */
const IDLE_CLOSE_MS = 500;
let users = 0;
let idleClose: NodeJS.Timeout | undefined;

function claimBrowser(): Promise<Browser> {
  users += 1;
  clearTimeout(idleClose);
  return workerBrowser();
}

function releaseBrowser(): void {
  users -= 1;
  if (users > 0) return;
  clearTimeout(idleClose);
  idleClose = setTimeout(() => {
    const closing = launching;
    launching = undefined;
    void closing?.then((browser) => browser.close()).catch(() => undefined);
  }, IDLE_CLOSE_MS);
}

export interface Site {
  /** This file's server (started before its first test, closed after its last). */
  readonly server: TestServer;
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** A new context in the worker's browser, closed at the end of the file if the test did not. */
  newContext: (options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** A fresh context and page at `path` of this server, hydrated, its errors collected (page.ts). */
  open: (path: string, viewport?: { width: number; height: number }, options?: PageOptions) => Promise<OpenedPage>;
}

/**
 * Starts the file's server (with `options`, or by `start` when the file prepares a data directory first)
 * and gets the browser before the file's tests, and closes the server and every context still open
 * after them.
 */
export function testSite(options: TestServerOptions | (() => Promise<TestServer>) = {}): Site {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  let claimed = false;
  const contexts = new Set<BrowserContext>();

  beforeAll(async () => {
    claimed = true;
    [server, browser] = await Promise.all([typeof options === 'function' ? options() : startTestServer(options), claimBrowser()]);
  });
  afterAll(async () => {
    try {
      await Promise.all([...contexts].map((context) => context.close()));
      await server?.close();
    } finally {
      if (claimed) releaseBrowser();
    }
  });

  const started = (): TestServer => {
    if (!server) throw new Error('The site is started in beforeAll: use it inside a test or a hook.');
    return server;
  };
  const site: Site = {
    get server() {
      return started();
    },
    get url() {
      return started().url;
    },
    newContext: async (contextOptions) => {
      if (!browser) throw new Error('The browser is launched in beforeAll: use it inside a test or a hook.');
      const context = await browser.newContext(contextOptions);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      return context;
    },
    open: (path, viewport, pageOptions) => openPage(site, `${started().url}${path}`, viewport, pageOptions),
  };
  return site;
}

/**
 * Makes a value once, on first use, and gives the same one after: a page several read-only tests look
 * at, loaded (and hydrated) once for them all. Only for tests that change nothing on it (no click,
 * typing, resizing or navigation), so each still sees the page as loaded.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * A server on a new data directory holding the 41 demo articles, as a fresh install has them (the home
 * page's "Latest articles", the blog's lists); closing it also removes the directory.
 */
export async function startSeededServer(options: Omit<TestServerOptions, 'dataDir'> = {}): Promise<TestServer> {
  const dataDir = makeTempDir();
  const remove = () => rmSync(dataDir, { recursive: true, force: true });
  try {
    await seedDemoDataDir(dataDir);
    const server = await startTestServer({ ...options, dataDir });
    return {
      ...server,
      close: async () => {
        await server.close();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}
