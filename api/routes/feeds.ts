/**
 * Machine-readable views of the site: the RSS feed of the latest published posts, the sitemap of
 * every public page and published post, and robots.txt pointing at the sitemap.
 */
import Router from '@koa/router';
import { PRIVATE_PATH_PREFIXES, publicPagePaths } from '../../web/content/public-pages';
import type { SiteConfig } from '../../contract/site-config';
import type { BlogPostSummary, BlogReader } from '../../contract/blog-reader';

export const FEED_SIZE = 20;
const SITEMAP_PAGE = 100;

export function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);
}

async function allPublished(blog: BlogReader): Promise<BlogPostSummary[]> {
  const posts: BlogPostSummary[] = [];
  for (let page = 1; ; page += 1) {
    const batch = await blog.listPublished({ page, limit: SITEMAP_PAGE });
    posts.push(...batch.posts);
    if (posts.length >= batch.total || batch.posts.length === 0) return posts;
  }
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

export function sitemapXml(config: SiteConfig, categorySlugs: readonly string[], posts: readonly BlogPostSummary[]): string {
  const entries = [
    ...publicPagePaths(config).map((path) => ({ path, lastmod: undefined as string | undefined })),
    ...categorySlugs.map((slug) => ({ path: `/blog/category/${slug}`, lastmod: undefined as string | undefined })),
    ...posts.map((post) => ({ path: `/blog/${post.slug}`, lastmod: post.updated_at })),
  ];
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

export function feedsRouter(config: SiteConfig, blog: BlogReader): Router {
  const router = new Router();
  router.get('/rss.xml', async (ctx) => {
    const { posts } = await blog.listPublished({ page: 1, limit: FEED_SIZE });
    ctx.type = 'application/rss+xml; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = rssXml(config, posts);
  });
  router.get('/sitemap.xml', async (ctx) => {
    const [posts, categories] = await Promise.all([allPublished(blog), blog.categoriesWithCounts()]);
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = sitemapXml(
      config,
      categories.map((c) => c.slug),
      posts,
    );
  });
  router.get('/robots.txt', (ctx) => {
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = robotsTxt(config);
  });
  return router;
}
