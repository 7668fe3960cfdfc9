/**
 * The client build's files are served where they live, and nowhere else: a page's path goes on to the
 * page renderer without a look at the disk, even when the folder holds a file that a static server
 * would have sent in its place (koa-static sends `faq.br` for /faq to a client accepting brotli).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFiles } from './client-files';

let dir: string;
let server: ReturnType<Koa['listen']>;
let origin: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'client-files-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, 'licenses'));
  writeFileSync(path.join(dir, 'assets', 'entry-AbC123.js'), 'console.log(1);\n');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  writeFileSync(path.join(dir, 'licenses', 'fonts.txt'), 'SIL Open Font License\n');
  // Files no page may ever be answered with.
  writeFileSync(path.join(dir, 'faq.br'), 'not the FAQ page');
  writeFileSync(path.join(dir, 'blog.gz'), 'not the blog');
  const app = new Koa();
  app.use(clientFiles(dir));
  app.use((ctx) => {
    ctx.body = `page ${ctx.method} ${ctx.path}`;
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('clientFiles', () => {
  it('serves a hashed asset for a year, immutable, and a file at the root for an hour', async () => {
    const asset = await fetch(`${origin}/assets/entry-AbC123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(await asset.text()).toBe('console.log(1);\n');
    const icon = await fetch(`${origin}/favicon.svg`);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await (await fetch(`${origin}/licenses/fonts.txt`)).text()).toBe('SIL Open Font License\n');
    const head = await fetch(`${origin}/assets/entry-AbC123.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('sends every other path to the pages, never a file of the folder in its place', async () => {
    for (const page of ['/', '/faq', '/blog', '/get-quote', '/blog/some-post']) {
      const response = await fetch(`${origin}${page}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.headers.get('content-encoding'), page).toBeNull();
      expect(await response.text(), page).toBe(`page GET ${page}`);
    }
  });

  it('leaves a missing asset and any write to what comes after it', async () => {
    expect(await (await fetch(`${origin}/assets/missing-Zz9.js`)).text()).toBe('page GET /assets/missing-Zz9.js');
    expect(await (await fetch(`${origin}/favicon.svg`, { method: 'POST' })).text()).toBe('page POST /favicon.svg');
  });

  it('serves a folder made after the server started, once it is there', async () => {
    const later = path.join(dir, 'later');
    const app = new Koa();
    app.use(clientFiles(later));
    app.use((ctx) => {
      ctx.body = 'page';
    });
    const lateServer = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => lateServer.once('listening', resolve));
    const url = `http://127.0.0.1:${(lateServer.address() as AddressInfo).port}/favicon.svg`;
    try {
      expect(await (await fetch(url)).text()).toBe('page');
      mkdirSync(later);
      writeFileSync(path.join(later, 'favicon.svg'), '<svg/>');
      expect(await (await fetch(url)).text()).toBe('<svg/>');
    } finally {
      await new Promise<void>((resolve) => lateServer.close(() => resolve()));
    }
  });
});
