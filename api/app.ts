/**
 * createApp(options) builds the Koa application; only main.ts listens. The middleware order is the
 * whole request pipeline, read top to bottom: errors, security headers and compression for everything,
 * ETags for reads; static files; then the JSON API (CORS, health, blog); then the site renderer.
 */
import path from 'node:path';
import Koa, { type Middleware } from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import etag from '@koa/etag';
import serve from 'koa-static';
import type { ServerBuild } from 'react-router';
import type { SiteConfig } from '../contract/site-config';
import { POST_LIMITS } from '../contract/blog';
import { cors, type CorsOrigins } from './middleware/cors';
import { errorHandler, type Logger } from './middleware/errors';
import { jsonText } from './middleware/json-text';
import { RateLimiter } from './middleware/rate-limit';
import { securityHeaders } from './middleware/security-headers';
import { blogRoutes } from './routes/blog';
import { feedsRouter } from './routes/feeds';
import { healthRoutes } from './routes/health';
import { siteRenderer } from './routes/site';
import { KeyService } from './services/keys';
import { PostService } from './services/posts';
import { PostPreparer, type PrepareThreadMode } from './services/prepare-thread';
import type { BlogStore } from './store/blog-store';

const CLIENT_GONE_CODES: ReadonlySet<string> = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export function isClientGone(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CLIENT_GONE_CODES.has(code);
}

export interface ApiSettings {
  /** Origins a browser may call the API from: `*` (any) or exact origins (CORS_ORIGINS). */
  corsOrigins: CorsOrigins;
  /** Writes a minute per API key (RATE_LIMIT_WRITES_PER_MINUTE); 0 turns the limit off. */
  writesPerMinute: number;
  /** Largest request body read, in bytes. */
  bodyLimitBytes: number;
  /** Where create bodies are checked and cleaned: see prepare-thread.ts. */
  prepareThread: PrepareThreadMode;
}

export const DEFAULT_API_SETTINGS: ApiSettings = {
  corsOrigins: '*',
  writesPerMinute: 60,
  bodyLimitBytes: POST_LIMITS.bodyMaxBytes,
  prepareThread: 'auto',
};

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
  /** The opened data store: the API writes to it, the site reads published posts from it. */
  store: BlogStore;
  api?: Partial<ApiSettings>;
  /** The clock (tests move it). */
  now?: () => Date;
}

const YEAR_SECONDS = 31_536_000;

/** `middleware` for GET and HEAD requests; every other request goes straight on. */
function readsOnly(middleware: Middleware): Middleware {
  return (ctx, next) => (ctx.method === 'GET' || ctx.method === 'HEAD' ? middleware(ctx, next) : next());
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

  app.use(errorHandler(options.logger));
  app.use(securityHeaders(options.config, { csp: production }));
  app.use(compress({ threshold: 1024 }));
  // Conditional GETs, ETags and static files concern reads: a write passes them by (an answer to a
  // write is never revalidated, so it is not hashed), without the promise each would add to it.
  app.use(readsOnly(conditional()));
  app.use(readsOnly(etag()));
  // Inside compression and ETags, so that both, and Koa, use the one JSON text of an answer.
  app.use(jsonText());

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

  const settings: ApiSettings = { ...DEFAULT_API_SETTINGS, ...options.api };
  const now = options.now ?? (() => new Date());
  const { store } = options;
  app.use(cors(settings.corsOrigins));
  app.use(healthRoutes({ store: store.posts }).routes());
  app.use(
    blogRoutes({
      keys: new KeyService(store.keys, now),
      posts: new PostService(store.posts),
      preparer: new PostPreparer({ thread: settings.prepareThread }),
      store: store.posts,
      limiter: new RateLimiter(settings.writesPerMinute, () => now().getTime()),
      bodyLimitBytes: settings.bodyLimitBytes,
    }).routes(),
  );

  app.use(feedsRouter(options.config, store.posts).routes());

  app.use(siteRenderer({ build: options.build, mode: options.mode, config: options.config, csp: production, blog: store.posts }));
  return app;
}
