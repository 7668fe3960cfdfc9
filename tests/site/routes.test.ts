/**
 * Every route of SPEC section 2 answers a plain GET with complete HTML: status, its own title,
 * description, canonical link, Open Graph tags and text, before any JavaScript runs.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGAL_DOCUMENTS } from '../../web/content/legal';
import { DEFAULT_SITE_CONFIG, productPaths } from '../../contract/site-config';
import { startTestServer, type TestServer } from '../support/server';

const paths = productPaths(DEFAULT_SITE_CONFIG);

/** Route, and a piece of text its raw HTML must contain. */
const PAGES: ReadonlyArray<[string, string]> = [
  ['/', 'Tax-Free Retirement'],
  ['/get-quote', 'Free IUL Illustration'],
  [paths.sepComparison, 'SEP IRA'],
  [paths.ultimateGuide, 'Ultimate Guide'],
  ['/about-us', 'About'],
  ['/faq', 'Frequently Asked Questions'],
  ['/api/usage-examples', 'Blog API Usage Examples'],
  ['/admin/api-keys', 'blogpost keys create'],
  ['/admin/login', 'Admin Login'],
  // /admin ("Admin Dashboard") is behind the staff sign-in: tests/api/staff-security.test.ts and
  // tests/e2e/staff-area.test.ts open it signed in.
  ['/login', 'Login'],
  ['/legal', 'Legal Documents'],
  ['/legal/privacy-policy', 'Privacy Policy'],
  ...LEGAL_DOCUMENTS.filter((d) => d.path !== '/legal/privacy-policy').map(
    (d): [string, string] => [d.path, 'This document is available on request'],
  ),
];

function attr(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe('server-rendered pages', () => {
  const titles = new Map<string, string>();

  it.each(PAGES)('GET %s answers 200 with its own head and text', async (path, text) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain(text);
    const title = attr(html, /<title>([^<]+)<\/title>/);
    expect(title, 'title').toBeTruthy();
    titles.set(path, title ?? '');
    expect(attr(html, /<meta name="description" content="([^"]+)"/)?.length).toBeGreaterThanOrEqual(15);
    expect(attr(html, /<link rel="canonical" href="([^"]+)"/)).toBe(`http://localhost:3000${path}`);
    expect(attr(html, /<meta property="og:title" content="([^"]+)"/)).toBe(title);
    expect(html).toContain('"@type":"InsuranceAgency"');
    if (path.startsWith('/admin')) {
      // The staff area has a frame of its own: its bar, no marketing navigation, footer or call bar.
      expect(html).toContain('<header class="admin-bar">');
      expect(html).not.toContain('aria-label="Main"');
      expect(html).not.toContain('Schedule Consultation');
    } else {
      // The shell: navigation and footer on every public page.
      expect(html).toContain('aria-label="Main"');
      expect(html).toContain('Schedule Consultation');
    }
    expect(html).not.toMatch(/\{(product|phone|email|key)\}/);
  });

  it('gives every page a title of its own', () => {
    expect(new Set(titles.values()).size).toBe(PAGES.length);
  });

  it('answers an unknown path with a real not-found page and HTTP 404', async () => {
    for (const path of ['/no-such-page', '/legal/no-such-document', '/indexed-universal-life/other-guide']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(html).toContain('Page not found');
      expect(html).toContain('noindex');
    }
  });

  it('puts the product slug of the configuration into the routes', async () => {
    const res = await fetch(`${server.url}/indexed-universal-life/max-funded-iul-ultimate-guide`);
    expect(res.status).toBe(200);
  });
});

describe('HTTP behaviour', () => {
  it('sends security headers and no X-Powered-By', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('permissions-policy')).toBe('camera=(), microphone=(), geolocation=(), payment=(), usb=(), magnetometer=(), midi=(), display-capture=()');
    // Headers no browser in use reads: not sent.
    for (const name of ['x-xss-protection', 'x-download-options', 'x-permitted-cross-domain-policies']) expect(res.headers.get(name), name).toBeNull();
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain('frame-src https://www.youtube-nocookie.com https://www.youtube.com https://player.vimeo.com https://booking.example.com;');
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    expect(csp).not.toContain('unsafe-inline\' \'sha256');
  });

  it('sends a page compressed as the client asks, each coding with its own ETag', async () => {
    const plain = await request(`${server.url}/faq`);
    const html = await plain.body.text();
    expect(plain.headers['content-encoding']).toBeUndefined();
    const tags = new Set([plain.headers.etag]);
    for (const [accept, coding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await request(`${server.url}/faq`, { headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary).toContain('Accept-Encoding');
      const bytes = Buffer.from(await res.body.arrayBuffer());
      expect(bytes.length).toBeLessThan(Buffer.byteLength(html) / 3);
      expect(decode(bytes).toString('utf8')).toBe(html);
      tags.add(res.headers.etag);
      const again = await request(`${server.url}/faq`, { headers: { 'accept-encoding': accept, 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      await again.body.dump();
    }
    expect(tags.size).toBe(3);
  });

  it('revalidates HTML with an ETag and answers 304 when unchanged', async () => {
    const first = await fetch(`${server.url}/faq`);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    // undici's request, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests.
    // fetch took the page gzipped (a representation with an ETag of its own): ask the same way.
    const second = await request(`${server.url}/faq`, { headers: { 'if-none-match': tag ?? '', 'accept-encoding': 'gzip, deflate' } });
    expect(second.statusCode).toBe(304);
    await second.body.dump();
  });

  it('serves hashed assets compressed with long-lived immutable caching', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = attr(html, /<link rel="stylesheet" href="(\/assets\/[^"]+\.css)"/);
    expect(asset).toBeTruthy();
    const res = await fetch(`${server.url}${asset}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const page = await fetch(`${server.url}/`, { headers: { 'Accept-Encoding': 'br' } });
    expect(page.headers.get('content-encoding')).toBe('br');
  });

  it('answers HEAD for a page without a body', async () => {
    const res = await fetch(`${server.url}/about-us`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
