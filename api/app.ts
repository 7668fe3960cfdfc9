/**
 * createApp(options) builds the site server; only main.ts listens. Its pipeline, read top to bottom:
 * the request id, the HTML error page, compression for everything and ETags for reads; the request log
 * and the JSON API app (api/http/app.ts) mounted at /api, except the two specification pages that live
 * under /api/; the uploaded images at /media/ (site/media-files.ts); then the pages' security headers,
 * their Host and method checks (http/methods.ts), static files and the site renderer (the built React
 * Router server entry).
 */
import path from 'node:path';
import etag from '@koa/etag';
import Koa, { type Middleware } from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import mount from 'koa-mount';
import serve from 'koa-static';
import type { ServerBuild } from 'react-router';
import type { SiteConfig } from '../contract/site-config';
import { type ApiSettings, createApiApp } from './http/app';
import { pageRequestGuard } from './http/methods';
import { staffGuard } from './site/staff-guard';
import { StaffSessions } from './staff/sessions';
import { staffArea } from './staff/staff-area';
import type { RequestLogReader } from './request-log/request-log';
import { requestId } from './http/request-id';
import type { Logger } from './logger';
import { requestLogMiddleware } from './request-log/middleware';
import type { RequestLogWriter } from './request-log/request-log';
import { blogReader } from './services/blog-reader';
import { leadIntake, type LeadIntakeOptions } from './services/lead-intake';
import { pageErrorHandler } from './site/errors';
import { pageHeaders } from './site/headers';
import { mediaFiles } from './site/media-files';
import { siteRenderer } from './site/render';
import type { Scheduler } from './services/scheduler';
import type { Store } from './store/store';

/** Pages of the site whose paths start with /api/ (SPEC section 2): the site renders them, not the API. */
export const SITE_PAGES_UNDER_API: ReadonlySet<string> = new Set(['/api/usage-examples', '/api/test-console']);

const CLIENT_GONE_CODES: ReadonlySet<string> = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function isClientGone(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}

export interface AppOptions {
  config: SiteConfig;
  /** The React Router server build, or a loader of it (the dev server reloads it on change). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  /** Folder of the client build (hashed assets and public files); absent in development. */
  clientDir?: string;
  /** Extra middleware before the site renderer (the Vite dev server in development). */
  devMiddleware?: Middleware;
  logger: Logger;
  trustProxy?: boolean;
  /** The opened store: the API writes to it, the site reads published posts from it. */
  store: Store;
  api?: Partial<ApiSettings>;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Where the API's requests are logged (api/request-log/); none: not logged. */
  requestLog?: RequestLogWriter;
  /** Publishes scheduled posts; told of every change the API makes. None: scheduled posts wait. */
  scheduler?: Scheduler;
  /** The request log as the staff dashboard reads it (failed requests of the last day). */
  requestLogReader?: RequestLogReader;
  /** Quote requests: the form's limits and the notifications each lead gets (none: stored only). */
  leads?: Pick<LeadIntakeOptions, 'settings' | 'plan' | 'onStored' | 'now'>;
}

const YEAR_SECONDS = 31_536_000;

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
  const app = new Koa({ proxy: options.trustProxy ?? false });
  // Errors after the response has started (a stream that failed) reach Koa's 'error' event, not the
  // error handler. A visitor who leaves while a file is still being sent is not an error: say nothing.
  app.on('error', (error: unknown) => {
    if (isClientGone(error)) return;
    options.logger.error('Error while sending a response', error);
  });
  const production = options.mode === 'production';
  const { store } = options;

  app.use(requestId);
  app.use(pageErrorHandler(options.logger));
  app.use(compress({ threshold: 1024 }));
  app.use(readsOnly(conditional()));
  app.use(readsOnly(etag()));
  if (options.requestLog) app.use(requestLogMiddleware({ writer: options.requestLog, applies: isApiRequest, ...(options.now ? { now: options.now } : {}) }));
  const { scheduler } = options;
  app.use(
    apiUnlessSitePage(
      createApiApp({
        store,
        logger: options.logger,
        siteUrl: options.config.siteUrl,
        ...(options.api ? { settings: options.api } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(scheduler ? { onPostsChanged: () => scheduler.poke() } : {}),
      }),
    ),
  );

  app.use(mediaFiles(store.media));
  app.use(pageHeaders(options.config, { csp: production }));
  const now = options.now ?? (() => new Date());
  const sessions = new StaffSessions(store, { now });
  const staffDeps = {
    store,
    sessions,
    now,
    complianceMode: options.api?.complianceMode ?? 'warn',
    siteUrl: options.config.siteUrl,
    ...(options.requestLogReader ? { requestLog: options.requestLogReader } : {}),
    ...(options.scheduler ? { onPostsChanged: () => options.scheduler?.poke() } : {}),
  };
  app.use(staffGuard(staffDeps));
  app.use(pageRequestGuard);
  if (options.clientDir) {
    const clientDir = options.clientDir;
    app.use(
      readsOnly(
        serve(clientDir, {
          index: false,
          setHeaders(res, file) {
            const hashed = path.relative(clientDir, file).startsWith(`assets${path.sep}`);
            res.setHeader('Cache-Control', hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'public, max-age=3600');
          },
        }),
      ),
    );
  }
  if (options.devMiddleware) app.use(options.devMiddleware);
  app.use(
    siteRenderer({
      build: options.build,
      mode: options.mode,
      config: options.config,
      csp: production,
      blog: blogReader(store.posts),
      revision: () => store.posts.revision(),
      anonymousStaff: (ctx) => staffArea(staffDeps, { active: null, loginCookieValue: undefined, client: { ip: ctx.ip, userAgent: ctx.get('User-Agent') }, secure: ctx.secure }),
      quotes: leadIntake({
        leads: store.leads,
        agencyName: options.config.agencyName,
        log: options.logger.info,
        ...(options.now ? { now: options.now } : {}),
        ...(store.rateLimits ? { sharedLimits: store.rateLimits } : {}),
        ...options.leads,
      }),
    }),
  );
  return app;
}
