import { describe, expect, it } from 'vitest';
import { checkCreatePostBody, createPostSchema, htmlNestingDepth } from './blog';
import { BLOG_CATEGORIES, categoryNameFor, categorySlugFor } from './categories';
import { identifyClient } from './clients';
import { ApiError, ERROR_CATALOGUE, errorBodyFor, errorCodeForStatus, guidanceFor, guidanceForUserAgent, isApiErrorBody } from './errors';
import { slugify } from './slug';

const post = { title: 'Hello', content: '<p>x</p>', excerpt: 'e', category: 'Tax Benefits', status: 'Draft', author: { name: 'A' } };

describe('categories', () => {
  it('are the five of the specification with their counts', () => {
    expect(BLOG_CATEGORIES.map((c) => [c.name, c.slug, c.postCount])).toEqual([
      ['Insurance Basics', 'insurance-basics', 8],
      ['IUL Strategies', 'iul-strategies', 12],
      ['Retirement Planning', 'retirement-planning', 6],
      ['Tax Benefits', 'tax-benefits', 5],
      ['Financial Education', 'financial-education', 10],
    ]);
    for (const category of BLOG_CATEGORIES) expect(Object.keys(category).sort()).toEqual(['createdAt', 'description', 'id', 'name', 'postCount', 'slug']);
  });

  it('map names and slugs in any case, anything else to uncategorized', () => {
    expect(categorySlugFor('IUL Strategies')).toBe('iul-strategies');
    expect(categorySlugFor('  iul   STRATEGIES ')).toBe('iul-strategies');
    expect(categorySlugFor('retirement_planning')).toBe('retirement-planning');
    expect(categorySlugFor('Whole Life')).toBe('uncategorized');
    expect(categorySlugFor('')).toBe('uncategorized');
    expect(categoryNameFor('tax-benefits')).toBe('Tax Benefits');
    expect(categoryNameFor('nope')).toBe('Uncategorized');
  });
});

describe('slugify', () => {
  it('makes readable ASCII slugs', () => {
    expect(slugify('Why IUL Beats a 401(k) — Really?')).toBe('why-iul-beats-a-401-k-really');
    expect(slugify('Crème brûlée & Roth IRAs')).toBe('creme-brulee-and-roth-iras');
    expect(slugify("Don't Panic")).toBe('dont-panic');
    expect(slugify('!!!')).toBe('');
    const long = slugify('word '.repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith('-')).toBe(false);
  });
});

describe('createPostSchema and checkCreatePostBody', () => {
  it('accepts the specification example and normalises it', () => {
    const check = checkCreatePostBody({ ...post, tags: 'a, b', author: { name: ' A ', bio: null }, extra: 1 });
    expect(check).toMatchObject({ ok: true, ignoredFields: ['extra'], data: { status: 'draft', tags: ['a', 'b'], author: { name: 'A', bio: null } } });
    expect(createPostSchema.safeParse(post).success).toBe(true);
  });

  it('recognises a pre-serialised body', () => {
    expect(checkCreatePostBody(JSON.stringify(post))).toEqual({ ok: false, reason: 'json_string' });
    expect(checkCreatePostBody('"just text"')).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('names missing fields, nested ones included, and hints at aliases', () => {
    const check = checkCreatePostBody({ body: '<p>x</p>', author_name: 'A' });
    if (check.ok || check.reason !== 'invalid') throw new Error('expected problems');
    expect(check.problems.map((p) => `${p.field}:${p.problem}`)).toEqual([
      'title:missing',
      'content:missing',
      'excerpt:missing',
      'category:missing',
      'status:missing',
      'author.name:missing',
    ]);
    expect(check.problems[1]?.message).toContain('"body"');
    expect(check.problems[5]?.message).toContain('"author_name"');
  });

  it('treats null and blank required fields as missing', () => {
    const check = checkCreatePostBody({ ...post, title: null, excerpt: '   ' });
    if (check.ok || check.reason !== 'invalid') throw new Error('expected problems');
    expect(check.problems).toEqual([
      { field: 'title', problem: 'missing', message: 'title is required' },
      { field: 'excerpt', problem: 'missing', message: 'excerpt is required' },
    ]);
  });

  it('measures HTML nesting without being fooled by void and optional-end elements', () => {
    expect(htmlNestingDepth('<div><p>a<p>b<br><img src=x></div>')).toBe(1);
    expect(htmlNestingDepth('<ul><li><b><i>x</i></b></li></ul>')).toBe(3);
    expect(htmlNestingDepth('<div>'.repeat(150))).toBe(150);
    const check = checkCreatePostBody({ ...post, content: '<div>'.repeat(101) });
    expect(check.ok).toBe(false);
  });
});

describe('clients', () => {
  it.each([
    ['python-requests/2.32.3', 'python'],
    ['Python-urllib/3.12', 'python'],
    ['PyCharm HTTP client', 'python'],
    ['PostmanRuntime/7.43.0', 'postman'],
    ['insomnia/2023.5.8', 'insomnia'],
    ['HTTPie/3.2.4', 'httpie'],
    ['curl/8.5.0', 'curl'],
    ['Wget/1.21.4', 'wget'],
    ['my-http-client/1.0', 'http-client'],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/120', 'browser'],
    ['', 'unknown'],
  ])('%j is %s', (agent, kind) => {
    expect(identifyClient(agent).kind).toBe(kind);
    expect(identifyClient(agent).external).toBe(kind !== 'browser' && kind !== 'unknown');
  });
});

describe('error catalogue', () => {
  it('has stable snake_case codes, each with its own message and guidance an integrator can act on', () => {
    const messages = new Map<string, string>();
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      // Whole sentences, never a placeholder, and no two codes answered with the same text.
      for (const text of [entry.message, ...entry.guidance]) {
        expect(text, code).toMatch(/^[A-Z"].*[.?!)"]$/s);
        expect(text, code).not.toMatch(/TODO|TBD|lorem/i);
      }
      expect(messages.get(entry.message), `${code} repeats the message of ${messages.get(entry.message) ?? ''}`).toBeUndefined();
      messages.set(entry.message, code);
      expect(entry.message).not.toBe(entry.title);
      expect(entry.guidance.length).toBeGreaterThan(0);
    }
    const statuses = new Set(Object.values(ERROR_CATALOGUE).map((e) => e.status));
    for (const status of [400, 401, 403, 405, 413, 415, 422, 429, 500]) expect(statuses).toContain(status);
  });

  it('carries the guidance of SPEC section 8', () => {
    expect(guidanceFor('validation_failed')[0]).toContain('Include all required fields');
    expect(guidanceFor('missing_api_key')[0]).toContain('Check the key is valid and sent in the Authorization header');
    expect(guidanceFor('insufficient_permissions')[0]).toContain('The key needs blog:write');
    expect(guidanceFor('method_not_allowed', 'python').join(' ')).toContain('In Python send the body as JSON, not pre-serialised, with content type application/json');
    expect(guidanceFor('server_error')[0]).toBe('Contact support or try again later.');
  });

  it('tailors guidance to the client', () => {
    expect(guidanceForUserAgent('unsupported_media_type', 'python-requests/2').join(' ')).toContain('json=post');
    expect(guidanceForUserAgent('unsupported_media_type', 'PostmanRuntime/7').join(' ')).toContain('raw');
    expect(guidanceForUserAgent('unsupported_media_type', 'curl/8').join(' ')).toContain('-H');
    expect(guidanceForUserAgent('unsupported_media_type', 'Mozilla/5.0')).toEqual([...ERROR_CATALOGUE.unsupported_media_type.guidance]);
  });

  it('renders an ApiError as the JSON body, extras never overriding the fields', () => {
    const error = new ApiError('rate_limited', { extra: { retryAfterSeconds: 3, code: 'hijack' }, hints: ['extra hint'] });
    const body = errorBodyFor(error, 'curl');
    expect(body).toMatchObject({ success: false, code: 'rate_limited', status: 429, client: 'curl', retryAfterSeconds: 3, docs: '/api/usage-examples' });
    expect(body.guidance.at(-1)).toBe('extra hint');
    expect(isApiErrorBody(body)).toBe(true);
    expect(isApiErrorBody({ success: false, code: 'nope', message: 'x' })).toBe(false);
    expect(errorCodeForStatus(503)).toBe('server_error');
    expect(errorCodeForStatus(418)).toBe('bad_request');
  });
});
