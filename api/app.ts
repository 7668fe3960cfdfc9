/**
 * createApp(options) builds the site server; only main.ts listens. Its pipeline, read top to bottom:
 * the request id, the HTML error page, compression for everything and ETags for reads; the request log
 * and the JSON API app (api/http/app.ts) mounted at /api, except the two specification pages that live
 * under /api/; the uploaded images at /media/ (site/media-files.ts); then the pages' security headers,
 * their Host and method checks (http/methods.ts), static files and the site renderer (the built React
 * Router server entry).
 */
import etag from '@koa/etag';
import Koa, { type Middleware } from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import mount from 'koa-mount';
import type { ServerBuild } from 'react-router';
import { type ApiSettings, createApiApp, DEFAULT_API_SETTINGS } from './http/app';
import { writeLimits } from './http/rate-limit';
import { pageRequestGuard } from './http/methods';
import { indieAuthDoor } from './indieauth/indieauth';
import { isMicropubPath, micropubDoor } from './micropub/endpoint';
import { ghostDoor, isGhostPath } from './ghost/admin-api';
import { NO_PROXY, type ProxyTrust, trustProxies } from './http/proxy-trust';
import { staffGuard } from './site/staff-guard';
import { staffArea } from './staff/staff-area';
import type { RequestLogReader } from './request-log/request-log';
import { requestId } from './http/request-id';
import { requestLogMiddleware } from './request-log/middleware';
import type { RequestLogWriter } from './request-log/request-log';
import { blogReader } from './services/blog-reader';
import type { Services } from './services/services';
import { pageErrorHandler } from './site/errors';
import { clientFiles } from './site/client-files';
import { pageHeaders } from './site/headers';
import { mediaFiles } from './site/media-files';
import { oldUrlRedirects } from './site/old-urls';
import { siteRenderer } from './site/render';
import { pageViewCounter } from './analytics/analytics';
import { vitalsEndpoint } from './analytics/vitals';

/** Pages of the site whose paths start with /api/ (SPEC section 2): the site renders them, not the API. */
export const SITE_PAGES_UNDER_API: ReadonlySet<string> = new Set(['/api/usage-examples', '/api/test-console']);

const CLIENT_GONE_CODES: ReadonlySet<string> = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function isClientGone(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}

export interface AppOptions {
  /** The React Router server build, or a loader of it (the dev server reloads it on change). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  /** Folder of the client build (hashed assets and public files); absent in development. */
  clientDir?: string;
  /** Extra middleware before the site renderer (the Vite dev server in development). */
  devMiddleware?: Middleware;
  /** TRUST_PROXY: whose X-Forwarded-* headers are believed (api/http/proxy-trust.ts); default: nobody's. */
  trustProxy?: ProxyTrust;
  /**
   * The server's services, built once (api/services/services.ts): the API, the staff area and the quote
   * form use them; the site reads published posts from their store and renders with their site config;
   * errors go to their logger. Started and stopped by the caller.
   */
  services: Services;
  /** The HTTP API's own settings: CORS, rate limits, body size. */
  api?: Partial<ApiSettings>;
  /** Where the API's requests are logged (api/request-log/); none: not logged. */
  requestLog?: RequestLogWriter;
  /** The request log as the staff dashboard reads it (failed requests of the last day). */
  requestLogReader?: RequestLogReader;
}

/** `middleware` for GET and HEAD requests; every other request goes straight on. */
function readsOnly(middleware: Middleware): Middleware {
  return (ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? middleware(ctx, next) : next());
}

/** Requests the API app answers: /api and below, but for the site's own pages there. */
function isApiRequest(ctx: { path: string }): boolean {
  return (ctx.path === '/api' || ctx.path.startsWith('/api/')) && !SITE_PAGES_UNDER_API.has(ctx.path);
}

/** The API app at /api, but for the site's own pages there. */
function apiUnlessSitePage(api: Koa): Middleware {
  const mounted = mount('/api', api);
  return (ctx, next) => (SITE_PAGES_UNDER_API.has(ctx.path) ? next() : mounted(ctx, next));
}

export function createApp(options: AppOptions): Koa {
  const { services } = options;
  const { store } = services;
  const { config, logger } = services.settings;
  const app = new Koa();
  // Errors after the response has started (a stream that failed) reach Koa's 'error' event, not the
  // error handler. A visitor who leaves while a file is still being sent is not an error: say nothing.
  app.on('error', (error: unknown) => {
    if (isClientGone(error)) return;
    logger.error('Error while sending a response', error);
  });
  const production = options.mode === 'production';

  // First: every part below sees the visitor's address, scheme and host, never a forged one.
  app.use(trustProxies(app, options.trustProxy ?? NO_PROXY));
  app.use(requestId);
  app.use(pageErrorHandler(logger, config));
  app.use(compress({ threshold: 1024 }));
  app.use(readsOnly(conditional()));
  app.use(readsOnly(etag()));
  // Core Web Vitals beacons (decision 0037): before the request log and the API app, answered at once.
  app.use(vitalsEndpoint({ analytics: services.analytics, config, now: services.clock, build: async () => (typeof options.build === 'function' ? await options.build() : options.build).assets.version }));
  if (options.requestLog) app.use(requestLogMiddleware({ writer: options.requestLog, applies: (ctx) => isApiRequest(ctx) || isMicropubPath(ctx.path) || isGhostPath(ctx.path), now: services.clock }));
  // One write allowance per key for every door a post comes in by (the API, Micropub and Ghost's Admin API).
  const writes = writeLimits({ ...DEFAULT_API_SETTINGS, ...options.api }.writesPerMinute, () => services.clock().getTime(), store.rateLimits);
  app.use(apiUnlessSitePage(createApiApp({ services, writeLimits: writes, ...(options.api ? { settings: options.api } : {}) })));

  // Writing apps' doors (Micropub, then IndieAuth): their own answers, before the pages' guards.
  app.use(micropubDoor({ services, writeLimits: writes }));
  app.use(indieAuthDoor({ services }));
  // Ghost's Admin API, the subset writing apps use (decision 0033).
  app.use(ghostDoor({ services, writeLimits: writes }));
  app.use(mediaFiles(store.media));
  app.use(pageHeaders(config, { csp: production }));
  const staffDeps = { services, ...(options.requestLogReader ? { requestLog: options.requestLogReader } : {}) };
  app.use(staffGuard(staffDeps));
  app.use(pageRequestGuard);
  // Old WordPress addresses of imported posts, categories and tags: 301 (decision 0029).
  app.use(oldUrlRedirects(store));
  if (options.clientDir) app.use(clientFiles(options.clientDir));
  if (options.devMiddleware) app.use(options.devMiddleware);
  // Cookie-free page views, counted from the renderer's answers (decision 0032).
  app.use(pageViewCounter(services.analytics));
  app.use(
    siteRenderer({
      build: options.build,
      mode: options.mode,
      config,
      csp: production,
      blog: blogReader(store.posts),
      changes: store.posts,
      anonymousStaff: (ctx) => staffArea(staffDeps, { active: null, loginCookieValue: undefined, client: { ip: ctx.ip, userAgent: ctx.get('User-Agent') }, secure: ctx.secure }),
      quotes: services.quotes,
      logger,
    }),
  );
  return app;
}
