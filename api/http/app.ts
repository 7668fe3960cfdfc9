/**
 * The JSON API as its own Koa app, mounted at /api by the site server (api/app.ts). Its pipeline, read
 * top to bottom: JSON serialised once, JSON errors, the API's security headers, CORS, a Host check,
 * then the routes (health, the OpenAPI document, blog, media), each a list of authenticate -> rate limit ->
 * validate(input, handler), and a 404 naming the closest endpoint.
 */
import { Stream } from 'node:stream';
import Koa from 'koa';
import { POST_LIMITS } from '../../contract/blog';
import type { Services } from '../services/services';
import { type CorsOrigins, cors } from './cors';
import { apiErrorHandler } from './errors';
import { apiHeaders } from './headers';
import { RateLimiter, type WriteLimits, writeLimits } from './rate-limit';
import { blogRoutes } from './routes/blog';
import { healthRoutes } from './routes/health';
import { mediaRoutes } from './routes/media';
import { openApiRoutes } from './routes/openapi';
import { noSuchEndpoint, requireValidHost } from './methods';

export interface ApiSettings {
  /** Origins a browser may call the API from: `*` (any) or exact origins (CORS_ORIGINS). */
  corsOrigins: CorsOrigins;
  /** Successful writes a minute per API key (RATE_LIMIT_WRITES_PER_MINUTE); 0 turns the limit off. */
  writesPerMinute: number;
  /** Validations a minute per API key, or per IP without one (RATE_LIMIT_VALIDATIONS_PER_MINUTE); 0 turns the limit off. */
  validationsPerMinute: number;
  /** Largest request body read, in bytes. */
  bodyLimitBytes: number;
}

export const DEFAULT_API_SETTINGS: ApiSettings = {
  corsOrigins: '*',
  writesPerMinute: 60,
  validationsPerMinute: 120,
  bodyLimitBytes: POST_LIMITS.bodyMaxBytes,
};

/**
 * Answers' JSON bodies serialised once, here: left as objects, @koa/etag, koa-compress and Koa's
 * Content-Length would each stringify them again (three passes over a 100-post list at 100,000 posts:
 * docs/benchmarks.md, reads).
 */
const jsonOnce: Koa.Middleware = async (ctx, next) => {
  await next();
  const body: unknown = ctx.body;
  if (body !== null && typeof body === 'object' && !Buffer.isBuffer(body) && !(body instanceof Stream)) {
    // Koa typed the object as JSON when it was set (or the handler chose a JSON type): kept.
    ctx.body = JSON.stringify(body);
  }
};

export interface ApiAppOptions {
  /**
   * The server's services (api/services/services.ts): the routes call them and read their store; errors
   * go to their logger, and their site config's SITE_URL is the origin of the error bodies' `type` links.
   */
  services: Services;
  settings?: Partial<ApiSettings>;
  /** The write allowance per key, when the site server shares it with another door (Micropub); else made here. */
  writeLimits?: WriteLimits;
}

export function createApiApp(options: ApiAppOptions): Koa {
  const settings: ApiSettings = { ...DEFAULT_API_SETTINGS, ...options.settings };
  const { services } = options;
  const { store, keys } = services;
  const { logger, config } = services.settings;
  const clock = () => services.clock().getTime();
  // Uploads and post writes share one write allowance per key.
  const writes = options.writeLimits ?? writeLimits(settings.writesPerMinute, clock, store.rateLimits);
  const blog = blogRoutes({
    keys,
    posts: services.posts,
    store: store.posts,
    writeLimits: writes,
    validations: store.rateLimits ? store.rateLimits.limit('validations', settings.validationsPerMinute) : new RateLimiter(settings.validationsPerMinute, clock),
    bodyLimitBytes: settings.bodyLimitBytes,
  });
  const health = healthRoutes({ store: store.posts });
  const media = mediaRoutes({ keys, media: services.media, writeLimits: writes });

  const app = new Koa();
  app.use(jsonOnce);
  app.use(apiErrorHandler(logger, config.siteUrl));
  app.use(apiHeaders);
  app.use(cors(settings.corsOrigins));
  app.use(requireValidHost);
  app.use(health.routes());
  app.use(openApiRoutes(config.siteUrl ? { serverUrl: config.siteUrl } : {}).routes());
  app.use(blog.routes());
  app.use(media.routes());
  app.use(noSuchEndpoint);
  return app;
}
