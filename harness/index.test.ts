/**
 * The harness against failures a healthy server will not produce on demand, served by msw: a proxy's
 * HTML 502, a dropped connection, a body that is not JSON, a server that accepts mistakes it should
 * refuse, a preflight without CORS headers.
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatApiKey } from '../contract/keys';
import { runTest } from './index';
import { memoryState, STATE_KEYS } from './state';
import { fetchTransport } from './transport';
import type { HarnessDeps, StateStore } from './types';

const BASE = 'http://api.test';
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const KEY = formatApiKey('AbCdEfGhIj', 'a'.repeat(32));

function deps(overrides: Partial<HarnessDeps> = {}, state: StateStore = memoryState()): HarnessDeps {
  return { baseUrl: BASE, transport: fetchTransport('node'), state, now: () => new Date('2026-01-02T03:04:05Z'), ...overrides };
}

const created = { success: true, message: 'Blog post created', post: { id: '1', slug: 'understanding', status: 'draft' } };
const errorBody = (status: number, code: string, guidance: string[]) => ({
  success: false,
  status,
  code,
  message: `${code} happened`,
  guidance,
  docs: '/api/usage-examples',
});

describe('runTest', () => {
  it('rejects an unknown test type with the valid list', async () => {
    const result = await runTest('ruby', deps());
    expect(result).toMatchObject({ success: false, message: 'Unknown test type: ruby', timestamp: '2026-01-02T03:04:05.000Z' });
    expect(result.detailed_instructions).toEqual(['Valid test types: python, dataParam, cors, postman, postmanFix, reset.']);
  });

  it('catches a mistyped key offline, before any request', async () => {
    const mistyped = `${KEY.slice(0, 20)}${KEY[20] === 'x' ? 'y' : 'x'}${KEY.slice(21)}`;
    const result = await runTest('python', deps({ apiKey: mistyped }));
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^Error running python test: The API key fails its checksum/);
    expect(result.probes).toEqual([]);
  });
});

describe('python', () => {
  it('sends the Python example request to the validation endpoint without a key', async () => {
    let seen: { ua: string | null; type: string | null; body: unknown } | undefined;
    server.use(
      http.post(`${BASE}/api/blog/validate`, async ({ request }) => {
        seen = { ua: request.headers.get('user-agent'), type: request.headers.get('content-type'), body: await request.json() };
        return HttpResponse.json({ success: true, valid: true, message: 'ok' });
      }),
    );
    const result = await runTest('python', deps());
    expect(result.success).toBe(true);
    expect(result.statusCode).toBe(200);
    expect(seen).toMatchObject({ ua: 'python-requests/2.31.0', type: 'application/json', body: { title: 'Understanding Indexed Universal Life Insurance' } });
  });

  it('creates a draft with a key and stores the request with the key masked', async () => {
    const state = memoryState();
    server.use(http.post(`${BASE}/api/blog`, () => HttpResponse.json(created, { status: 201 })));
    const result = await runTest('python', deps({ apiKey: KEY }, state));
    expect(result).toMatchObject({ success: true, statusCode: 201 });
    expect(result.message).toContain('draft post "understanding" created');
    expect(state.get(STATE_KEYS.authHeader)).toBe('Bearer bpk_AbCdEfGhIj_…' + KEY.slice(-4));
    expect(JSON.stringify([...Object.values(STATE_KEYS)].map((k) => state.get(k)))).not.toContain(KEY);
    expect(state.get(STATE_KEYS.method)).toBe('POST');
  });

  it('reports an HTML 502 from a proxy as "Failed to parse response" with the status code', async () => {
    server.use(
      http.post(`${BASE}/api/blog/validate`, () =>
        new HttpResponse('<html><body><h1>502 Bad Gateway</h1></body></html>', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      ),
    );
    const result = await runTest('python', deps());
    expect(result.success).toBe(false);
    expect(result.statusCode).toBe(502);
    expect(result.message).toBe('Failed to parse response: <html><body><h1>502 Bad Gateway</h1></body></html> (status 502)');
  });

  it('reports a dropped connection as a failed Python test', async () => {
    server.use(http.post(`${BASE}/api/blog/validate`, () => HttpResponse.error()));
    const result = await runTest('python', deps());
    expect(result.success).toBe(false);
    expect(result.message).toMatch(/^Python API test failed: /);
    expect(result.probes[0]?.error).toBeTruthy();
  });

  it('turns an API error into the catalogue guidance', async () => {
    server.use(
      http.post(`${BASE}/api/blog`, () =>
        HttpResponse.json(errorBody(403, 'insufficient_permissions', ['The key needs blog:write to create posts.']), { status: 403 }),
      ),
    );
    const result = await runTest('python', deps({ apiKey: KEY }));
    expect(result).toMatchObject({ success: false, statusCode: 403 });
    expect(result.message).toBe('Python API test failed: 403 insufficient_permissions: insufficient_permissions happened');
    expect(result.detailed_instructions).toEqual(['The key needs blog:write to create posts.']);
  });
});

describe('dataParam', () => {
  it('passes when the server refuses both mistakes with guidance', async () => {
    const seen: string[] = [];
    server.use(
      http.post(`${BASE}/api/blog/validate`, async ({ request }) => {
        const url = new URL(request.url);
        seen.push(`${request.headers.get('content-type')} ${url.searchParams.get('pythonClient')} ${url.searchParams.get('author_name')}`);
        return request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')
          ? HttpResponse.json(errorBody(415, 'unsupported_media_type', ['Use json=post']), { status: 415 })
          : HttpResponse.json(errorBody(400, 'body_is_json_string', ['Use json=post, not json.dumps']), { status: 400 });
      }),
    );
    const result = await runTest('dataParam', deps());
    expect(result.success).toBe(true);
    expect(seen).toEqual(['application/x-www-form-urlencoded true Jane Author', 'application/json null null']);
    expect(result.isDataParamError).toBeUndefined();
  });

  it('flags isDataParamError when the server accepts a form body', async () => {
    server.use(http.post(`${BASE}/api/blog/validate`, () => HttpResponse.json({ success: true }, { status: 200 })));
    const result = await runTest('dataParam', deps());
    expect(result).toMatchObject({ success: false, isDataParamError: true });
    expect(result.message).toContain('A form body (data=post): expected 415 unsupported_media_type, got 200');
  });
});

describe('cors', () => {
  it('passes on a preflight that allows the origin, POST and the headers', async () => {
    server.use(
      http.options(`${BASE}/api/blog`, () =>
        new HttpResponse(null, {
          status: 204,
          headers: {
            'Access-Control-Allow-Origin': '*',
            'Access-Control-Allow-Methods': 'GET,POST,OPTIONS',
            'Access-Control-Allow-Headers': 'Authorization,Content-Type,Idempotency-Key',
          },
        }),
      ),
    );
    const result = await runTest('cors', deps());
    expect(result).toMatchObject({ success: true, statusCode: 204 });
  });

  it('flags isCorsError on a preflight without CORS headers, and on a failed request', async () => {
    server.use(http.options(`${BASE}/api/blog`, () => new HttpResponse(null, { status: 405 })));
    const refused = await runTest('cors', deps());
    expect(refused).toMatchObject({ success: false, isCorsError: true, statusCode: 405 });
    expect(refused.message).toContain('no Access-Control-Allow-Origin header');

    server.use(http.options(`${BASE}/api/blog`, () => HttpResponse.error()));
    const dropped = await runTest('cors', deps());
    expect(dropped).toMatchObject({ success: false, isCorsError: true });
    expect(dropped.message).toMatch(/^Error initiating CORS test: /);
  });
});

describe('postman and postmanFix', () => {
  it('expects a 415 with guidance for a Text body, and a success for a JSON body', async () => {
    server.use(
      http.post(`${BASE}/api/blog/validate`, ({ request }) =>
        request.headers.get('content-type') === 'text/plain'
          ? HttpResponse.json(errorBody(415, 'unsupported_media_type', ['In Body choose raw and then JSON']), { status: 415 })
          : HttpResponse.json({ success: true, valid: true }),
      ),
    );
    expect(await runTest('postman', deps())).toMatchObject({ success: true, statusCode: 415, detailed_instructions: ['In Body choose raw and then JSON'] });
    expect(await runTest('postmanFix', deps())).toMatchObject({ success: true, statusCode: 200 });
  });

  it('fails the Postman simulation when a non-JSON body answers with text', async () => {
    server.use(http.post(`${BASE}/api/blog/validate`, () => new HttpResponse('Created', { status: 201 })));
    const result = await runTest('postmanFix', deps());
    expect(result.message).toBe('Failed to parse response: Created (status 201)');
  });
});

describe('reset', () => {
  it('clears every stored value of the test state', async () => {
    const state = memoryState();
    server.use(http.post(`${BASE}/api/blog/validate`, () => HttpResponse.json({ success: true })));
    await runTest('python', deps({}, state));
    expect(state.get(STATE_KEYS.response)).not.toBeNull();
    const result = await runTest('reset', deps({}, state));
    expect(result).toMatchObject({ success: true, message: 'Test state cleared (9 stored values removed).' });
    for (const key of Object.values(STATE_KEYS)) expect(state.get(key)).toBeNull();
  });
});
