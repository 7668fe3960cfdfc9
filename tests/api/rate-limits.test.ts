/**
 * Fair rate limits over real HTTP: only successful writes use up a key's write limit, failed attempts
 * have their own larger one (FAILED_WRITES_FACTOR times the write limit), and POST /api/blog/validate
 * has its own limit per key or, without a key, per IP. Every 429 carries Retry-After. The clock is the
 * server's injected one, so waiting is a step of the test, not a timing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_WRITES_FACTOR } from '../../api/http/rate-limit';
import type { ApiErrorBody } from '../../contract/errors';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const WRITES = 2;
const VALIDATIONS = 3;
let server: TestServer;
let clock = Date.parse('2025-03-01T12:00:00Z');

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: WRITES, validationsPerMinute: VALIDATIONS }, now: () => new Date(clock) });
});
afterAll(async () => {
  await server.close();
});

const invalidPost = () => validPost({ title: undefined });

describe('the write limit', () => {
  it('is not used up by failed writes: a good write after many failures succeeds', async () => {
    const key = await server.createKey('clumsy');
    for (let i = 0; i < WRITES * 3; i++) {
      const failed = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: invalidPost() });
      expect(failed.status).toBe(400);
    }
    for (let i = 0; i < WRITES; i++) {
      expect((await call(server, 'POST', '/api/blog', { key, body: validPost({ title: `Good write ${i}` }) })).status).toBe(201);
    }
    const limited = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'One too many' }) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.json).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 30, limitPerMinute: WRITES });
    expect(limited.json.message).toBe(`Too many writes with this API key (the limit is ${WRITES} successful writes a minute; failed requests do not count). Retry in 30 seconds.`);
    clock += 30_000;
    expect((await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'After waiting' }) })).status).toBe(201);
  });

  it('caps failed attempts separately, saying so in the 429', async () => {
    const key = await server.createKey('broken client');
    const cap = WRITES * FAILED_WRITES_FACTOR;
    for (let i = 0; i < cap; i++) expect((await call(server, 'POST', '/api/blog', { key, body: invalidPost() })).status).toBe(400);
    const limited = await call<ApiErrorBody>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Fixed at last' }) });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('6');
    expect(limited.json.message).toBe(
      `Too many failed requests with this API key (the limit is ${cap} failed attempts a minute, apart from the ${WRITES} successful writes). Retry in 6 seconds.`,
    );
    expect(limited.json.guidance).toContain('Fix what the earlier answers reported (their code and errors say what) before sending the post again.');
    clock += 6_000;
    expect((await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Fixed at last' }) })).status).toBe(201);
  });
});

describe('the validation limit', () => {
  it('limits validations per IP without a key, and per key with one, apart from writes', async () => {
    for (let i = 0; i < VALIDATIONS; i++) {
      const res = await call(server, 'POST', '/api/blog/validate', { body: i === 0 ? invalidPost() : validPost() });
      expect(res.status).toBe(i === 0 ? 400 : 200);
      expect(res.headers.get('ratelimit-limit')).toBe(String(VALIDATIONS));
    }
    const limited = await call<ApiErrorBody>(server, 'POST', '/api/blog/validate', { body: validPost() });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('20');
    expect(limited.json.message).toBe(`Too many validations from this IP address (the limit is ${VALIDATIONS} a minute). Retry in 20 seconds.`);

    const key = await server.createKey('validator');
    for (let i = 0; i < VALIDATIONS; i++) expect((await call(server, 'POST', '/api/blog/validate', { key, body: validPost() })).status).toBe(200);
    const keyLimited = await call<ApiErrorBody>(server, 'POST', '/api/blog/validate', { key, body: validPost() });
    expect(keyLimited.status).toBe(429);
    expect(keyLimited.headers.get('retry-after')).toBe('20');
    expect(keyLimited.json.message).toContain('Too many validations from this API key');

    expect((await call(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Writes are apart' }) })).status).toBe(201);
    clock += 20_000;
    expect((await call(server, 'POST', '/api/blog/validate', { body: validPost() })).status).toBe(200);
  });
});
