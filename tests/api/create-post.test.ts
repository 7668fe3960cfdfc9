/**
 * POST /api/blog over real HTTP: the 201 answer and its Location, statuses, category mapping, unique
 * slugs, sanitising warnings, and POST /api/blog/validate (same checks, no key, nothing saved).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { GetPostResponse, ListPostsResponse } from '../../contract/blog-reader';
import type { ApiErrorBody } from '../../contract/errors';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

let server: TestServer;
let writer: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('create tests', ['blog:write', 'blog:read']);
});
afterAll(async () => {
  await server.close();
});

/** A post of this many characters of HTML (the largest bodies cost the most to sanitise). */
const LONG_POST_CHARS = 32 * 1024;

describe('POST /api/blog', () => {
  it('answers 201 with the post, warnings and a Location header', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost({ title: 'First Post Ever' }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.json).toEqual({
      success: true,
      message: expect.any(String),
      post: {
        id: expect.any(String),
        title: 'First Post Ever',
        slug: 'first-post-ever',
        excerpt: validPost().excerpt,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        status: 'draft',
        publish_at: null,
        cover_image: null,
        etag: `"${res.json.post.id.split('-')[0]}-r1"`,
      },
      warnings: [],
      findings: expect.any(Array),
    });
    // The sample post says "tax-free" without its condition: a medium compliance finding, nothing held.
    expect(new Set(res.json.findings.map((finding) => `${finding.severity} ${finding.rule}`))).toEqual(new Set(['medium tax-free-unqualified']));
    expect(res.headers.get('etag')).toBe(res.json.post.etag);
    expect(res.headers.get('location')).toBe('/api/blog/first-post-ever');
    const back = await call<GetPostResponse>(server, 'GET', res.headers.get('location') ?? '', { key: writer });
    expect(back.status).toBe(200);
    expect(back.json.post.id).toBe(res.json.post.id);
  });

  it.each([
    ['Draft', 'draft'],
    ['DRAFT', 'draft'],
    ['draft', 'draft'],
    ['Published', 'published'],
    [' published ', 'published'],
  ])('accepts status %j as %s', async (sent, stored) => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost({ status: sent }) });
    expect(res.status).toBe(201);
    expect(res.json.post.status).toBe(stored);
  });

  it('refuses any other status, naming the allowed ones', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key: writer, body: validPost({ status: 'archived' }) });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'status', problem: 'invalid', message: 'status must be one of: draft, scheduled, published' }]);
  });

  it('gives equal titles unique slugs: -2, -3', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost({ title: 'Same Title Here!' }) });
      slugs.push(res.json.post.slug);
    }
    expect(slugs).toEqual(['same-title-here', 'same-title-here-2', 'same-title-here-3']);
  });

  it('never gives a post a slug the API paths use', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost({ title: 'Categories' }) });
    expect(res.json.post.slug).toBe('categories-2');
  });

  it.each([
    ['IUL Strategies', 'iul-strategies'],
    ['iul-strategies', 'iul-strategies'],
    ['tax benefits', 'tax-benefits'],
    ['Insurance Basics', 'insurance-basics'],
    ['Retirement Planning', 'retirement-planning'],
    ['FINANCIAL EDUCATION', 'financial-education'],
    ['Crypto Tips', 'uncategorized'],
  ])('files category %j under %s', async (category, slug) => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ category, status: 'published', title: `Category ${category}` }),
    });
    expect(res.status).toBe(201);
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.category.slug).toBe(slug);
    if (slug === 'uncategorized') expect(res.json.warnings.join(' ')).toContain('not a built-in category');
  });

  it('sanitises content and lists what it removed in warnings', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({
        status: 'published',
        title: 'Sanitised',
        content: '<p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:alert(1)">link</a></p><div style="color:red">x</div>',
        surprise: true,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual(
      expect.arrayContaining([
        'Removed event-handler attribute onclick from <p>',
        'Removed <script> element and its content',
        'Removed unsafe javascript: URL from <a href>',
        'Removed style attribute from <div> (inline styles are not allowed)',
        'Ignored unknown field "surprise"',
      ]),
    );
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.content).toBe('<p>Hello <a>link</a></p><div>x</div>');
  });

  it('keeps GFM footnotes (numbered notes with back-links) and shows them on the post page, but no other ids', async () => {
    const footnotes =
      '<p>Loans are tax-free<sup><a id="footnote-ref-1" href="#footnote-1" data-footnote-ref aria-describedby="footnote-label">1</a></sup>.</p>\n' +
      '<section class="footnotes" data-footnotes>\n<h2 id="footnote-label" class="visually-hidden">Footnotes</h2>\n<ol>\n' +
      '<li id="footnote-1">\n<p>Under IRC 7702, while the policy stays in force. <a href="#footnote-ref-1" data-footnote-backref aria-label="Back to reference 1">↩</a></p>\n</li>\n</ol>\n</section>';
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: writer, body: validPost({ status: 'published', title: 'Footnoted', content: `${footnotes}<p id="login">x</p>` }) });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual(['Removed attribute id from <p>']);
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.content).toBe(`${footnotes}<p>x</p>`);
    const page = await (await fetch(`${server.url}/blog/${res.json.post.slug}`)).text();
    expect(page).toContain('<li id="footnote-1">');
    expect(page).toContain('<a href="#footnote-ref-1" data-footnote-backref aria-label="Back to reference 1">↩</a>');
  });

  it('sanitises a long post exactly as a short one', async () => {
    const unsafe = '<p onclick="steal()">Hello <script>alert(1)</script><a href="javascript:alert(1)">link</a></p>';
    const content = unsafe.repeat(Math.ceil(LONG_POST_CHARS / unsafe.length));
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ status: 'published', title: 'A long sanitised post', content, surprise: true }),
    });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual([
      expect.stringMatching(/^Removed event-handler attribute onclick from <p> \(\d+ times\)$/),
      expect.stringMatching(/^Removed <script> element and its content \(\d+ times\)$/),
      expect.stringMatching(/^Removed unsafe javascript: URL from <a href> \(\d+ times\)$/),
      'Ignored unknown field "surprise"',
    ]);
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post.content).toBe('<p>Hello <a>link</a></p>'.repeat(Math.ceil(LONG_POST_CHARS / unsafe.length)));
  });

  it('keeps the fields a blog page needs', async () => {
    const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ status: 'published', title: 'Full Post', tags: ['IUL', 'iul', 'Taxes'], isNewsArticle: true }),
    });
    const back = await call<GetPostResponse>(server, 'GET', `/api/blog/${res.json.post.slug}`);
    expect(back.json.post).toMatchObject({
      slug: 'full-post',
      tags: ['IUL', 'Taxes'],
      author: { name: 'Jane Author', bio: 'Agent since 1998', credentials: 'CLU, ChFC' },
      isNewsArticle: true,
      category: { slug: 'iul-strategies', name: 'IUL Strategies' },
      trust: validPost().trust,
      status: 'published',
      published_at: res.json.post.created_at,
    });
  });
});

describe('POST /api/blog/validate', () => {
  it('runs the same checks without a key and saves nothing', async () => {
    const before = await call<ListPostsResponse>(server, 'GET', '/api/blog?status=draft&limit=1', { key: writer });
    const res = await call<ValidatePostResponse>(server, 'POST', '/api/blog/validate', {
      body: validPost({ title: 'First Post Ever', content: '<p>ok</p><script>x</script>' }),
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ success: true, valid: true, post: { slug: 'first-post-ever-2', status: 'draft', category: 'iul-strategies' } });
    expect(res.json.warnings).toContain('Removed <script> element and its content');
    const after = await call<ListPostsResponse>(server, 'GET', '/api/blog?status=draft&limit=1', { key: writer });
    expect(after.json.total).toBe(before.json.total);
  });

  it('answers an invalid post with the same 400 a create gives', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog/validate', { body: { title: 'x' } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('validation_failed');
    expect(res.json.errors?.map((e) => e.field)).toEqual(['title', 'content', 'excerpt', 'category', 'status', 'author.name']);
  });

  it('checks a key when one is sent', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog/validate', { body: validPost(), key: 'bpk_wrong' });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('malformed_api_key');
  });
});
