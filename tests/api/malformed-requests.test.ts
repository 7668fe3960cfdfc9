/**
 * Requests that are wrong before they reach a route, over real HTTP: unknown API paths (a JSON 404
 * naming the closest endpoint), methods no path has (405 with Allow, pages included, CONNECT too), a
 * form body that is not the form it says it is (400), a Host header that is not a host (400) and a header value with a stray carriage return (a JSON 400 sent from the
 * server's clientError event). None of them is a 5xx or leaves a stack in the log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../contract/errors';
import { QUOTE_FORM } from '../support/leads';
import { startTestServer, type TestServer } from '../support/server';
import { rawRequest } from './raw-request';
import { call } from './support';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  expect(server.logs.filter((line) => line.includes('failed (request') || line.includes('    at '))).toEqual([]);
  await server.close();
});

describe('an unknown API path', () => {
  it.each([
    ['POST', '/api/blogs', '/api/blog'],
    ['GET', '/api/post', '/api/blog'],
    ['GET', '/api/blog/x/y', '/api/blog'],
    ['GET', '/api', '/api/blog'],
    ['GET', '/api/helth', '/api/health'],
    ['POST', '/api/blog/validate/now', '/api/blog/validate'],
    ['DELETE', '/api/blog/categories/extra', '/api/blog/categories'],
  ])('%s %s is a JSON 404 suggesting %s', async (method, path, suggestion) => {
    const res = await call<ApiErrorBody>(server, method, path, method === 'GET' ? {} : { body: { title: 'x' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.json).toMatchObject({ success: false, code: 'not_found', didYouMean: suggestion });
    expect(res.json.message).toBe(`There is no API endpoint at ${path}. Did you mean ${suggestion}?`);
    expect(res.text).not.toContain('<html');
  });
});

describe('a method no path has', () => {
  it.each([
    ['/', 'GET, HEAD, OPTIONS'],
    ['/faq', 'GET, HEAD, OPTIONS'],
    ['/no-such-page', 'GET, HEAD, OPTIONS'],
    ['/api/usage-examples', 'GET, HEAD, OPTIONS'],
  ])('TRACE %s is a 405 with Allow: %s', async (path, allow) => {
    const res = await rawRequest(server.url, `TRACE ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body).toContain('405 Method Not Allowed');
  });

  it.each([
    ['TRACE', '/api/blog', 'GET, HEAD, POST, OPTIONS'],
    ['TRACE', '/api/health', 'GET, HEAD, OPTIONS'],
    ['PROPFIND', '/api/blog/some-post', 'GET, HEAD, PATCH, PUT, DELETE, OPTIONS'],
    ['MKCOL', '/api/blog/validate', 'POST, OPTIONS'],
  ])('%s %s is a JSON 405 with Allow: %s', async (method, path, allow) => {
    const res = await rawRequest(server.url, `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'method_not_allowed' });
  });

  it('answers CONNECT (which never reaches the app) with a JSON 405 and Allow, and goes on answering', async () => {
    const res = await rawRequest(server.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(res.headers['x-request-id']).toMatch(/\S/);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'method_not_allowed', message: expect.stringContaining('not a proxy') });
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('answers other methods on pages with 405 and OPTIONS with 204, both with Allow', async () => {
    const post = await call(server, 'POST', '/faq', { body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = await call(server, 'OPTIONS', '/faq');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('a form body that is not the form it says it is', () => {
  it.each(['/get-quote', '/get-quote.data'])('POST %s with a broken multipart body is a 400 that says what to do, and stores nothing', async (path) => {
    const before = (await server.store.leads.list({})).length;
    const cases = [
      // Cut short: no closing boundary.
      { type: 'multipart/form-data; boundary=XYZ', body: '--XYZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nJane' },
      // No boundary at all.
      { type: 'multipart/form-data', body: 'name=Jane' },
    ];
    for (const { type, body } of cases) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': type, Origin: server.url }, body });
      expect(res.status, type).toBe(400);
      expect(await res.text()).toContain(`The form could not be read (its body is not the multipart/form-data it says it is). Open ${server.url}/get-quote and send it from there.`);
    }
    expect((await server.store.leads.list({})).length).toBe(before);
  });

  it('still takes a well-formed multipart form (as a browser may send it)', async () => {
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(QUOTE_FORM)) form.append(name, value);
    const res = await fetch(`${server.url}/get-quote`, { method: 'POST', redirect: 'manual', headers: { Origin: server.url }, body: form });
    expect(res.status).toBe(303);
  });
});

describe('a Host header that is not a host', () => {
  const hosts = ['exa mple.com', 'example.com/evil', 'example.com:99999', '[::1', 'ex<am>ple', 'example.com:port'];

  it.each(hosts)('Host: %s is a JSON 400 under /api', async (host) => {
    const res = await rawRequest(server.url, `GET /api/blog HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body) as ApiErrorBody;
    expect(body).toMatchObject({ success: false, code: 'bad_request' });
    expect(body.message).toContain('The Host header is missing or not a valid host name');
  });

  it.each(hosts)('Host: %s is a plain-text 400 on a page', async (host) => {
    const res = await rawRequest(server.url, `GET /faq HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toContain('The Host header is missing or not a valid host name');
  });

  it('accepts names, addresses and ports', async () => {
    for (const host of ['localhost', 'www.example.com:8080', '127.0.0.1:3000', '[::1]:3000']) {
      const res = await rawRequest(server.url, `GET /api/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(res.status, host).toBe(200);
    }
  });
});

describe('a header value with a stray carriage return', () => {
  it.each(['/api/blog', '/faq'])('on %s is a JSON 400 and the connection is closed', async (path) => {
    const res = await rawRequest(server.url, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nX-Note: one\rtwo\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.connection).toBe('close');
    const body = JSON.parse(res.body) as ApiErrorBody;
    expect(body).toMatchObject({ success: false, code: 'bad_request', status: 400 });
    expect(body.message).toContain('stray carriage return');
    // Like every other answer, it carries a request id, in the header and the body.
    expect(res.headers['x-request-id']).toMatch(/^req_[0-9a-f]{32}$/);
    expect(body.request_id).toBe(res.headers['x-request-id']);
  });

  it('leaves the server answering', async () => {
    expect((await call(server, 'GET', '/api/health')).status).toBe(200);
  });
});
