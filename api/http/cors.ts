/**
 * CORS for the JSON API. A preflight is answered here, before any key check (browsers never send
 * credentials on a preflight), allowing the headers a create needs. Allowed origins come from the
 * configuration: `*` (the default) or a list of exact origins.
 */
import { ApiError } from '../../contract/errors';
import type { ApiMiddleware } from './context';

export type CorsOrigins = '*' | readonly string[];

export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'If-Match'];
const ALLOWED_METHODS = 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS';
const EXPOSED_HEADERS = 'Location, ETag, Retry-After, Idempotency-Replayed, RateLimit-Limit, RateLimit-Remaining';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/** Reads CORS_ORIGINS: empty or `*` for any origin, else a comma-separated list. */
export function parseCorsOrigins(value: string | undefined): CorsOrigins {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed === '*') return '*';
  return trimmed
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
}

export function cors(origins: CorsOrigins): ApiMiddleware {
  return (ctx, next) => {
    const origin = ctx.get('Origin');
    let allowOrigin: string | null = null;
    if (origins === '*') allowOrigin = '*';
    else {
      ctx.vary('Origin');
      if (origin && origins.includes(origin)) allowOrigin = origin;
    }
    if (allowOrigin) {
      ctx.set('Access-Control-Allow-Origin', allowOrigin);
      ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    }

    if (ctx.method !== 'OPTIONS') return next();
    const preflight = ctx.get('Access-Control-Request-Method') !== '';
    if (!allowOrigin && (preflight || origin)) {
      throw new ApiError('origin_not_allowed', { message: `Cross-origin requests from ${origin || 'this origin'} are not allowed.` });
    }
    // Every OPTIONS request to the API carries the preflight answer, also one without the
    // Access-Control-Request-* headers (a browser page cannot set them, so its probe sends none);
    // the routes then answer 204 with the path's own Allow header.
    ctx.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
    ctx.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
    ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
    return next().then(() => {
      if (preflight && ctx.status === 404) ctx.status = 204;
    });
  };
}
