/**
 * Every error status of the blog API from real HTTP requests, each with the catalogue's JSON body:
 * success false, message, code, guidance tailored to the client, and the fields a client needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import { type ApiErrorBody, ERROR_CATALOGUE, guidanceFor } from '../../contract/errors';
import type { Store } from '../../api/store/store';
import { StoreError } from '../../api/store/store-error';
import { withMember } from '../support/failing';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const PYTHON = { 'user-agent': 'python-requests/2.32.3' };
const POSTMAN = { 'user-agent': 'PostmanRuntime/7.43.0' };
const CURL = { 'user-agent': 'curl/8.5.0' };

let server: TestServer;
let writer: string;
let reader: string;

function expectErrorShape(body: ApiErrorBody, code: keyof typeof ERROR_CATALOGUE): void {
  expect(body.success).toBe(false);
  expect(body.code).toBe(code);
  expect(body.status).toBe(ERROR_CATALOGUE[code].status);
  // What an integrator reads: a sentence, the catalogue's title, the same text as RFC 9457's detail,
  // a link to the error's documentation and the request id to quote to support.
  expect(body.message).toMatch(/^[A-Z0-9"].*[.?!)"]$/s);
  expect(body.title).toBe(ERROR_CATALOGUE[code].title);
  expect(body.detail).toBe(body.message);
  expect(body.type).toMatch(new RegExp(`/api/usage-examples#error-${code}$`));
  expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
  expect(body.guidance[0]).toBe(ERROR_CATALOGUE[code].guidance[0]);
}

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('writer', ['blog:write']);
  reader = await server.createKey('reader', ['blog:read']);
});
afterAll(async () => {
  await server.close();
});

describe('400 Bad Request', () => {
  it('names every missing field by its path', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key: writer, body: { tags: ['x'] } });
    expect(res.status).toBe(400);
    expectErrorShape(res.json, 'validation_failed');
    expect(res.json.errors).toEqual([
      { field: 'title', problem: 'missing', message: 'title is required' },
      { field: 'content', problem: 'missing', message: 'content is required' },
      { field: 'excerpt', problem: 'missing', message: 'excerpt is required' },
      { field: 'category', problem: 'missing', message: 'category is required' },
      { field: 'status', problem: 'missing', message: 'status is required' },
      { field: 'author.name', problem: 'missing', message: 'author.name is required' },
    ]);
    expect(res.json.message).toContain('title, content, excerpt, category, status, author.name');
  });

  it('names invalid nested fields with their paths', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({
        title: 42,
        author: { name: '' },
        tags: Array.from({ length: 25 }, (_, i) => `t${i}`),
        trust: { sources: [{ name: 'ok', url: 'https://ok.example' }, { name: 'bad', url: 'javascript:alert(1)' }], factCheckedBy: { name: 'x', link: 'ftp://x' } },
        isNewsArticle: 'yes',
      }),
    });
    expect(res.status).toBe(400);
    const fields = Object.fromEntries((res.json.errors ?? []).map((e) => [e.field, e.problem]));
    expect(fields).toEqual({
      title: 'invalid',
      tags: 'invalid',
      'author.name': 'missing',
      isNewsArticle: 'invalid',
      'trust.factCheckedBy.link': 'invalid',
      'trust.sources[1].url': 'invalid',
    });
  });

  it('enforces the field limits', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ title: 'x'.repeat(201), excerpt: 'e'.repeat(501) }),
    });
    expect(res.json.errors).toEqual([
      { field: 'title', problem: 'invalid', message: 'title must be at most 200 characters' },
      { field: 'excerpt', problem: 'invalid', message: 'excerpt must be at most 500 characters' },
    ]);
  });

  it('says exactly what happened when the body is a JSON string holding the post', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      headers: { 'content-type': 'application/json', ...PYTHON },
      body: JSON.stringify(JSON.stringify(validPost())),
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.json, 'body_is_json_string');
    expect(res.json.message).toContain('JSON string');
    expect(res.json.message).toContain('serialised twice');
    expect(res.json.client).toBe('python');
    expect(res.json.guidance.join(' ')).toContain('json=json.dumps');
  });

  it('reports malformed JSON, noticing form-encoded text', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      headers: { 'content-type': 'application/json' },
      body: 'title=Hello&content=World',
    });
    expect(res.status).toBe(400);
    expectErrorShape(res.json, 'invalid_json');
    expect(res.json.guidance.join(' ')).toContain('form-encoded');
  });

  it('reports an empty body', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key: writer, headers: { 'content-type': 'application/json' }, body: '' });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_json');
    expect(res.json.message).toContain('empty');
  });

  it('points at the query string when the fields were sent there', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog?title=x&content=y&author_name=z', { key: writer, body: {} });
    expect(res.status).toBe(400);
    expect(res.json.guidance.join(' ')).toContain('title, content, author.name arrived as query parameters');
  });

  it('rejects a bad list query', async () => {
    const res = await call<ApiErrorBody>(server, 'GET', '/api/blog?page=0&limit=1000');
    expect(res.status).toBe(400);
    expect(res.json.errors?.map((e) => e.field)).toEqual(['page', 'limit']);
  });

  it('rejects an unusable Idempotency-Key', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key: writer, body: validPost(), headers: { 'idempotency-key': 'k'.repeat(300) } });
    expect(res.status).toBe(400);
    expectErrorShape(res.json, 'invalid_idempotency_key');
  });
});

describe('401 Unauthorized', () => {
  it('without a key', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), headers: POSTMAN });
    expect(res.status).toBe(401);
    expectErrorShape(res.json, 'missing_api_key');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(res.json.client).toBe('postman');
    expect(res.json.guidance).toEqual(guidanceFor('missing_api_key', 'postman'));
  });

  it('with the key in the wrong header', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), headers: { 'x-api-key': writer } });
    expect(res.status).toBe(401);
    expect(res.json.guidance.join(' ')).toContain('X-API-Key');
  });

  it('with another scheme than Bearer', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), headers: { authorization: `Token ${writer}` } });
    expect(res.status).toBe(401);
    expectErrorShape(res.json, 'malformed_api_key');
  });

  it('with a mistyped key (checksum)', async () => {
    const last = writer.at(-1) === 'a' ? 'b' : 'a';
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), key: `${writer.slice(0, -1)}${last}`, headers: CURL });
    expect(res.status).toBe(401);
    expectErrorShape(res.json, 'malformed_api_key');
    expect(res.json.message).toContain('checksum');
    expect(res.json.guidance.join(' ')).toContain("-H 'Authorization: Bearer YOUR_KEY'");
  });

  it('with a well-formed key the server does not know', async () => {
    const { formatApiKey } = await import('../../contract/keys');
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), key: formatApiKey('AAAAAAAAAA', 'B'.repeat(32)) });
    expect(res.status).toBe(401);
    expectErrorShape(res.json, 'invalid_api_key');
  });

  it('with a revoked key', async () => {
    const key = await server.createKey('to revoke');
    const [summary] = (await server.store.keys.list()).filter((k) => k.name === 'to revoke');
    await server.store.keys.update(summary?.id ?? '', { revokedAt: new Date().toISOString() });
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), key });
    expect(res.status).toBe(401);
    expect(res.json.code).toBe('invalid_api_key');
    expect(res.json.message).toContain('revoked');
  });

  it('for drafts without a key', async () => {
    const res = await call<ApiErrorBody>(server, 'GET', '/api/blog?status=draft');
    expect(res.status).toBe(401);
  });
});

describe('403 Forbidden', () => {
  it('for a key holding only blog:read', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost(), key: reader });
    expect(res.status).toBe(403);
    expectErrorShape(res.json, 'insufficient_permissions');
    expect(res.json.requiredPermission).toBe('blog:write');
    expect(res.json.guidance[0]).toContain('blog:write');
  });

  it('for a key holding only blog:read, however often it has been used before', async () => {
    // Used for what it may do first (its last-used time is then set), then refused every time.
    expect((await call(server, 'GET', '/api/blog?status=draft', { key: reader })).status).toBe(200);
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { body: validPost({ title: `Not by a reader ${attempt}` }), key: reader });
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('insufficient_permissions');
    }
    expect((await call(server, 'GET', '/api/blog/not-by-a-reader-0')).status).toBe(404);
  });

  it("for a change to a post another owner's key created, naming both owners", async () => {
    const created = await call<{ post: { id: string } }>(server, 'POST', '/api/blog', { body: validPost({ title: 'Owned by the writer' }), key: writer });
    const rival = await server.createKey('rival', ['blog:write']);
    const res = await call<ApiErrorBody>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { body: { title: 'Taken over' }, key: rival, headers: { 'if-match': '*' } });
    expect(res.status).toBe(403);
    expectErrorShape(res.json, 'not_post_owner');
    expect(res.json.message).toContain('"writer"');
    expect(res.json.message).toContain('"rival"');
    expect((await call<{ post: { title: string } }>(server, 'GET', `/api/blog/${created.json.post.id}`, { key: writer })).json.post.title).toBe('Owned by the writer');
  });
});

describe('404 Not Found', () => {
  it('for an unknown slug and an unknown API path', async () => {
    const post = await call<ApiErrorBody>(server, 'GET', '/api/blog/no-such-post');
    expect(post.status).toBe(404);
    expectErrorShape(post.json, 'post_not_found');
    const path = await call<ApiErrorBody>(server, 'GET', '/api/blog/a/b/c');
    expect(path.status).toBe(404);
    expectErrorShape(path.json, 'not_found');
  });
});

describe('405 Method Not Allowed', () => {
  it.each([
    ['PUT', '/api/blog', 'GET, HEAD, POST, OPTIONS'],
    ['DELETE', '/api/blog', 'GET, HEAD, POST, OPTIONS'],
    ['POST', '/api/blog/some-post', 'GET, HEAD, PATCH, PUT, DELETE, OPTIONS'],
    ['GET', '/api/blog/some-post/restore', 'POST, OPTIONS'],
    ['DELETE', '/api/blog/some-post/revisions', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/blog/validate', 'POST, OPTIONS'],
    ['POST', '/api/blog/categories', 'GET, HEAD, OPTIONS'],
    ['POST', '/api/health', 'GET, HEAD, OPTIONS'],
  ])('%s %s answers 405 with Allow: %s', async (method, path, allow) => {
    const res = await call<ApiErrorBody>(server, method, path, { headers: PYTHON });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expectErrorShape(res.json, 'method_not_allowed');
    expect(res.json.guidance.join(' ')).toContain('In Python send the body as JSON, not pre-serialised');
  });

  it('answers a plain OPTIONS with the allowed methods', async () => {
    const res = await call(server, 'OPTIONS', '/api/blog/validate');
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('413 Payload Too Large', () => {
  it('refuses a body over 1 MB', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ content: `<p>${'a'.repeat(1_100_000)}</p>` }),
    });
    expect(res.status).toBe(413);
    expectErrorShape(res.json, 'payload_too_large');
  });

  it('refuses a streamed body over 1 MB that declared no length', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"title":"'));
        if (sent > 20) controller.close();
        else controller.enqueue(chunk);
        sent += 1;
      },
    });
    const response = await fetch(`${server.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ApiErrorBody).code).toBe('payload_too_large');
  });
});

describe('415 Unsupported Media Type', () => {
  it.each([
    ['application/x-www-form-urlencoded', 'title=Hello&content=World', PYTHON, 'json=post'],
    ['text/plain', JSON.stringify(validPost()), POSTMAN, 'raw and then JSON'],
    ['multipart/form-data; boundary=x', '--x--', CURL, "-H 'Content-Type: application/json'"],
  ])('refuses %s with the fix for the client', async (type, body, agent, fix) => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key: writer, body, headers: { 'content-type': type, ...agent } });
    expect(res.status).toBe(415);
    expectErrorShape(res.json, 'unsupported_media_type');
    expect(res.json.receivedContentType).toBe(type.split(';')[0]);
    expect(res.json.guidance.join(' ')).toContain(fix);
  });

  it('refuses a body without a content type', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog', {
      key: writer,
      body: new TextEncoder().encode(JSON.stringify(validPost())),
      headers: PYTHON,
    });
    expect(res.status).toBe(415);
    expect(res.json.receivedContentType).toBeNull();
    expect(res.json.message).toContain('no Content-Type header');
    expect(res.json.guidance.join(' ')).toContain('add Content-Type: application/json');
  });
});

/** The server's store with `posts.create` replaced by `create` (everything else as it is). */
function withFailingCreate(create: () => Promise<never>): (store: Store) => Store {
  return (store) => withMember(store, 'posts', withMember(store.posts, 'create', create));
}

describe('500 Internal Server Error', () => {
  it('answers with the catalogue message, a request id and no stack', async () => {
    const failing = await startTestServer({
      wrapStore: withFailingCreate(() => Promise.reject(new Error('disk exploded at /secret/internal/path'))),
    });
    try {
      const key = await failing.createKey();
      const res = await call<ApiErrorBody>(failing, 'POST', '/api/blog', { key, body: validPost() });
      expect(res.status).toBe(500);
      expectErrorShape(res.json, 'server_error');
      expect(res.json.guidance[0]).toBe('Contact support or try again later.');
      expect(res.json.requestId).toMatch(/^req_[0-9a-f]{32}$/);
      expect(res.json.request_id).toBe(res.json.requestId);
      expect(res.text).not.toContain('exploded');
      expect(res.text).not.toContain('/secret/');
      expect(res.text).not.toMatch(/\bat \S+ \(/);
      expect(failing.logs.join('\n')).toContain(String(res.json.requestId));
      expect(failing.logs.join('\n')).toContain('disk exploded');
    } finally {
      await failing.close();
    }
  });
});

describe('507 and 503 when the data directory cannot take a write', () => {
  it.each([
    ['full', 507, 'storage_full'],
    ['read_only', 503, 'storage_unavailable'],
  ] as const)('a %s disk answers %i %s, says nothing was saved, and keeps every stored post', async (problem, status, code) => {
    let failWrites = false;
    const flaky = await startTestServer({
      wrapStore: (store) => {
        const create = store.posts.create.bind(store.posts);
        return withFailingCreate(((post: Parameters<typeof create>[0], options: Parameters<typeof create>[1]) =>
          failWrites ? Promise.reject(new StoreError(problem, '/data/posts/x.json', 'cannot write')) : create(post, options)) as () => Promise<never>)(store);
      },
    });
    try {
      const key = await flaky.createKey();
      const kept = await call<CreatePostResponse>(flaky, 'POST', '/api/blog', { key, body: validPost({ title: 'Stored before', status: 'published' }) });
      expect(kept.status).toBe(201);
      failWrites = true;
      const res = await call<ApiErrorBody>(flaky, 'POST', '/api/blog', { key, body: validPost({ title: 'Not stored' }) });
      expect(res.status).toBe(status);
      expectErrorShape(res.json, code);
      expect(res.json.message).toMatch(/^Nothing was saved: /);
      expect((await call(flaky, 'GET', '/api/blog/stored-before')).status).toBe(200);
      failWrites = false;
      const again = await call<CreatePostResponse>(flaky, 'POST', '/api/blog', { key, body: validPost({ title: 'Not stored' }) });
      expect(again.status).toBe(201);
      expect(again.json.post.slug).toBe('not-stored');
    } finally {
      await flaky.close();
    }
  });
});
