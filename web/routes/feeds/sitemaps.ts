/**
 * What /sitemap.xml and /sitemaps/N.xml answer. The site's URLs in order (public pages, category
 * pages, then published posts newest first) fill files of at most `limit` URLs each; while they fit in
 * one, /sitemap.xml is that file, after that it is an index over the numbered files. A file reads only
 * its own slice of the posts, in pages of `limit`, so no request reads more than two pages.
 */
import type { BlogPostSummary, BlogReader } from '../../../contract/blog-reader';
import type { SiteLoadContext } from '../../load-context';
import { publicPagePaths } from '../../content/public-pages';
import {
  parseSitemapFile,
  postSitemapEntry,
  type SitemapEntry,
  sitemapFileCount,
  sitemapIndexXml,
  urlsetXml,
} from '../../seo/feeds';

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'no-cache' };

/** The URLs listed before the posts, and how many posts there are. */
async function sitemapShape({ config, blog }: SiteLoadContext): Promise<{ site: SitemapEntry[]; postCount: number }> {
  const [categories, { total }] = await Promise.all([blog.categoriesWithCounts(), blog.listPublished({ page: 1, limit: 1 })]);
  const site = [...publicPagePaths(config), ...categories.map((c) => `/blog/category/${c.slug}`)].map((path) => ({ path }));
  return { site, postCount: total };
}

/** Published posts `start` (inclusive) to `end` (exclusive), newest first, read in pages of `pageSize`. */
async function publishedSlice(blog: BlogReader, start: number, end: number, pageSize: number): Promise<BlogPostSummary[]> {
  if (end <= start) return [];
  const firstPage = Math.floor(start / pageSize) + 1;
  let posts: BlogPostSummary[] = [];
  for (let page = firstPage; (page - 1) * pageSize < end; page += 1) {
    const batch = await blog.listPublished({ page, limit: pageSize });
    posts = posts.concat(batch.posts);
    if (batch.posts.length < pageSize) break;
  }
  const skip = start - (firstPage - 1) * pageSize;
  return posts.slice(skip, skip + (end - start));
}

/** The URLs of sitemap file `file` (1-based): its share of the site's URLs, then of the posts. */
async function fileEntries(blog: BlogReader, site: readonly SitemapEntry[], file: number, limit: number): Promise<SitemapEntry[]> {
  const start = (file - 1) * limit;
  const end = start + limit;
  const posts = await publishedSlice(blog, Math.max(0, start - site.length), end - site.length, limit);
  return [...site.slice(start, end), ...posts.map(postSitemapEntry)];
}

function xmlResponse(xml: string): Response {
  return new Response(xml, { headers: XML_HEADERS });
}

/** /sitemap.xml: every URL in one `<urlset>`, or a `<sitemapindex>` once they take more than one file. */
export async function sitemapResponse(context: SiteLoadContext, limit: number): Promise<Response> {
  const { site, postCount } = await sitemapShape(context);
  const fileCount = sitemapFileCount(site.length + postCount, limit);
  if (fileCount > 1) return xmlResponse(sitemapIndexXml(context.config, fileCount));
  return xmlResponse(urlsetXml(context.config, await fileEntries(context.blog, site, 1, limit), limit));
}

/** /sitemaps/:file (`1.xml`, `2.xml`, ...): one numbered file; 404 for anything else. */
export async function sitemapFileResponse(context: SiteLoadContext, fileSegment: string | undefined, limit: number): Promise<Response> {
  const file = parseSitemapFile(fileSegment);
  const { site, postCount } = await sitemapShape(context);
  if (file === null || file > sitemapFileCount(site.length + postCount, limit)) {
    return new Response('Not Found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' } });
  }
  return xmlResponse(urlsetXml(context.config, await fileEntries(context.blog, site, file, limit), limit));
}
