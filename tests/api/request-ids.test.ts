/**
 * Request ids over real HTTP: every answer (page, API success, API 4xx and 5xx, the 404 page, the HTML
 * error page) carries X-Request-Id; a sane incoming id is kept and any other replaced; error bodies carry
 * request_id and the RFC 9457 fields, as application/problem+json to clients that prefer it; and the
 * usage-examples page has the entry each `type` links to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiErrorBody, ERROR_CATALOGUE } from '../../contract/errors';
import type { Store } from '../../api/store/store';
import { call, validPost } from './support';
import { withMember } from '../support/failing';
import { startTestServer, type TestServer } from '../support/server';

const SITE_URL = 'https://iul.example.com';
const REQUEST_ID = /^req_[0-9a-f]{32}$/;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { SITE_URL }, api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
});

describe('X-Request-Id', () => {
  it('is on every answer: a page, the 404 page, an API success, an API 4xx', async () => {
    const key = await server.createKey();
    const answers = await Promise.all([
      call(server, 'GET', '/'),
      call(server, 'GET', '/no-such-page'),
      call(server, 'GET', '/api/health'),
      call(server, 'POST', '/api/blog', { key, body: validPost() }),
      call(server, 'POST', '/api/blog', { body: validPost() }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 200, 201, 401]);
    const ids = answers.map((answer) => answer.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is on the HTML error page, which shows it for the visitor to quote', async () => {
    const res = await call(server, 'GET', '/%E0%A4%A');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-type')).toContain('text/html');
    const id = res.headers.get('x-request-id') ?? '';
    expect(id).toMatch(REQUEST_ID);
    expect(res.text).toContain(`quote the request id <code>${id}</code>`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('The address could not be read: it has a % that is not followed by a valid encoded character.');
  });

  it('keeps a sane incoming id and replaces one that is not', async () => {
    const sane = 'trace-42:abc.DEF_9';
    const kept = await call(server, 'GET', '/api/blog/no-such-post', { headers: { 'X-Request-Id': sane } });
    expect(kept.headers.get('x-request-id')).toBe(sane);
    expect(kept.json.request_id).toBe(sane);
    for (const insane of ['has space', 'x'.repeat(129), '<script>', 'a/b']) {
      const replaced = await call(server, 'GET', '/', { headers: { 'X-Request-Id': insane } });
      expect(replaced.headers.get('x-request-id')).toMatch(REQUEST_ID);
    }
  });
});

describe('error bodies', () => {
  it('carry request_id and the RFC 9457 fields beside their own', async () => {
    const res = await call<ApiErrorBody>(server, 'POST', '/api/blog?x=1', { body: validPost() });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json).toMatchObject({
      success: false,
      code: 'missing_api_key',
      status: 401,
      message: ERROR_CATALOGUE.missing_api_key.message,
      request_id: res.headers.get('x-request-id'),
      type: `${SITE_URL}/api/usage-examples#error-missing_api_key`,
      title: ERROR_CATALOGUE.missing_api_key.title,
      detail: ERROR_CATALOGUE.missing_api_key.message,
      instance: '/api/blog',
    });
    expect(res.json.guidance.length).toBeGreaterThan(0);
  });

  it('are application/problem+json when the client prefers it, JSON otherwise', async () => {
    const problem = await call(server, 'GET', '/api/nope', { headers: { Accept: 'application/problem+json' } });
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(problem.text)).toMatchObject({ code: 'not_found', type: `${SITE_URL}/api/usage-examples#error-not_found`, instance: '/api/nope' });
    const preferred = await call(server, 'GET', '/api/nope', { headers: { Accept: 'application/json;q=0.5, application/problem+json' } });
    expect(preferred.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const plain = await call(server, 'GET', '/api/nope', { headers: { Accept: 'application/json, application/problem+json;q=0.5' } });
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('carry the request id on a 5xx too, the same one the server logged', async () => {
    const failing = await startTestServer({
      wrapStore: (store: Store) => withMember(store, 'posts', withMember(store.posts, 'create', () => Promise.reject(new Error('disk exploded')))),
    });
    try {
      const key = await failing.createKey();
      const res = await call<ApiErrorBody>(failing, 'POST', '/api/blog', { key, body: validPost() });
      expect(res.status).toBe(500);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(REQUEST_ID);
      expect(res.json).toMatchObject({ code: 'server_error', request_id: id, requestId: id, title: ERROR_CATALOGUE.server_error.title, status: 500 });
      expect(failing.logs.join('\n')).toContain(String(id));
    } finally {
      await failing.close();
    }
  });

  it('link to an entry of the usage-examples page for every error code', async () => {
    const page = await call(server, 'GET', '/api/usage-examples');
    expect(page.status).toBe(200);
    for (const code of Object.keys(ERROR_CATALOGUE)) expect(page.text).toContain(`id="error-${code}"`);
  });
});
