/**
 * The public blog over real HTTP and in Chromium: a post created through the API with status
 * published appears on /blog, in its category, on the home strip, in the feed and the sitemap, and at
 * /blog/:slug with its trust block and JSON-LD in the raw HTML; a draft appears nowhere public.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validPost, call } from '../api/support';
import { axeViolations } from '../support/axe';
import { testSite } from '../support/site-fixture';
import { openPage } from '../support/page';

const site = testSite();
let key: string;

beforeAll(async () => {
  key = await site.server.createKey('blog-tests');
});

async function html(path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${site.url}${path}`);
  // React separates adjacent text with empty comments; they are not part of what a reader sees.
  return { status: res.status, text: (await res.text()).replace(/<!-- -->/g, '') };
}

function jsonLd(page: string): Array<Record<string, unknown>> {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '{}') as Record<string, unknown>,
  );
}

async function create(overrides: Record<string, unknown>): Promise<string> {
  const res = await call<{ post: { slug: string } }>(site.server, 'POST', '/api/blog', { key, body: validPost(overrides) });
  expect(res.status).toBe(201);
  return res.json.post.slug;
}

describe('before anything is published', () => {
  it('shows an empty blog, zero counts and no home strip', async () => {
    const blog = await html('/blog');
    expect(blog.status).toBe(200);
    expect(blog.text).toContain('No articles have been published yet');
    expect(blog.text).toContain('Insurance Basics <span class="count">(0)</span>');
    const home = await html('/');
    expect(home.text).not.toContain('Latest articles');
  });
});

describe('a published post and a draft', () => {
  let published: string;
  let news: string;
  let draft: string;

  beforeAll(async () => {
    published = await create({ title: 'How Policy Loans Work', status: 'published', category: 'Tax Benefits' });
    news = await create({ title: 'New 2025 SEP IRA Limit Announced', status: 'Published', isNewsArticle: true, category: 'retirement-planning' });
    draft = await create({ title: 'Secret Draft Article', status: 'Draft', category: 'Tax Benefits' });
  });

  it('lists the published posts newest first on /blog, in their category, with true counts', async () => {
    const blog = await html('/blog');
    expect(blog.text.indexOf('New 2025 SEP IRA Limit Announced')).toBeLessThan(blog.text.indexOf('How Policy Loans Work'));
    expect(blog.text).not.toContain('Secret Draft Article');
    expect(blog.text).toContain('Tax Benefits <span class="count">(1)</span>');
    expect(blog.text).toContain('Retirement Planning <span class="count">(1)</span>');
    const category = await html('/blog/category/tax-benefits');
    expect(category.status).toBe(200);
    expect(category.text).toContain('How Policy Loans Work');
    expect(category.text).not.toContain('New 2025 SEP IRA');
    expect((await html('/blog/category/no-such-category')).status).toBe(404);
  });

  it('renders the post as complete HTML with byline, trust block and BlogPosting JSON-LD', async () => {
    const page = await html(`/blog/${published}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 id="post-title">How Policy Loans Work</h1>');
    expect(page.text).toContain('Jane Author');
    expect(page.text).toContain('CLU, ChFC');
    expect(page.text).toContain('Agent since 1998');
    expect(page.text).toContain('Fact-checked by');
    expect(page.text).toMatch(/<a href="https:\/\/www\.irs\.gov\/publications\/p525" rel="nofollow noopener" target="_blank">IRS Publication 525/);
    expect(page.text).toContain('<strong>tax-deferred</strong>');
    expect(page.text).toContain(`<link rel="canonical" href="http://localhost:3000/blog/${published}"/>`);
    expect(page.text).toContain('<meta property="og:type" content="article"/>');
    const ld = jsonLd(page.text);
    const article = ld.find((d) => d['@type'] === 'BlogPosting');
    expect(article).toMatchObject({
      headline: 'How Policy Loans Work',
      author: { '@type': 'Person', name: 'Jane Author' },
      publisher: { name: 'Hartwell Family Insurance' },
      reviewedBy: { '@type': 'Person', name: 'Sam Checker' },
      datePublished: expect.any(String),
      dateModified: expect.any(String),
    });
    expect(ld.find((d) => d['@type'] === 'BreadcrumbList')).toBeTruthy();
    const newsPage = await html(`/blog/${news}`);
    expect(jsonLd(newsPage.text).some((d) => d['@type'] === 'NewsArticle')).toBe(true);
  });

  it('keeps the draft out of every public place', async () => {
    expect((await html(`/blog/${draft}`)).status).toBe(404);
    expect((await html('/rss.xml')).text).not.toContain('Secret Draft');
    expect((await html('/sitemap.xml')).text).not.toContain(draft);
    expect((await html('/')).text).not.toContain('Secret Draft');
    expect((await call(site.server, 'GET', `/api/blog/${draft}`)).status).toBe(404);
  });

  it('shows the newest posts on the home strip at once (the answer cache follows new posts)', async () => {
    const before = await html('/');
    expect(before.text).toContain('Latest articles');
    const third = await create({ title: 'A Third Published Article', status: 'published' });
    const after = await html('/');
    expect(after.text).toContain('A Third Published Article');
    expect(after.text).toContain(`/blog/${third}`);
    expect(after.text.match(/data-testid="post-card"/g)).toHaveLength(3);
  });

  it('lists published posts in the RSS feed and the sitemap, and robots.txt points there', async () => {
    const rss = await fetch(`${site.url}/rss.xml`);
    expect(rss.headers.get('content-type')).toContain('application/rss+xml');
    const feed = await rss.text();
    expect(feed).toContain(`<link>http://localhost:3000/blog/${published}</link>`);
    expect(feed).toContain('<title>New 2025 SEP IRA Limit Announced</title>');
    const sitemap = await html('/sitemap.xml');
    expect(sitemap.text).toContain(`<loc>http://localhost:3000/blog/${published}</loc>`);
    expect(sitemap.text).toContain('<loc>http://localhost:3000/faq</loc>');
    expect(sitemap.text).toContain('<loc>http://localhost:3000/blog/category/tax-benefits</loc>');
    expect(sitemap.text).not.toContain('/admin');
    const robots = await html('/robots.txt');
    expect(robots.text).toContain('Disallow: /admin');
    expect(robots.text).toContain('Disallow: /api/');
    expect(robots.text).toContain('Sitemap: http://localhost:3000/sitemap.xml');
  });

  it('reads well in the browser: links work and axe finds no violation', async () => {
    const { context, page } = await openPage(site, `${site.url}/blog`);
    const listed = await call<{ total: number }>(site.server, 'GET', '/api/blog');
    expect(await page.getByTestId('post-card').count()).toBe(listed.json.total);
    await page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: /Tax Benefits/ }).click();
    await page.waitForURL(`${site.url}/blog/category/tax-benefits`);
    await page.getByRole('heading', { level: 1, name: 'Tax Benefits' }).waitFor({ timeout: 10_000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'How Policy Loans Work' }).click();
    await page.waitForURL(`${site.url}/blog/${published}`);
    await page.getByTestId('trust-block').waitFor({ timeout: 10_000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${site.url}/blog`);
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
