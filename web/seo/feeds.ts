/**
 * The machine-readable views of the site as text: the RSS feed of the latest posts, sitemaps (one
 * `<urlset>`, or a `<sitemapindex>` over numbered files once the site outgrows the protocol's limit
 * of URLs a file) and robots.txt. Pure builders; the resource routes in routes/feeds/ read the posts.
 */
import type { BlogPostSummary } from '../../contract/blog-reader';
import type { SiteConfig } from '../../contract/site-config';
import { PRIVATE_PATH_PREFIXES } from '../content/public-pages';

/** Posts in the RSS feed, newest first. */
export const FEED_SIZE = 20;
/** The sitemap protocol's limit of URLs in one file (sitemaps.org); the other limit, 50 MB, is far off at this size. */
export const SITEMAP_URL_LIMIT = 50_000;

export function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

export function rssXml(config: SiteConfig, posts: readonly BlogPostSummary[]): string {
  const items = posts
    .map((post) => {
      const url = `${config.siteUrl}/blog/${post.slug}`;
      return [
        '<item>',
        `<title>${xmlEscape(post.title)}</title>`,
        `<link>${xmlEscape(url)}</link>`,
        `<guid isPermaLink="true">${xmlEscape(url)}</guid>`,
        `<description>${xmlEscape(post.excerpt)}</description>`,
        `<category>${xmlEscape(post.category.name)}</category>`,
        `<dc:creator>${xmlEscape(post.author.name)}</dc:creator>`,
        `<pubDate>${new Date(post.published_at ?? post.created_at).toUTCString()}</pubDate>`,
        '</item>',
      ].join('');
    })
    .join('\n');
  const newest = posts[0];
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
<title>${xmlEscape(`${config.agencyName} Blog`)}</title>
<link>${xmlEscape(`${config.siteUrl}/blog`)}</link>
<atom:link href="${xmlEscape(`${config.siteUrl}/rss.xml`)}" rel="self" type="application/rss+xml"/>
<description>Articles on indexed universal life, tax-free retirement income and financial education.</description>
<language>en-us</language>
${newest ? `<lastBuildDate>${new Date(newest.updated_at).toUTCString()}</lastBuildDate>` : ''}
${items}
</channel>
</rss>
`;
}

/** One URL of a sitemap: a path of the site and, for posts, when it last changed (ISO 8601). */
export interface SitemapEntry {
  path: string;
  lastmod?: string;
}

export function postSitemapEntry(post: BlogPostSummary): SitemapEntry {
  return { path: `/blog/${post.slug}`, lastmod: post.updated_at };
}

/** How many files `urlCount` URLs take at `limit` a file (at least one). */
export function sitemapFileCount(urlCount: number, limit: number): number {
  return Math.max(1, Math.ceil(urlCount / limit));
}

/** Where numbered sitemap file `file` (1-based) is served. */
export function sitemapFilePath(file: number): string {
  return `/sitemaps/${file}.xml`;
}

/** The file number in a `/sitemaps/:file` segment such as `2.xml`, or null when it is not one. */
export function parseSitemapFile(segment: string | undefined): number | null {
  const match = /^([1-9]\d{0,8})\.xml$/.exec(segment ?? '');
  return match ? Number(match[1]) : null;
}

/** One sitemap file; throws when handed more URLs than a file may hold. */
export function urlsetXml(config: SiteConfig, entries: readonly SitemapEntry[], limit: number): string {
  if (entries.length > limit) throw new RangeError(`a sitemap file holds at most ${limit} URLs, not ${entries.length}`);
  const urls = entries
    .map(
      ({ path, lastmod }) =>
        `<url><loc>${xmlEscape(`${config.siteUrl}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.slice(0, 10)}</lastmod>` : ''}</url>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls}
</urlset>
`;
}

/** The index pointing at sitemap files 1..fileCount. */
export function sitemapIndexXml(config: SiteConfig, fileCount: number): string {
  const files = Array.from(
    { length: fileCount },
    (_, i) => `<sitemap><loc>${xmlEscape(`${config.siteUrl}${sitemapFilePath(i + 1)}`)}</loc></sitemap>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${files}
</sitemapindex>
`;
}

export function robotsTxt(config: SiteConfig): string {
  return [
    'User-agent: *',
    ...PRIVATE_PATH_PREFIXES.map((prefix) => `Disallow: ${prefix}`),
    'Allow: /api/usage-examples',
    '',
    `Sitemap: ${config.siteUrl}/sitemap.xml`,
    '',
  ].join('\n');
}
