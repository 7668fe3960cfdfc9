/**
 * Property: no generated request, however wrong its method, path, headers or body, gets a 5xx or
 * stops the server. 1,000 runs of bodies (random JSON, mutated posts, double-serialised posts,
 * bytes, deep nesting) with random content types, keys, Idempotency-Keys and user agents.
 */
import fc from 'fast-check';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { validPost } from './support';

let server: TestServer;
let writer: string;
let reader: string;
const agent = new Agent({ connections: 8, keepAliveTimeout: 10_000 });

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('fuzz writer', ['blog:write']);
  reader = await server.createKey('fuzz reader', ['blog:read']);
});
afterAll(async () => {
  await server.close();
  await agent.close();
});

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });

const method = fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');
const path = fc.oneof(
  fc.constantFrom('/api/blog', '/api/blog/', '/api/blog/validate', '/api/blog/categories', '/api/health', '/api/blog/a/b'),
  printable.map((s) => `/api/blog/${encodeURIComponent(s)}`),
  fc
    .record({ page: printable, limit: printable, category: printable, tag: printable, status: fc.constantFrom('draft', 'published', 'x', '') })
    .map((q) => `/api/blog?${new URLSearchParams(q).toString()}`),
);

const contentType = fc.option(
  fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'application/problem+json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'multipart/form-data; boundary=x',
      'application/xml',
    ),
    printable,
  ),
  { nil: undefined },
);

const authorization = fc.option(
  fc.oneof(
    fc.constant('Bearer <writer>'),
    fc.constant('Bearer <reader>'),
    fc.constant('Bearer <mistyped>'),
    printable.map((s) => `Bearer ${s}`),
    printable,
  ),
  { nil: undefined },
);

const post = validPost();
const mutatedPost = fc
  .record({
    field: fc.constantFrom(...Object.keys(post), 'author.name', 'trust.sources', 'extra'),
    value: fc.jsonValue({ maxDepth: 3 }),
  })
  .map(({ field, value }) => {
    const copy: Record<string, unknown> = structuredClone(post);
    if (field === 'author.name') copy.author = { ...(copy.author as object), name: value };
    else if (field === 'trust.sources') copy.trust = { sources: value };
    else copy[field] = value;
    return JSON.stringify(copy);
  });

const body = fc.option(
  fc.oneof(
    fc.json({ maxDepth: 4 }),
    mutatedPost,
    mutatedPost.map((text) => JSON.stringify(text)),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
    fc.integer({ min: 1, max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
    fc.integer({ min: 1, max: 3000 }).map((depth) => JSON.stringify({ ...post, content: `${'<div>'.repeat(depth)}x` })),
  ),
  { nil: undefined },
);

const headers = fc.record(
  {
    contentType,
    authorization,
    idempotencyKey: fc.option(printable, { nil: undefined }),
    userAgent: fc.option(fc.constantFrom('python-requests/2.32', 'PostmanRuntime/7.4', 'curl/8.5', 'HTTPie/3.2', 'Mozilla/5.0', ''), { nil: undefined }),
    origin: fc.option(fc.constantFrom('https://x.example', 'null'), { nil: undefined }),
    preflight: fc.boolean(),
  },
  { requiredKeys: ['preflight'] },
);

function realHeaders(h: {
  contentType?: string;
  authorization?: string;
  idempotencyKey?: string;
  userAgent?: string;
  origin?: string;
  preflight: boolean;
}): Record<string, string> {
  const out: Record<string, string> = {};
  if (h.contentType !== undefined) out['content-type'] = h.contentType;
  if (h.authorization !== undefined) {
    out.authorization = h.authorization
      .replace('<writer>', writer)
      .replace('<reader>', reader)
      .replace('<mistyped>', `${writer.slice(0, 10)}X${writer.slice(11)}`);
  }
  if (h.idempotencyKey !== undefined) out['idempotency-key'] = h.idempotencyKey;
  if (h.userAgent !== undefined) out['user-agent'] = h.userAgent;
  if (h.origin !== undefined) out.origin = h.origin;
  if (h.preflight) out['access-control-request-method'] = 'POST';
  return out;
}

it('never answers a generated request with a 5xx', async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
      runs += 1;
      const withBody = m !== 'GET' && m !== 'HEAD' && b !== undefined;
      const res = await request(`${server.url}${p}`, {
        method: m as 'GET',
        headers: realHeaders(h),
        body: withBody ? b : undefined,
        dispatcher: agent,
      });
      const text = await res.body.text();
      expect(res.statusCode, `${m} ${p} -> ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode >= 400 && m !== 'HEAD' && String(res.headers['content-type']).includes('json')) {
        const parsed = JSON.parse(text) as { success?: unknown; code?: unknown };
        expect(parsed.success).toBe(false);
        expect(typeof parsed.code).toBe('string');
      }
    }),
    { numRuns: 1000 },
  );
  expect(runs).toBeGreaterThanOrEqual(1000);
  const health = await request(`${server.url}/api/health`, { dispatcher: agent });
  expect(health.statusCode).toBe(200);
  await health.body.text();
  expect(server.logs.filter((line) => line.includes('failed (request'))).toEqual([]);
}, 120_000);
