/**
 * The request log over real HTTP: one JSON line per /api request in DATA_DIR/logs/requests-<UTC day>.jsonl
 * with the request's id, status, code, key id, client and timings; a failed write keeps its body with
 * secrets and personal data redacted (the file is grepped for them); pages are not logged; and a key
 * named by a failed request records the failure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkApiKey, formatApiKey } from '../../contract/keys';
import { call, validPost } from './support';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
});

function logFile(): string {
  return path.join(server.dataDir, 'logs', `requests-${new Date().toISOString().slice(0, 10)}.jsonl`);
}

function logLines(): Array<Record<string, unknown>> {
  let text: string;
  try {
    text = readFileSync(logFile(), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The log's line for a request id, once the asynchronous writer has written it. */
async function lineFor(requestId: string | null): Promise<Record<string, unknown>> {
  return vi.waitFor(
    () => {
      const line = logLines().find((entry) => entry.requestId === requestId);
      if (!line) throw new Error(`no line for ${requestId} yet`);
      return line;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('the request log', () => {
  const email = 'jane.integrator@example.org';
  const phone = '(512) 555-0199';

  it('has one line per API request with what support needs, and none for pages', async () => {
    const key = await server.createKey('log writer');
    const id = checkApiKey(key).ok ? key.slice(4, 14) : '';
    const created = await call(server, 'POST', '/api/blog', { key, body: validPost(), headers: { 'User-Agent': 'python-requests/2.32.3' } });
    expect(created.status).toBe(201);
    const health = await call(server, 'GET', '/api/health?key=abc');
    const page = await call(server, 'GET', '/');
    expect(page.status).toBe(200);

    const line = await lineFor(created.headers.get('x-request-id'));
    expect(line).toMatchObject({ method: 'POST', path: '/api/blog', status: 201, code: null, keyId: id, client: 'python', userAgent: 'python-requests/2.32.3' });
    expect(Date.parse(String(line.time))).not.toBeNaN();
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.ip).toEqual(expect.any(String));
    expect(line.bodyBytes).toBe(Buffer.byteLength(JSON.stringify(validPost())));
    expect(line).not.toHaveProperty('body');
    expect(await lineFor(health.headers.get('x-request-id'))).toMatchObject({ method: 'GET', path: '/api/health', status: 200, keyId: null });
    expect(logLines().some((entry) => entry.requestId === page.headers.get('x-request-id'))).toBe(false);
  });

  it('keeps a failed write body with no secret, e-mail address or phone number in the file', async () => {
    const key = await server.createKey('leaky writer');
    const body = validPost({ title: '', content: `<p>Write to ${email} or call ${phone}; my key is ${key}</p>` });
    const failed = await call(server, 'POST', '/api/blog', { key, body, headers: { 'User-Agent': 'curl/8.5.0' } });
    expect(failed.status).toBe(400);
    const line = await lineFor(failed.headers.get('x-request-id'));
    expect(line).toMatchObject({ status: 400, code: 'validation_failed', client: 'curl', keyId: key.slice(4, 14) });
    expect(line.body).toEqual(expect.stringContaining('"title":""'));
    expect(line.body).toEqual(expect.stringContaining('[email]@example.org'));
    expect(line.body).toEqual(expect.stringContaining('[phone]'));
    const file = readFileSync(logFile(), 'utf8');
    expect(file).not.toContain(key);
    expect(file).not.toContain(key.slice(15));
    expect(file).not.toContain(email);
    expect(file).not.toContain('555-0199');
  });

  it('logs a rejected key by its id, never its secret, and records the failure on the key', async () => {
    const key = await server.createKey('mistyped');
    const shape = checkApiKey(key);
    if (!shape.ok) throw new Error('the test key is malformed');
    const wrong = formatApiKey(shape.publicId, 'x'.repeat(32));
    const rejected = await call(server, 'POST', '/api/blog', { key: wrong, body: validPost({ author: { name: 'A', email } }) });
    expect(rejected.status).toBe(401);
    expect(await lineFor(rejected.headers.get('x-request-id'))).toMatchObject({ status: 401, code: 'invalid_api_key', keyId: shape.publicId });
    const file = readFileSync(logFile(), 'utf8');
    expect(file).not.toContain(wrong);
    expect(file).not.toContain(email);
    const record = await vi.waitFor(
      async () => {
        const found = await server.store.keys.findById(shape.publicId);
        if (!found?.lastFailedAt) throw new Error('no failure recorded yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(record).toMatchObject({ lastFailureCode: 'invalid_api_key', lastUsedAt: null });
  });
});
