/** The feed resource routes' loaders, called as React Router calls them, over a fake BlogReader. */
import { describe, expect, it } from 'vitest';
import type { BlogPostSummary, BlogReader, ListPublishedOptions } from '../../../contract/blog-reader';
import { BLOG_CATEGORIES } from '../../../contract/categories';
import { DEFAULT_SITE_CONFIG, type SiteConfig } from '../../../contract/site-config';
import { publicPagePaths } from '../../content/public-pages';
import { SITEMAP_URL_LIMIT } from '../../seo/feeds';
import { loader as robotsLoader } from './robots';
import { loader as rssLoader } from './rss';
import { loader as sitemapFileLoader } from './sitemap-file';
import { loader as sitemapLoader } from './sitemap';
import { sitemapFileResponse, sitemapResponse } from './sitemaps';
import type { AppLoadContext } from 'react-router';

/** A part of the load context the feeds never touch: any use of it fails the test. */
function unused<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: () => {
      throw new Error(`feeds do not use ${name}`);
    },
  });
}

/** The load context of a feed: feeds read the config and the posts, nothing else. */
function feedContext(siteConfig: SiteConfig, blog: BlogReader): AppLoadContext {
  return {
    config: siteConfig,
    blog,
    quotes: unused('the quote intake'),
    client: unused('the client'),
    staff: unused('the staff area'),
    failed: () => false,
    logError: unused('the error log'),
  };
}


const config = DEFAULT_SITE_CONFIG;
/** Public pages and category pages: the URLs every sitemap lists before the posts. */
const SITE_URLS = publicPagePaths(config).length + BLOG_CATEGORIES.length;

/** `count` published posts, newest first, the way the store hands them out; records every read. */
function fakeBlog(count: number, slug = (i: number) => `post-${i}`) {
  const posts: BlogPostSummary[] = Array.from({ length: count }, (_, i) => ({
    id: String(i),
    slug: slug(i),
    title: `Post ${i}`,
    excerpt: `Excerpt ${i}`,
    category: { slug: 'tax-benefits', name: 'Tax Benefits' },
    tags: [],
    author: { name: 'Jane Author' },
    isNewsArticle: false,
    trust: null,
    cover_image: null,
    status: 'published',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: new Date(Date.UTC(2025, 5, 30) - i * 86_400_000).toISOString(),
    published_at: '2025-01-01T00:00:00.000Z',
    publish_at: null,
    revision: 1,
  }));
  const reads: Required<Pick<ListPublishedOptions, 'page' | 'limit'>>[] = [];
  const blog: BlogReader = {
    async listPublished({ page = 1, limit = 10 } = {}) {
      reads.push({ page, limit });
      return { posts: posts.slice((page - 1) * limit, page * limit), total: posts.length, page, limit };
    },
    async getPublishedBySlug() {
      return null; // the feeds never read a whole post
    },
    async lookupPublished() {
      return { kind: 'missing' as const };
    },
    async categoriesWithCounts() {
      return BLOG_CATEGORIES.map((c) => ({ ...c }));
    },
  };
  return { blog, reads };
}

function args<Params>(path: string, params: Params, blog: BlogReader, siteConfig: SiteConfig = config) {
  const request = new Request(`${siteConfig.siteUrl}${path}`);
  return { request, url: new URL(request.url), pattern: path, params, context: feedContext(siteConfig, blog) };
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1] ?? '');
}

describe('/rss.xml', () => {
  it('serves the 20 newest posts as RSS, revalidated on every read', async () => {
    const { blog, reads } = fakeBlog(25);
    const res = await rssLoader(args('/rss.xml', {}, blog));
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const xml = await res.text();
    expect(xml.match(/<item>/g)).toHaveLength(20);
    expect(xml).toContain('<title>Post 0</title>');
    expect(xml).not.toContain('<title>Post 20</title>');
    expect(reads).toEqual([{ page: 1, limit: 20 }]);
  });
});

describe('/robots.txt', () => {
  it('serves the rules as text, cached for an hour', async () => {
    const res = await robotsLoader(args('/robots.txt', {}, fakeBlog(0).blog));
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toContain('Disallow: /admin\nDisallow: /api/\nDisallow: /login\nAllow: /api/usage-examples\n\nSitemap: http://localhost:3000/sitemap.xml\n');
  });
});

describe('/sitemap.xml below the limit', () => {
  it('is one <urlset>: public pages, category pages, then every post with its lastmod, escaped', async () => {
    const { blog } = fakeBlog(3, (i) => (i === 1 ? `q&a-'${i}'` : `post-${i}`));
    const res = await sitemapLoader(args('/sitemap.xml', {}, blog));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const xml = await res.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).not.toContain('<sitemapindex');
    expect(locs(xml)).toEqual([
      ...publicPagePaths(config).map((p) => `http://localhost:3000${p}`),
      ...BLOG_CATEGORIES.map((c) => `http://localhost:3000/blog/category/${c.slug}`),
      'http://localhost:3000/blog/post-0',
      'http://localhost:3000/blog/q&amp;a-&apos;1&apos;',
      'http://localhost:3000/blog/post-2',
    ]);
    expect(xml).toContain('<url><loc>http://localhost:3000/faq</loc></url>');
    expect(xml).toContain('<url><loc>http://localhost:3000/blog/post-2</loc><lastmod>2025-06-28</lastmod></url>');
  });

  it('stays one file at exactly the limit', async () => {
    const limit = SITE_URLS + 4;
    const xml = await (await sitemapResponse(feedContext(config, fakeBlog(4).blog), limit)).text();
    expect(xml).toContain('<urlset');
    expect(locs(xml)).toHaveLength(limit);
  });
});

describe('/sitemap.xml above the limit', () => {
  const limit = 10;
  const postCount = 3 * limit - SITE_URLS + 1; // one URL into a fourth file

  it('is an index over numbered files that hold every URL once, in order, at most `limit` each', async () => {
    const { blog, reads } = fakeBlog(postCount);
    const context = feedContext(config, blog);
    const index = await (await sitemapResponse(context, limit)).text();
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual([1, 2, 3, 4].map((n) => `http://localhost:3000/sitemaps/${n}.xml`));
    // The index needs only the number of posts.
    expect(reads).toEqual([{ page: 1, limit: 1 }]);

    const all: string[] = [];
    for (const file of [1, 2, 3, 4]) {
      reads.length = 0;
      const res = await sitemapFileResponse(context, `${file}.xml`, limit);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const urls = locs(await res.text());
      expect(urls.length).toBeLessThanOrEqual(limit);
      all.push(...urls);
      // A count, then at most the two pages of `limit` that hold this file's slice of the posts.
      expect(reads.length).toBeLessThanOrEqual(3);
      expect(reads.slice(1).every((r) => r.limit === limit)).toBe(true);
    }
    expect(all).toHaveLength(SITE_URLS + postCount);
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, 2)).toEqual(['http://localhost:3000/', 'http://localhost:3000/get-quote']);
    expect(all.at(-1)).toBe(`http://localhost:3000/blog/post-${postCount - 1}`);
  });

  it('answers 404 for a file it does not have', async () => {
    const context = feedContext(config, fakeBlog(postCount).blog);
    for (const segment of ['5.xml', '0.xml', 'one.xml', '1.xml.gz', '1']) {
      const res = await sitemapFileResponse(context, segment, limit);
      expect(res.status, segment).toBe(404);
    }
  });
});

describe('the real limit of 50,000 URLs a file', () => {
  it('turns 50,001 posts into an index of two files, read in pages of 50,000', async () => {
    expect(SITEMAP_URL_LIMIT).toBe(50_000);
    const postCount = 50_001;
    const { blog, reads } = fakeBlog(postCount);

    const index = await (await sitemapLoader(args('/sitemap.xml', {}, blog))).text();
    expect(locs(index)).toEqual(['http://localhost:3000/sitemaps/1.xml', 'http://localhost:3000/sitemaps/2.xml']);

    const first = locs(await (await sitemapFileLoader(args('/sitemaps/1.xml', { file: '1.xml' }, blog))).text());
    const second = locs(await (await sitemapFileLoader(args('/sitemaps/2.xml', { file: '2.xml' }, blog))).text());
    expect(first).toHaveLength(SITEMAP_URL_LIMIT);
    expect(first[0]).toBe('http://localhost:3000/');
    expect(second).toHaveLength(SITE_URLS + postCount - SITEMAP_URL_LIMIT);
    expect(second.at(-1)).toBe(`http://localhost:3000/blog/post-${postCount - 1}`);
    expect(reads.filter((r) => r.limit !== 1)).toEqual([
      { page: 1, limit: SITEMAP_URL_LIMIT },
      { page: 1, limit: SITEMAP_URL_LIMIT },
      { page: 2, limit: SITEMAP_URL_LIMIT },
    ]);

    const missing = await sitemapFileLoader(args('/sitemaps/3.xml', { file: '3.xml' }, blog));
    expect(missing.status).toBe(404);
  });
});
