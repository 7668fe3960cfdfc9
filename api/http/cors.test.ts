/**
 * CORS as a browser meets it: the headers an allowed origin gets on a request and on a preflight, the
 * refusal of another origin, and how CORS_ORIGINS is read.
 */
import type { ParameterizedContext } from 'koa';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../contract/errors';
import type { ApiState } from './context';
import { CORS_ALLOWED_HEADERS, type CorsOrigins, cors, parseCorsOrigins } from './cors';

interface Answer {
  status: number;
  headers: Record<string, string>;
  vary: string[];
  error?: ApiError;
  reachedRoutes: boolean;
}

/** Runs the middleware; the routes behind it answer `routeStatus` (404 when nothing matched). */
async function run(origins: CorsOrigins, method: string, requestHeaders: Record<string, string>, routeStatus = 200): Promise<Answer> {
  const lower = Object.fromEntries(Object.entries(requestHeaders).map(([name, value]) => [name.toLowerCase(), value]));
  const answer: Answer = { status: 404, headers: {}, vary: [], reachedRoutes: false };
  const ctx = {
    method,
    get: (name: string) => lower[name.toLowerCase()] ?? '',
    set: (name: string, value: string) => {
      answer.headers[name] = value;
    },
    vary: (name: string) => answer.vary.push(name),
    get status() {
      return answer.status;
    },
    set status(value: number) {
      answer.status = value;
    },
  } as unknown as ParameterizedContext<ApiState>;
  try {
    await cors(origins)(ctx, async () => {
      answer.reachedRoutes = true;
      answer.status = routeStatus;
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    answer.error = error;
  }
  return answer;
}

const EXPOSED = 'Location, ETag, Retry-After, Idempotency-Replayed, RateLimit-Limit, RateLimit-Remaining';

describe('cors', () => {
  it('allows any origin with *, exposing the headers a client reads, without preflight headers on a GET', async () => {
    const answer = await run('*', 'GET', { Origin: 'https://example.org' });
    expect(answer.reachedRoutes).toBe(true);
    expect(answer.headers).toEqual({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED });
    expect(answer.vary).toEqual([]);
  });

  it('echoes a listed origin, varies on Origin, and gives an unlisted one no CORS headers', async () => {
    const listed = await run(['https://a.example'], 'POST', { Origin: 'https://a.example' });
    expect(listed.headers['Access-Control-Allow-Origin']).toBe('https://a.example');
    expect(listed.headers['Access-Control-Expose-Headers']).toBe(EXPOSED);
    expect(listed.vary).toEqual(['Origin']);
    const other = await run(['https://a.example'], 'POST', { Origin: 'https://b.example' });
    expect(other.reachedRoutes).toBe(true);
    expect(other.headers).toEqual({});
    expect(other.vary).toEqual(['Origin']);
    const none = await run(['https://a.example'], 'GET', {});
    expect(none.headers).toEqual({});
  });

  it('answers a preflight from an allowed origin with 204 and the methods, headers and max age', async () => {
    const answer = await run(['https://a.example'], 'OPTIONS', { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' }, 404);
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'Access-Control-Allow-Origin': 'https://a.example',
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, If-Match',
      'Access-Control-Max-Age': '600',
    });
    expect(CORS_ALLOWED_HEADERS).toEqual(['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match']);
  });

  it('leaves the status of an OPTIONS request that is no preflight, and of a route that answered, to the routes', async () => {
    const probe = await run('*', 'OPTIONS', {}, 404);
    expect(probe.status).toBe(404);
    expect(probe.headers['Access-Control-Allow-Methods']).toBe('GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS');
    const routed = await run('*', 'OPTIONS', { Origin: 'https://x.example', 'Access-Control-Request-Method': 'GET' }, 200);
    expect(routed.status).toBe(200);
  });

  it('refuses a preflight or an OPTIONS request from an origin not allowed, naming it', async () => {
    const preflight = await run(['https://a.example'], 'OPTIONS', { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' });
    expect(preflight.reachedRoutes).toBe(false);
    expect(preflight.error).toMatchObject({ code: 'origin_not_allowed', message: 'Cross-origin requests from https://evil.example are not allowed.' });
    expect(preflight.headers['Access-Control-Allow-Methods']).toBeUndefined();
    const noOrigin = await run(['https://a.example'], 'OPTIONS', { 'Access-Control-Request-Method': 'POST' });
    expect(noOrigin.error?.message).toBe('Cross-origin requests from this origin are not allowed.');
    const originOnly = await run(['https://a.example'], 'OPTIONS', { Origin: 'https://evil.example' });
    expect(originOnly.error?.code).toBe('origin_not_allowed');
    const sameSite = await run(['https://a.example'], 'OPTIONS', {});
    expect(sameSite.error).toBeUndefined();
    expect(sameSite.reachedRoutes).toBe(true);
  });
});

describe('parseCorsOrigins', () => {
  it('reads empty, missing and * as any origin', () => {
    expect(parseCorsOrigins(undefined)).toBe('*');
    expect(parseCorsOrigins('')).toBe('*');
    expect(parseCorsOrigins('  *  ')).toBe('*');
  });

  it('reads a comma-separated list, trimming spaces and trailing slashes and dropping empty entries', () => {
    expect(parseCorsOrigins(' https://a.example/ , https://b.example//,, ')).toEqual(['https://a.example', 'https://b.example']);
    expect(parseCorsOrigins('https://a.example/path')).toEqual(['https://a.example/path']);
  });
});
