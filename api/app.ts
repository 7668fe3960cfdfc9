/**
 * createApp(options) builds the Koa application; only main.ts listens. The middleware order is the
 * whole request pipeline, read top to bottom.
 */
import path from 'node:path';
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import compress from 'koa-compress';
import conditional from 'koa-conditional-get';
import etag from '@koa/etag';
import serve from 'koa-static';
import type { ServerBuild } from 'react-router';
import type { SiteConfig } from '../web/content/site-config';
import { errorHandler, type Logger } from './middleware/errors';
import { securityHeaders } from './middleware/security-headers';
import { siteRenderer } from './routes/site';

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
}

const YEAR_SECONDS = 31_536_000;

export function createApp(options: AppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy ?? false });
  const production = options.mode === 'production';

  app.use(errorHandler(options.logger));
  app.use(securityHeaders(options.config, { csp: production }));
  app.use(compress({ threshold: 1024 }));
  app.use(conditional());
  app.use(etag());

  if (options.clientDir) {
    const clientDir = options.clientDir;
    app.use(
      serve(clientDir, {
        index: false,
        setHeaders(res, file) {
          const hashed = path.relative(clientDir, file).startsWith(`assets${path.sep}`);
          res.setHeader('Cache-Control', hashed ? `public, max-age=${YEAR_SECONDS}, immutable` : 'public, max-age=3600');
        },
      }),
    );
  }
  if (options.devMiddleware) app.use(options.devMiddleware);

  const api = new Router({ prefix: '/api' });
  api.get('/health', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  });
  app.use(api.routes());
  app.use(api.allowedMethods());

  app.use(siteRenderer({ build: options.build, mode: options.mode, config: options.config, csp: production }));
  return app;
}
