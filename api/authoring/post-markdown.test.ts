import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCreatePostBody } from '../../contract/blog';
import type { BlogPost } from '../../contract/blog-reader';
import { BLOG_CATEGORIES } from '../../contract/categories';
import { presentCoverImage } from '../../contract/media';
import { seedDemoPosts } from '../seed/demo-posts';
import { presentPost } from '../services/presenters';
import { cleanPost, type CleanedPost } from '../services/posts';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { parsePostFile } from './post-file';
import { htmlToMarkdown, postToMarkdown } from './post-markdown';

const NOW = new Date('2026-06-01T12:00:00Z');

/** A post file through the contract's check and the server's cleaning, as a create would store it. */
function cleaned(text: string, now = NOW): CleanedPost {
  const file = parsePostFile(text, { fileName: 'post.md', now });
  const check = checkCreatePostBody(file.payload);
  if (!check.ok) throw new Error(`invalid: ${JSON.stringify(check)}`);
  const outcome = cleanPost(check.data, check.ignoredFields, null, now);
  if (!outcome.ok) throw new Error(`not clean: ${JSON.stringify(outcome.problems)}`);
  return outcome.cleaned;
}

/** The post as GET /api/blog/:id presents a stored, cleaned post. */
function asBlogPost(post: CleanedPost['post'], slug: string): BlogPost {
  const category = BLOG_CATEGORIES.find((c) => c.slug === post.categorySlug) ?? { slug: post.categorySlug, name: post.categorySlug };
  return {
    id: '5f0c6a2e-8d1b-4c3e-9a7f-2b6d1e0c4a99',
    slug,
    title: post.title,
    excerpt: post.excerpt,
    content: post.content,
    category: { slug: category.slug, name: category.name },
    tags: post.tags,
    author: post.author,
    isNewsArticle: post.isNewsArticle,
    trust: post.trust,
    status: post.status,
    created_at: NOW.toISOString(),
    updated_at: NOW.toISOString(),
    published_at: post.status === 'published' ? NOW.toISOString() : null,
    publish_at: post.publishAt,
    revision: 3,
    cover_image: post.coverImage ? presentCoverImage(post.coverImage) : null,
  };
}

/** What `publish` of the Markdown file would store, compared with the post it was written from. */
function expectRoundTrip(post: BlogPost, now = NOW): void {
  const markdown = postToMarkdown(post);
  const back = cleaned(markdown, now);
  const file = parsePostFile(markdown, { fileName: 'post.md', now });
  expect(file.id).toBe(post.id);
  expect(file.warnings).toEqual([]);
  expect(back.post.content, markdown).toBe(post.content);
  expect({
    title: back.post.title,
    excerpt: back.post.excerpt,
    categorySlug: back.post.categorySlug,
    tags: back.post.tags,
    author: back.post.author,
    status: back.post.status,
    publishAt: back.post.publishAt,
    isNewsArticle: back.post.isNewsArticle,
    trust: back.post.trust,
    slug: back.slugBase,
  }).toEqual({
    title: post.title,
    excerpt: post.excerpt,
    categorySlug: post.category.slug,
    tags: post.tags,
    author: post.author,
    status: post.status,
    publishAt: post.publish_at,
    isNewsArticle: post.isNewsArticle,
    trust: post.trust,
    slug: post.slug,
  });
}

const FRONT = `---
title: "Generated post"
excerpt: "An excerpt."
category: "Tax Benefits"
status: published
author:
  name: "Ada Writer"
---
`;

describe('postToMarkdown', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'post-markdown-'));
    store = await openSqliteStore(dir);
    await seedDemoPosts(store);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every demo post as Markdown that publishes back to the same post, byte for byte', async () => {
    const page = await store.posts.list({ status: 'any', limit: 100 });
    expect(page.entries.length).toBe(41);
    for (const entry of page.entries) {
      const record = await store.posts.getById(entry.id);
      if (!record) throw new Error(`missing ${entry.id}`);
      expectRoundTrip(presentPost(record), new Date());
    }
  });

  it('writes the front matter an author edits, and Markdown for the content', async () => {
    const record = await store.posts.getBySlug('2024-contribution-limits-and-the-three-buckets-of-money');
    if (!record) throw new Error('demo post missing');
    const markdown = postToMarkdown(presentPost(record));
    expect(markdown.startsWith(`---\nid: ${record.id}\ntitle: "2024 Contribution Limits and the Three Buckets of Money"\nslug: "2024-contribution-limits-and-the-three-buckets-of-money"\n`)).toBe(true);
    expect(markdown).toContain('\ncategory: "Financial Education"\ntags: ["three buckets", "contribution limits", "roth ira", "401k"]\n');
    expect(markdown).toContain('\nauthor:\n  name: "Priya Shah"\n  bio: "Priya Shah is a retirement income specialist at the agency."\n  credentials: "RICP"\nstatus: published\nisNewsArticle: true\ntrust:\n');
    expect(markdown).toContain('\n## The three buckets\n');
    expect(markdown).toContain('\n| Bucket | Examples | When tax is paid |\n| --- | --- | --- |\n');
    expect(markdown).not.toContain('<');
  });

  it('writes footnotes back as GFM footnotes', () => {
    const source = `${FRONT}\nLoans are tax-free[^1] while the policy stays in force[^why].\n\nSee also[^1].\n\n[^1]: Under IRC **section 7702**.\n[^why]: A lapse makes the loan taxable.\n\n    A second paragraph.\n`;
    const post = asBlogPost(cleaned(source).post, 'generated-post');
    expect(post.content).toContain('<section class="footnotes" data-footnotes>');
    const markdown = postToMarkdown(post);
    expect(markdown).toContain('Loans are tax-free[^1] while the policy stays in force[^2].\n\nSee also[^1].\n\n[^1]: Under IRC **section 7702**.\n\n[^2]: A lapse makes the loan taxable.\n\n    A second paragraph.\n');
    expectRoundTrip(post);
  });

  it('keeps what Markdown cannot say as the post\'s own HTML', () => {
    const html = [
      '<p>Intro with <u>underline</u> and <a href="https://example.com/" target="_blank" rel="noopener noreferrer">a new tab</a>.</p>',
      '<figure><img src="https://example.com/chart.png" alt="Chart" width="600" height="400" /><figcaption>Chart</figcaption></figure>',
      '<iframe src="https://www.youtube-nocookie.com/embed/abc123" title="Video" allowfullscreen></iframe>',
      '<table><tbody><tr><td colspan="2">One</td></tr></tbody></table>',
    ].join('\n');
    const source = `---\ntitle: "Rich post"\nexcerpt: "Rich."\ncategory: "Tax Benefits"\nstatus: draft\nauthor:\n  name: "Ada"\n---\n${html}\n`;
    const post = asBlogPost(cleaned(source).post, 'rich-post');
    const markdown = htmlToMarkdown(post.content);
    expect(markdown).toContain('<figure>');
    expect(markdown).toContain('<iframe src="https://www.youtube-nocookie.com/embed/abc123"');
    expectRoundTrip(post);
  });

  it('writes a scheduled post with its time, and a heading equal to the title as HTML so it stays', () => {
    const source = `---\ntitle: "Quarterly Review"\nexcerpt: "Soon."\ncategory: "IUL Strategies"\nstatus: scheduled\npublish_at: 2026-12-01T09:00:00-05:00\nauthor:\n  name: "Ada"\n---\n<h1>Quarterly Review</h1>\n<p>Body.</p>\n`;
    const post = asBlogPost(cleaned(source).post, 'quarterly-review');
    expect(post.content.startsWith('<h1>Quarterly Review</h1>')).toBe(true);
    const markdown = postToMarkdown(post);
    expect(markdown).toContain('\nstatus: scheduled\npublish_at: "2026-12-01T14:00:00.000Z"\n');
    expectRoundTrip(post);
  });

  it('writes a post held for review with the status its author asked for, and the accepted findings with their reasons', () => {
    const source = `---\ntitle: "Held Post"\nexcerpt: "Soon."\ncategory: "IUL Strategies"\nstatus: published\nauthor:\n  name: "Ada"\ncompliance:\n  accept:\n    - rule: risk-free\n      reason: "Quoted from the regulator's order: 'no risk'."\n---\n<p>Body.</p>\n`;
    const stored = cleaned(source).post;
    expect(stored.complianceAccept).toEqual([{ rule: 'risk-free', reason: "Quoted from the regulator's order: 'no risk'." }]);
    const post: BlogPost = {
      ...asBlogPost(stored, 'held-post'),
      status: 'in_review',
      review: { state: 'pending', requested_status: 'published', requested_publish_at: null, submitted_at: NOW.toISOString(), rules: ['risk-free'], note: null, decided_at: null },
      compliance: { accept: stored.complianceAccept ?? [] },
    };
    const markdown = postToMarkdown(post);
    expect(markdown).toContain('\nstatus: published\n');
    expect(markdown).toContain('compliance:\n  accept:\n    - rule: "risk-free"\n');
    expect(cleaned(markdown).post.complianceAccept).toEqual(stored.complianceAccept);
  });

  it('writes the cover image as its media id and alt text, which the file sends back as they are', () => {
    const mediaId = '3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6';
    const post: BlogPost = {
      ...asBlogPost(cleaned(`${FRONT}\nBody.\n`).post, 'generated-post'),
      cover_image: { id: mediaId, url: `/media/${mediaId}-1600.jpg`, srcset: '', srcset_avif: '', width: 1600, height: 900, alt: 'A chart: "cash value" over 20 years' },
    };
    const markdown = postToMarkdown(post);
    expect(markdown).toContain(`\ncover_image: ${mediaId}\ncover_image_alt: "A chart: \\"cash value\\" over 20 years"\n`);
    const file = parsePostFile(markdown, { fileName: 'post.md', now: NOW });
    expect(file.warnings).toEqual([]);
    expect(file.payload).toMatchObject({ cover_image: mediaId, cover_image_alt: 'A chart: "cash value" over 20 years' });
  });
});

describe('the cover image in front matter', () => {
  it('reads cover and cover_alt as cover_image and cover_image_alt', () => {
    const file = parsePostFile(`---\ntitle: "T"\ncover: img/cover.jpg\ncover_alt: "The harbour at dawn"\n---\nBody.\n`, { fileName: 'post.md', now: NOW });
    expect(file.warnings).toEqual([]);
    expect(file.payload).toMatchObject({ cover_image: 'img/cover.jpg', cover_image_alt: 'The harbour at dawn' });
    expect(file.payload).not.toHaveProperty('cover');
    expect(file.payload).not.toHaveProperty('cover_alt');
  });

  it('refuses both spellings with different values, naming them', () => {
    expect(() => parsePostFile(`---\ntitle: "T"\ncover: a.jpg\ncover_image: b.jpg\n---\nBody.\n`, { fileName: 'post.md', now: NOW })).toThrow(/both cover \("a\.jpg"\) and cover_image \("b\.jpg"\)/);
  });
});

/**
 * Simple posts as authors write them: words with Markdown's special characters among them. Blocks and items start
 * with a word: an item of nothing but `*` is an empty nested list, and empty elements are not kept.
 */
const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/),
  fc.constantFrom('*', '_', '<', '>', '&', '&amp;', 'a[x]', '#', '|', '\\', 'a`b', '~', '1.', '-', '+', '"', "'", '(', ')', '!', 'a_b', 'x*y', '2 < 3', 'AT&T', '$5', '50%', '->'),
);
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((list) => list.join(' '));
const plainWords = fc.array(fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/), { minLength: 1, maxLength: 5 }).map((list) => list.join(' '));
const inline = fc.oneof(
  { weight: 4, arbitrary: words },
  { weight: 1, arbitrary: plainWords.map((text) => `**${text}**`) },
  { weight: 1, arbitrary: plainWords.map((text) => `*${text}*`) },
  { weight: 1, arbitrary: plainWords.map((text) => `\`${text}\``) },
  { weight: 1, arbitrary: plainWords.map((text) => `~~${text}~~`) },
  { weight: 1, arbitrary: fc.tuple(plainWords, fc.stringMatching(/^[a-z0-9]{1,8}$/)).map(([text, page]) => `[${text}](https://example.com/${page})`) },
);
const paragraphText = fc.array(inline, { minLength: 1, maxLength: 5 }).map((parts) => `Text ${parts.join(' ')}`);
const block = fc.oneof(
  { weight: 4, arbitrary: paragraphText },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 2, max: 4 }), plainWords).map(([level, text]) => `${'#'.repeat(level)} ${text}`) },
  { weight: 1, arbitrary: fc.array(paragraphText, { minLength: 1, maxLength: 4 }).map((items) => items.map((item) => `- Item ${item}`).join('\n')) },
  { weight: 1, arbitrary: fc.array(paragraphText, { minLength: 1, maxLength: 4 }).map((items) => items.map((item, i) => `${i + 1}. Step ${item}`).join('\n')) },
  { weight: 1, arbitrary: paragraphText.map((text) => `> ${text}`) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('', 'ts', 'python'), fc.array(fc.string({ maxLength: 20 }).map((line) => `code ${line.replace(/[`\r\n]/g, '')}`), { minLength: 1, maxLength: 4 }))
      .map(([lang, lines]) => `\`\`\`${lang}\n${lines.join('\n')}\n\`\`\``),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })).chain(([columns, rows]) =>
      fc.array(fc.array(plainWords, { minLength: columns, maxLength: columns }), { minLength: rows + 1, maxLength: rows + 1 }).map((table) => {
        const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
        const [head = [], ...body] = table;
        return [line(head), line(head.map(() => '---')), ...body.map(line)].join('\n');
      }),
    ),
  },
);
const footnotes = fc.array(plainWords, { maxLength: 3 });
const simplePost = fc.tuple(fc.array(block, { minLength: 1, maxLength: 6 }), footnotes).map(([blocks, notes]) => {
  const refs = notes.map((_, i) => `[^n${i}]`).join(' ');
  const body = notes.length > 0 ? [...blocks, `With notes ${refs}.`] : blocks;
  const definitions = notes.map((note, i) => `[^n${i}]: ${note}`);
  return `${FRONT}\n${[...body, ...definitions].join('\n\n')}\n`;
});

describe('postToMarkdown on generated posts', () => {
  it('round-trips paragraphs, headings, lists, links, emphasis, code, tables and footnotes', () => {
    fc.assert(
      fc.property(simplePost, (source) => {
        const post = asBlogPost(cleaned(source).post, 'generated-post');
        expectRoundTrip(post);
      }),
      { numRuns: 300 },
    );
  });
});
