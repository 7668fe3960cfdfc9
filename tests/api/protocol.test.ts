/**
 * The HTTP protocol features of writes: Idempotency-Key (replay, 422 on another body, 24 hours, scoped
 * per API key), CORS (preflight without a key, configurable origins) and the per-key rate limit (429
 * with Retry-After).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { ListPostsResponse } from '../../contract/blog-reader';
import type { ApiErrorBody } from '../../contract/errors';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

describe('Idempotency-Key', () => {
  let server: TestServer;
  let key: string;
  let reader: string;
  let clock = Date.parse('2025-03-01T12:00:00Z');

  beforeAll(async () => {
    server = await startTestServer({ api: { writesPerMinute: 0 }, now: () => new Date(clock) });
    key = await server.createKey('idempotent', ['blog:write']);
    reader = await server.createKey('reader', ['blog:read']);
  });
  afterAll(async () => {
    await server.close();
  });

  const drafts = async () => (await call<ListPostsResponse>(server, 'GET', '/api/blog?status=draft&limit=100', { key: reader })).json.total;

  it('returns the first answer to a retry and creates nothing more', async () => {
    const before = await drafts();
    const body = validPost({ title: 'Retry Me', content: '<p>x</p><script>y</script>' });
    const first = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'retry-1' } });
    const second = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'retry-1' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.json).toEqual(first.json);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    expect(second.headers.get('idempotency-replayed')).toBe('true');
    expect(await drafts()).toBe(before + 1);
  });

  it('treats concurrent identical requests as one', async () => {
    const before = await drafts();
    const body = validPost({ title: 'Racing Twins' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'race' } })),
    );
    expect(new Set(answers.map((a) => a.json.post.id)).size).toBe(1);
    expect(answers.every((a) => a.status === 201)).toBe(true);
    expect(await drafts()).toBe(before + 1);
  });

  it('answers 422 when the same key comes with another body', async () => {
    await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'One' }), headers: { 'idempotency-key': 'k-422' } });
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Two' }), headers: { 'idempotency-key': 'k-422' } });
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ success: false, code: 'idempotency_key_mismatch' });
    expect(res.json.guidance[0]).toContain('24 hours');
  });

  it('is scoped to the API key', async () => {
    const other = await server.createKey('other writer');
    const body = validPost({ title: 'Shared Idempotency Key' });
    const a = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'shared' } });
    const b = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: other, body, headers: { 'idempotency-key': 'shared' } });
    expect(a.json.post.id).not.toBe(b.json.post.id);
  });

  it('forgets keys after 24 hours', async () => {
    const body = validPost({ title: 'Yesterday' });
    const first = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'day' } });
    clock += 24 * 60 * 60 * 1000 + 1000;
    const again = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'day' } });
    expect(again.status).toBe(201);
    expect(again.json.post.id).not.toBe(first.json.post.id);
    expect(again.json.post.slug).toBe('yesterday-2');
  });

  it('changes nothing without the header', async () => {
    const body = validPost({ title: 'No Header' });
    const a = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body });
    const b = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body });
    expect(a.json.post.id).not.toBe(b.json.post.id);
  });

  it('survives a restart', async () => {
    const body = validPost({ title: 'Remembered' });
    const first = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'restart' } });
    const dataDir = server.dataDir;
    const restarted = await startTestServer({ dataDir, now: () => new Date(clock) });
    try {
      const again = await call<CreatePostResponse>(restarted, 'POST', '/api/blog', { key, body, headers: { 'idempotency-key': 'restart' } });
      expect(again.json).toEqual(first.json);
    } finally {
      await restarted.close();
    }
  });
});

describe('CORS', () => {
  let open: TestServer;
  let limited: TestServer;

  beforeAll(async () => {
    [open, limited] = await Promise.all([
      startTestServer(),
      startTestServer({ api: { corsOrigins: ['https://partner.example'] } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([open.close(), limited.close()]);
  });

  const preflight = (server: TestServer, origin: string) =>
    call(server, 'OPTIONS', '/api/blog', {
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
    });

  it('answers a preflight without a key, allowing the headers a create needs', async () => {
    const res = await preflight(open, 'https://anywhere.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'content-type', 'idempotency-key']) expect(allowed).toContain(header);
  });

  it('lets browsers read answers, errors included', async () => {
    const res = await call(open, 'POST', '/api/blog', { body: validPost(), headers: { origin: 'https://anywhere.example' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('Location');
  });

  it('allows only the configured origins when a list is set', async () => {
    const ok = await preflight(limited, 'https://partner.example');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const refused = await preflight(limited, 'https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
    expect((refused.json as unknown as ApiErrorBody).code).toBe('origin_not_allowed');
    const read = await call(limited, 'GET', '/api/blog', { headers: { origin: 'https://evil.example' } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  let server: TestServer;
  let clock = Date.parse('2025-03-01T12:00:00Z');

  beforeAll(async () => {
    server = await startTestServer({ api: { writesPerMinute: 3 }, now: () => new Date(clock) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('allows the limit per key, then answers 429 with Retry-After', async () => {
    const key = await server.createKey('busy');
    const other = await server.createKey('quiet');
    for (let i = 0; i < 3; i++) {
      const res = await call(server, 'POST', '/api/blog', { key, body: validPost({ title: `Burst ${i}` }) });
      expect(res.status).toBe(201);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
    }
    const limited = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost() });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ success: false, code: 'rate_limited', retryAfterSeconds: 20 });
    expect(limited.headers.get('retry-after')).toBe('20');
    expect((await call(server, 'POST', '/api/blog', { key: other, body: validPost({ title: 'Other key' }) })).status).toBe(201);
    clock += 20_000;
    expect((await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'After waiting' }) })).status).toBe(201);
  });

  it('never limits reads', async () => {
    for (let i = 0; i < 10; i++) expect((await call(server, 'GET', '/api/blog')).status).toBe(200);
  });
});

describe('security headers', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer();
    key = await server.createKey('headers', ['blog:write']);
  });
  afterAll(async () => {
    await server.close();
  });

  /** The headers OWASP's REST Security Cheat Sheet gives an API, and none meant only for documents. */
  function expectApiHeaders(headers: Headers): void {
    expect(headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('DENY');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    for (const name of ['x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'origin-agent-cluster']) {
      expect(headers.get(name), name).toBeNull();
    }
  }

  it('gives every API answer, success or error, the API set', async () => {
    const created = await fetch(`${server.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(validPost()),
    });
    expect(created.status).toBe(201);
    expectApiHeaders(created.headers);
    const refused = await fetch(`${server.url}/api/blog`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expectApiHeaders(refused.headers);
    expectApiHeaders((await fetch(`${server.url}/api/blog?limit=1`)).headers);
    expectApiHeaders((await fetch(`${server.url}/api/health`)).headers);
  });

  it('answers HEAD on a page with the headers a GET gets, and no body', async () => {
    for (const page of ['/', '/faq', '/blog', '/rss.xml']) {
      const get = await fetch(`${server.url}${page}`, { headers: { 'accept-encoding': 'identity' } });
      const body = await get.text();
      const head = await fetch(`${server.url}${page}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } });
      expect(head.status, page).toBe(get.status);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'content-security-policy', 'permissions-policy']) {
        expect(head.headers.get(name), `${page} ${name}`).toBe(get.headers.get(name));
      }
      expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(body));
      expect(await head.text()).toBe('');
    }
  });

  it('keeps idle connections longer than a proxy in front keeps its own (api/http/listener.ts)', async () => {
    for (const page of ['/', '/api/blog?limit=1']) expect((await fetch(`${server.url}${page}`)).headers.get('keep-alive'), page).toBe('timeout=65');
  });

  it('keeps the page set on pages, the API examples page included', async () => {
    for (const page of ['/', '/api/usage-examples']) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
      // frame-ancestors in the policy, not the older X-Frame-Options, keeps pages out of other sites' frames.
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
      expect(res.headers.get('x-frame-options')).toBeNull();
      expect(res.headers.get('x-dns-prefetch-control')).toBeNull();
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    }
  });
});
