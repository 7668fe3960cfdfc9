/**
 * `blogpost import-wordpress` on a WordPress export built here (300 posts: classic and block editor
 * content, shortcodes, images, a gallery, featured images, three authors, categories and tags, drafts,
 * a scheduled post, a sticky one, a private and a trashed post, a page) with its uploads folder of
 * real small images: a dry run writes nothing; the import stores every post with its pictures, dates,
 * status, category, tags and author, through the post service (audited as import:wordpress); every old
 * address answers 301 over HTTP; a second run imports nothing new; the report names the unconvertible
 * shortcodes by post. A post whose category nobody mapped fails alone, with a did-you-mean. WordPress's
 * own theme unit test export (tests/fixtures/wordpress) imports with no failure.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../api/store/store';
import { blogpost } from '../support/cli';
import { makeTempDir, ROOT, startTestServer } from '../support/server';
import { BIG_SITE_CATEGORY_MAP, bigSite, buildWxr, OLD_SITE, oldImage, permalink, writeUploads } from '../support/wxr-builder';
import { inStore } from './data-dir-store';

const work = makeTempDir('iul-wp-import-');
const dataDir = path.join(work, 'data');
const exportFile = path.join(work, 'site.WordPress.xml');
const uploads = path.join(work, 'uploads');
const categoryMap = path.join(work, 'categories.txt');
const authorMap = path.join(work, 'authors.json');
const site = bigSite(300);
const posts = site.spec.posts.filter((post) => (post.type ?? 'post') === 'post');
const imported = posts.filter((post) => !site.ids.skipped.includes(post.id));
const published = imported.filter((post) => post.status === 'publish');

beforeAll(async () => {
  writeFileSync(exportFile, buildWxr(site.spec));
  writeFileSync(categoryMap, `# WordPress category = site category\n${BIG_SITE_CATEGORY_MAP}`);
  writeFileSync(authorMap, JSON.stringify({ carol: 'Carol C. Counsel' }));
  await writeUploads(uploads);
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const importArgs = (...extra: string[]) => ['import-wordpress', exportFile, '--media-from', uploads, '--category-map', categoryMap, '--author-map', authorMap, '--data-dir', dataDir, ...extra];

interface JsonReport {
  success: boolean;
  posts: number;
  imported: Array<{ title: string; slug: string; status: string }>;
  skipped: Array<{ title: string; reason: string }>;
  failed: Array<{ title: string; reason: string }>;
  shortcodes: Array<{ title: string; shortcodes: string[] }>;
  missingMedia: Array<{ title: string; urls: string[] }>;
  notes: Array<{ title: string; notes: string[] }>;
  sticky: string[];
  images: number;
  redirects: number;
}

async function allPosts(store: Store) {
  const page = await store.posts.list({ status: 'any', limit: 1000 });
  const records = await Promise.all(page.entries.map((entry) => store.posts.getById(entry.id)));
  return records.filter((record) => record !== null);
}

describe('blogpost import-wordpress', () => {
  it('--dry-run says what would happen and writes nothing', async () => {
    const run = await blogpost([...importArgs('--dry-run', '--json')]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.imported).toHaveLength(imported.length);
    expect(report.failed).toEqual([]);
    // Not even an empty database is left behind.
    expect(existsSync(dataDir)).toBe(false);
    // Into an existing store: nothing of it is written there either.
    await inStore(dataDir, () => Promise.resolve());
    const again = await blogpost([...importArgs('--dry-run', '--json')]);
    expect(again.code, again.stderr).toBe(0);
    await inStore(dataDir, async (store) => {
      expect((await store.posts.list({ status: 'any' })).total).toBe(0);
      expect(await store.media.list()).toEqual([]);
      expect(await store.imports.redirect(`/?p=${posts[0]?.id}`)).toBeNull();
      expect(await store.imports.item('wordpress', `${OLD_SITE}/?p=${posts[0]?.id}`)).toBeNull();
    });
  });

  it('imports every post with its images, dates, status, category, tags and author, and reports the shortcodes it left by post', async () => {
    const run = await blogpost(importArgs());
    expect(run.code, run.stderr).toBe(0);
    // Piped: no progress line.
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(`${posts.length} post(s) in the export: ${imported.length} imported, 2 skipped, 0 failed.`);
    expect(run.stdout).toContain('10 image(s) uploaded');
    expect(run.stdout).toContain('A private note: it is private in WordPress');
    expect(run.stdout).toContain('A trashed post: its WordPress status is trash');
    // The unconvertible shortcodes, by post.
    const shortcodeSection = run.stdout.split('Shortcodes left in the text as written')[1]?.split('\n\n')[0] ?? '';
    for (const id of site.ids.shortcodes) {
      const title = posts.find((post) => post.id === id)?.title ?? '';
      expect(shortcodeSection).toContain(`${title}: [contact-form-7]`);
    }
    expect(shortcodeSection.trim().split('\n')).toHaveLength(site.ids.shortcodes.length + 1);
    expect(run.stdout).toMatch(/Sticky in WordPress \(this site has no sticky posts\):\n {2}- Post 10: /);

    await inStore(dataDir, async (store) => {
      const stored = await allPosts(store);
      expect(stored).toHaveLength(imported.length);
      const bySlug = new Map(stored.map((post) => [post.slug, post]));
      for (const post of imported) {
        const draft = post.status === 'draft' || post.status === 'pending';
        const mine = draft ? stored.find((candidate) => candidate.title === post.title) : bySlug.get(post.slug);
        expect(mine, post.title).toBeDefined();
        if (!mine) continue;
        expect(mine.title).toBe(post.title);
        expect(mine.categorySlug).toBe({ 0: 'insurance-basics', 1: 'retirement-planning', 2: 'tax-benefits', 3: 'financial-education' }[(post.id - 100) % 4]);
        expect(mine.tags).toEqual(post.tags.map((tag) => `Topic ${tag.slice('topic-'.length)}`));
        expect(mine.author.name).toBe({ alice: 'Alice Agent', bob: 'Bob Broker', carol: 'Carol C. Counsel' }[post.creator]);
        // The author --author-map names owns the post (the keys of that owner may change it); the others are staff's.
        expect(mine.owner).toBe(post.creator === 'carol' ? 'Carol C. Counsel' : null);
        if (post.status === 'publish') {
          expect(mine.status).toBe('published');
          expect(mine.publishedAt).toBe(post.date.toISOString());
        } else if (post.status === 'future') {
          expect(mine.status).toBe('scheduled');
          expect(mine.publishAt).toBe(post.date.toISOString());
        } else expect(mine.status).toBe('draft');
        // Every picture is an upload of this site now; none points at the old site.
        expect(mine.content).not.toContain(OLD_SITE);
        expect(mine.content).not.toContain('wp:');
        const pictures = mine.content.match(/<img /g)?.length ?? 0;
        const expected = post.id === site.ids.gallery ? 6 : [0, 1, 2].includes((post.id - 100) % 4) ? 1 : 0;
        expect(pictures, post.title).toBe(expected);
        if (pictures > 0) expect(mine.content).toMatch(/<img src="\/media\/[0-9a-f]{32}-\d+\.jpg"/);
        if (site.ids.featured.includes(post.id)) expect(mine.coverImage?.mediaId).toMatch(/^[0-9a-f]{32}$/);
        if ((post.id - 100) % 4 === 3) expect(mine.content).toContain('<iframe src="https://player.vimeo.com/video/76979871"');
      }
      expect(await store.media.list()).toHaveLength(10);
      // Every post through the post service, audited as the import.
      const audit = (await store.audit.list()).filter((entry) => entry.action === 'post.created');
      expect(audit).toHaveLength(imported.length);
      expect(new Set(audit.map((entry) => entry.actor))).toEqual(new Set(['import:wordpress']));
    });
  });

  it('answers every old address with a 301 to the post, its category or the blog', async () => {
    const server = await startTestServer({ dataDir, without: ['scheduler', 'outbox', 'retention', 'sessions'] });
    try {
      const get = (address: string) => fetch(`${server.url}${address}`, { redirect: 'manual' });
      for (const post of published) {
        const byId = await get(`/?p=${post.id}`);
        expect(byId.status, `/?p=${post.id}`).toBe(301);
        expect(byId.headers.get('location')).toBe(`/blog/${post.slug}`);
        const byPermalink = await get(new URL(permalink(OLD_SITE, post)).pathname);
        expect(byPermalink.status).toBe(301);
        expect(byPermalink.headers.get('location')).toBe(`/blog/${post.slug}`);
      }
      const [firstPost] = published;
      if (!firstPost) throw new Error('the export has no published post');
      const first = await get(new URL(permalink(OLD_SITE, firstPost)).pathname);
      expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
      expect((await fetch(`${server.url}${first.headers.get('location')}`)).status).toBe(200);
      const category = await get('/category/retirement/');
      expect([category.status, category.headers.get('location')]).toEqual([301, '/blog/category/retirement-planning']);
      // WordPress's address of a child category names its parent.
      const child = await get('/category/planning/retirement/');
      expect([child.status, child.headers.get('location')]).toEqual([301, '/blog/category/retirement-planning']);
      const tag = await get('/tag/topic-3/');
      expect([tag.status, tag.headers.get('location')]).toEqual([301, '/blog']);
      // A draft's old address points nowhere (the post is not public): the home page, as for any ?p=.
      expect((await get(`/?p=${site.ids.drafts[0]}`)).status).toBe(200);
      // An address WordPress never had: the 404 page.
      expect((await get('/2023/01/no-such-post/')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('imports nothing new when run again', async () => {
    const run = await blogpost(importArgs('--json'));
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    expect(report.imported).toEqual([]);
    expect(report.failed).toEqual([]);
    expect(report.skipped.filter((item) => item.reason.startsWith('already imported'))).toHaveLength(imported.length);
    await inStore(dataDir, async (store) => {
      expect((await store.posts.list({ status: 'any' })).total).toBe(imported.length);
      expect(await store.media.list()).toHaveLength(10);
    });
  });
});

describe('blogpost import-wordpress, pictures from the old site over HTTP', () => {
  it('fetches the pictures from a URL prefix given as --media-from', async () => {
    const dir = makeTempDir('iul-wp-http-');
    const requested: string[] = [];
    const server = createServer((request, response) => {
      requested.push(request.url ?? '');
      const match = /^\/uploads\/(\d{4}\/\d{2}\/[\w.-]+)$/.exec(request.url ?? '');
      const file = match?.[1] ? path.join(uploads, match[1]) : null;
      if (!file || !existsSync(file)) {
        response.writeHead(404).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'image/jpeg' }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const file = path.join(dir, 'export.xml');
      const content = `<p>Two pictures.</p><img src="${oldImage(4, true)}" alt="Four"><img src="${OLD_SITE}/wp-content/uploads/2024/05/gone.jpg" alt="Gone">`;
      writeFileSync(file, buildWxr({ ...site.spec, attachments: [], posts: [{ id: 901, title: 'Pictures over HTTP', slug: 'pictures-over-http', status: 'publish', date: new Date(Date.UTC(2024, 0, 1)), content, creator: 'alice', categories: [], tags: [] }] }));
      const run = await blogpost(['import-wordpress', file, '--media-from', `http://127.0.0.1:${port}/uploads`, '--data-dir', path.join(dir, 'data'), '--json']);
      expect(run.code, run.stderr).toBe(0);
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(report.images).toBe(1);
      expect(report.missingMedia).toEqual([{ title: 'Pictures over HTTP', urls: [`${OLD_SITE}/wp-content/uploads/2024/05/gone.jpg`] }]);
      // The resized copy first, then the original.
      expect(requested).toContain('/uploads/2024/05/picture-4-300x200.jpg');
      expect(requested).toContain('/uploads/2024/05/picture-4.jpg');
      await inStore(path.join(dir, 'data'), async (store) => {
        const post = await store.posts.getBySlug('pictures-over-http');
        expect(post?.content).toMatch(/<img src="\/media\/[0-9a-f]{32}-48\.jpg" alt="Four"/);
        expect(post?.content).toContain('<span>[Image: Gone]</span>');
      });
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('blogpost import-wordpress, when something is wrong', () => {
  const small = (categories: string[][]) =>
    buildWxr({
      ...site.spec,
      attachments: [],
      posts: categories.map((list, n) => ({ id: 700 + n, title: `Small post ${n}`, slug: `small-post-${n}`, status: 'publish', date: new Date(Date.UTC(2024, 0, 1 + n)), content: `Text of small post ${n}.`, creator: 'alice', categories: list, tags: [] })),
      categories: [...site.spec.categories, { nicename: 'tax-benefit', name: 'Tax benefit' }, { nicename: 'recipes', name: 'Recipes' }],
    });

  it('stops only the post whose category nobody mapped, with a did-you-mean, and goes on with the rest (exit 1)', async () => {
    const dir = makeTempDir('iul-wp-small-');
    try {
      const file = path.join(dir, 'export.xml');
      writeFileSync(file, small([['tax-benefit'], ['uncategorized'], ['recipes'], ['retirement-planning']]));
      const run = await blogpost(['import-wordpress', file, '--data-dir', path.join(dir, 'data')]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('4 post(s) in the export: 2 imported, 0 skipped, 2 failed.');
      expect(run.stdout).toContain('Small post 0: its WordPress category tax-benefit is not a category of this site (did you mean tax-benefits?): map it with --category-map');
      expect(run.stdout).toMatch(/Small post 2: its WordPress category recipes is not a category of this site: map it with --category-map \(a line recipes=<one of insurance-basics, /);
      await inStore(path.join(dir, 'data'), async (store) => {
        expect((await store.posts.list({ status: 'any' })).entries.map((post) => post.categorySlug).sort()).toEqual(['retirement-planning', 'uncategorized']);
      });
      // A mapping file that names no category of the site is refused before anything is read.
      writeFileSync(path.join(dir, 'map.txt'), 'recipes=retirement-plan\n');
      const refused = await blogpost(['import-wordpress', file, '--category-map', path.join(dir, 'map.txt'), '--data-dir', path.join(dir, 'data')]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('"recipes" maps to "retirement-plan", which is not a category of this site (did you mean retirement-planning?)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('holds a risky post for compliance review under COMPLIANCE_MODE=review, and lists the findings by post', async () => {
    const dir = makeTempDir('iul-wp-review-');
    try {
      const file = path.join(dir, 'export.xml');
      const risky = 'This IUL is a risk-free investment with guaranteed returns of 12% every year.';
      writeFileSync(
        file,
        buildWxr({
          ...site.spec,
          attachments: [],
          posts: [
            { id: 801, title: 'A careful post', slug: 'a-careful-post', status: 'publish', date: new Date(Date.UTC(2024, 0, 1)), content: 'Plain notes on family budgets.', creator: 'alice', categories: ['uncategorized'], tags: [] },
            { id: 802, title: 'A risky post', slug: 'a-risky-post', status: 'publish', date: new Date(Date.UTC(2024, 0, 2)), content: risky, creator: 'bob', categories: ['uncategorized'], tags: [] },
          ],
        }),
      );
      const run = await blogpost(['import-wordpress', file, '--data-dir', path.join(dir, 'data')], { env: { COMPLIANCE_MODE: 'review' } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/Compliance findings:\n {2}- A risky post \(\/blog\/a-risky-post\): [a-z-, ]+ - held for compliance review/);
      expect(run.stdout).not.toContain('A careful post (/blog/');
      await inStore(path.join(dir, 'data'), async (store) => {
        expect((await store.posts.getBySlug('a-risky-post'))?.status).toBe('in_review');
        expect((await store.posts.getBySlug('a-careful-post'))?.status).toBe('published');
        expect((await store.audit.list()).some((entry) => entry.action === 'post.held_for_review' && entry.actor === 'import:wordpress')).toBe(true);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what a file is when it is not a WordPress export, and what to pass instead', async () => {
    const dir = makeTempDir('iul-wp-bad-');
    try {
      writeFileSync(path.join(dir, 'feed.xml'), '<rss version="2.0"><channel><title>Feed</title></channel></rss>');
      const feed = await blogpost(['import-wordpress', path.join(dir, 'feed.xml'), '--data-dir', path.join(dir, 'data')]);
      expect([feed.code, feed.stderr]).toEqual([1, expect.stringContaining('is RSS, but not a WordPress export: it has no <wp:wxr_version>')]);
      const missing = await blogpost(['import-wordpress', path.join(dir, 'nope.xml'), '--data-dir', path.join(dir, 'data')]);
      expect([missing.code, missing.stderr]).toEqual([4, expect.stringContaining('there is no such file. Export the WordPress site with Tools > Export')]);
      const status = await blogpost(['import-wordpress', path.join(dir, 'feed.xml'), '--status', 'published', '--data-dir', path.join(dir, 'data')]);
      expect([status.code, status.stderr]).toEqual([2, expect.stringContaining('--status must be keep or draft, not "published"')]);
      mkdirSync(path.join(dir, 'empty'));
      const media = await blogpost(['import-wordpress', path.join(dir, 'feed.xml'), '--media-from', path.join(dir, 'nothing-here'), '--data-dir', path.join(dir, 'data')]);
      expect([media.code, media.stderr]).toEqual([2, expect.stringContaining('is not a folder: give the copy of wp-content/uploads')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("imports WordPress's theme unit test export with no failure; its missing pictures are reported, not failures", async () => {
    const dir = makeTempDir('iul-wp-theme-');
    try {
      writeFileSync(path.join(dir, 'map.txt'), '*=uncategorized\n');
      const run = await blogpost(['import-wordpress', path.join(ROOT, 'tests/fixtures/wordpress/themeunittestdata.wordpress.xml'), '--category-map', path.join(dir, 'map.txt'), '--data-dir', path.join(dir, 'data'), '--json']);
      const report = JSON.parse(run.stdout) as JsonReport;
      expect(report.failed).toEqual([]);
      expect(run.code).toBe(0);
      expect(report.posts).toBe(58);
      // Only the post that has no content at all is left out, and says so.
      expect(report.skipped).toEqual([expect.objectContaining({ title: 'Edge Case: No Content', reason: 'it has no content' })]);
      expect(report.imported).toHaveLength(57);
      expect(report.missingMedia.length).toBeGreaterThan(10);
      expect(report.sticky).toEqual(['Template: Sticky']);
      // What was changed to fit the site is said, by post.
      expect(report.notes).toEqual(
        expect.arrayContaining([
          { title: 'Edge Case: Many Tags', notes: [expect.stringMatching(/^had \d+ tags: the first 20 kept/)] },
          { title: 'Untitled WordPress post 1169', notes: ['had no title: named "Untitled WordPress post 1169"'] },
        ]),
      );
      await inStore(path.join(dir, 'data'), async (store) => {
        expect((await store.posts.list({ status: 'any' })).total).toBe(57);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
