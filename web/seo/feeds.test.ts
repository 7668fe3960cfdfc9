import { describe, expect, it } from 'vitest';
import type { BlogPostSummary } from '../../contract/blog-reader';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import {
  parseSitemapFile,
  postSitemapEntry,
  robotsTxt,
  rssXml,
  sitemapFileCount,
  sitemapIndexXml,
  urlsetXml,
  xmlEscape,
} from './feeds';

const config = DEFAULT_SITE_CONFIG;

function summary(overrides: Partial<BlogPostSummary> = {}): BlogPostSummary {
  return {
    id: '1',
    slug: 'a-post',
    title: 'A Post',
    excerpt: 'An excerpt.',
    category: { slug: 'tax-benefits', name: 'Tax Benefits' },
    tags: [],
    author: { name: 'Jane Author' },
    isNewsArticle: false,
    trust: null,
    cover_image: null,
    status: 'published',
    created_at: '2025-01-02T03:04:05.000Z',
    updated_at: '2025-02-03T04:05:06.000Z',
    publish_at: null,
    revision: 1,
    published_at: '2025-01-05T00:00:00.000Z',
    ...overrides,
  };
}

describe('xmlEscape', () => {
  it('escapes the five XML special characters and nothing else', () => {
    expect(xmlEscape(`Tom & Jerry's <"best"> é`)).toBe('Tom &amp; Jerry&apos;s &lt;&quot;best&quot;&gt; é');
  });
});

describe('rssXml', () => {
  it('lists each post with its link, guid, escaped text and publication date', () => {
    const xml = rssXml(config, [summary({ title: 'Q&A <2025>', excerpt: `"IUL" vs 401(k)'s` })]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain(
      '<item><title>Q&amp;A &lt;2025&gt;</title><link>http://localhost:3000/blog/a-post</link>' +
        '<guid isPermaLink="true">http://localhost:3000/blog/a-post</guid>' +
        '<description>&quot;IUL&quot; vs 401(k)&apos;s</description><category>Tax Benefits</category>' +
        '<dc:creator>Jane Author</dc:creator><pubDate>Sun, 05 Jan 2025 00:00:00 GMT</pubDate></item>',
    );
    expect(xml).toContain('<lastBuildDate>Mon, 03 Feb 2025 04:05:06 GMT</lastBuildDate>');
    expect(xml).toContain('<atom:link href="http://localhost:3000/rss.xml" rel="self" type="application/rss+xml"/>');
    expect(xml).toContain(`<channel>\n<title>${xmlEscape(`${config.agencyName} Blog`)}</title>\n<link>http://localhost:3000/blog</link>\n`);
  });

  it('writes one item a line, newest first as given', () => {
    const xml = rssXml(config, [summary({ slug: 'newer' }), summary({ slug: 'older' })]);
    expect(xml).toMatch(/<link>http:\/\/localhost:3000\/blog\/newer<\/link>.*<\/item>\n<item><title>A Post<\/title><link>http:\/\/localhost:3000\/blog\/older<\/link>/);
  });

  it('falls back to the creation date and leaves lastBuildDate out of an empty feed', () => {
    expect(rssXml(config, [summary({ published_at: null })])).toContain('<pubDate>Thu, 02 Jan 2025 03:04:05 GMT</pubDate>');
    const empty = rssXml(config, []);
    expect(empty).not.toContain('lastBuildDate');
    // Nothing at all stands in for the items and their date.
    expect(empty).toContain('<language>en-us</language>\n\n\n</channel>\n</rss>\n');
  });
});

describe('urlsetXml', () => {
  it('writes one <url> a line, the date part of lastmod only where there is one, escaped', () => {
    const xml = urlsetXml(config, [{ path: '/faq' }, postSitemapEntry(summary({ slug: 'q&a' }))], 10);
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '<url><loc>http://localhost:3000/faq</loc></url>\n' +
        '<url><loc>http://localhost:3000/blog/q&amp;a</loc><lastmod>2025-02-03</lastmod></url>\n</urlset>\n',
    );
  });

  it('refuses more URLs than a file may hold, and takes a full file', () => {
    expect(() => urlsetXml(config, [{ path: '/a' }, { path: '/b' }, { path: '/c' }], 2)).toThrow(new RangeError('a sitemap file holds at most 2 URLs, not 3'));
    expect(urlsetXml(config, [{ path: '/a' }, { path: '/b' }], 2)).toContain('<loc>http://localhost:3000/b</loc>');
  });
});

describe('sitemap files', () => {
  it('counts files of `limit` URLs, at least one', () => {
    expect([0, 1, 3, 4, 7].map((n) => sitemapFileCount(n, 3))).toEqual([1, 1, 1, 2, 3]);
    expect(sitemapFileCount(50_001, 50_000)).toBe(2);
  });

  it('indexes files 1..n under /sitemaps/', () => {
    expect(sitemapIndexXml({ ...config, siteUrl: 'https://example.com' }, 2)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '<sitemap><loc>https://example.com/sitemaps/1.xml</loc></sitemap>\n' +
        '<sitemap><loc>https://example.com/sitemaps/2.xml</loc></sitemap>\n</sitemapindex>\n',
    );
  });

  it('reads a file number from its path segment and nothing else', () => {
    expect(parseSitemapFile('1.xml')).toBe(1);
    expect(parseSitemapFile('12.xml')).toBe(12);
    for (const segment of ['0.xml', '01.xml', '-1.xml', '1.5.xml', '1', 'a.xml', '1.xml.gz', '', undefined, '9999999999.xml']) {
      expect(parseSitemapFile(segment), String(segment)).toBeNull();
    }
  });
});

describe('robotsTxt', () => {
  it('keeps crawlers out of the private areas and points at the sitemap', () => {
    expect(robotsTxt(config)).toBe(
      'User-agent: *\nDisallow: /admin\nDisallow: /api/\nDisallow: /login\nAllow: /api/usage-examples\n\nSitemap: http://localhost:3000/sitemap.xml\n',
    );
  });
});
