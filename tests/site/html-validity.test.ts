/**
 * Every page the site serves is valid HTML by the W3C Nu HTML Checker (vnu-jar, run with the system
 * Java): the public pages, a blog post and a category page, the pages a form leads to, the API pages,
 * the staff sign-in, and the 404 page, each as the server sends it (with JavaScript off, this is what
 * a visitor and a crawler get). The checker runs once over all of them; a failure lists each error
 * with its page, line and message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { publicPagePaths } from '../../web/content/public-pages';
import { makeTempDir, seedDemoDataDir, startTestServer, type TestServer } from '../support/server';

const VNU_JAR = path.join(path.dirname(createRequire(import.meta.url).resolve('vnu-jar/package.json')), 'build/dist/vnu.jar');

interface VnuMessage {
  type: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

let server: TestServer;
let dataDir: string;
let dir: string;

beforeAll(async () => {
  dataDir = makeTempDir();
  await seedDemoDataDir(dataDir);
  server = await startTestServer({ dataDir });
  dir = mkdtempSync(path.join(os.tmpdir(), 'html-validity-'));
});
afterAll(async () => {
  await server?.close();
  for (const made of [dataDir, dir]) if (made) rmSync(made, { recursive: true, force: true });
});

/** The pages to check: every public page, one post, one category, one page of each other kind. */
async function pagePaths(): Promise<string[]> {
  const list = (await (await fetch(`${server.url}/api/blog?limit=1`)).json()) as { posts: Array<{ slug: string; category: { slug: string } }> };
  const post = list.posts[0];
  if (!post) throw new Error('The test server has no published post to check');
  const guide = productPaths(DEFAULT_SITE_CONFIG).ultimateGuide;
  return [
    ...publicPagePaths(DEFAULT_SITE_CONFIG),
    `/blog/${post.slug}`,
    `/blog/category/${post.category.slug}`,
    '/blog?page=2',
    '/faq?tab=retirement',
    `${guide}?view=table`,
    '/?annualContribution=12000&years=25',
    '/get-quote/thank-you',
    '/api/test-console',
    '/login',
    '/no-such-page',
  ];
}

describe('HTML validity (W3C Nu HTML Checker)', () => {
  it('finds no error on any page', async () => {
    const files = new Map<string, string>();
    for (const [index, pagePath] of (await pagePaths()).entries()) {
      const res = await fetch(`${server.url}${pagePath}`);
      expect(res.headers.get('content-type'), pagePath).toMatch(/^text\/html/);
      const file = path.join(dir, `page-${index}.html`);
      writeFileSync(file, await res.text());
      files.set(path.basename(file), pagePath);
    }
    const { stdout, stderr } = await promisify(execFile)('java', ['-jar', VNU_JAR, '--errors-only', '--format', 'json', '--exit-zero-always', ...[...files.keys()].map((name) => path.join(dir, name))], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw new Error('Java was not found: install it with sudo apt-get install -y default-jre-headless (the HTML checker is a Java program).');
      throw error;
    });
    const report = JSON.parse(stderr || stdout) as { messages: VnuMessage[] };
    const errors = report.messages
      .filter((message) => message.type === 'error')
      .map((message) => `${files.get(path.basename(message.url)) ?? message.url}:${message.lastLine ?? '?'} ${message.message}${message.extract ? ` (${message.extract.trim().slice(0, 120)})` : ''}`);
    expect(errors).toEqual([]);
    expect(files.size).toBeGreaterThan(15);
  });
});
