/**
 * Entry point: reads the environment, opens the data store (creating it, and the demo API key, on the
 * first start), builds the app and listens. `--dev` serves through Vite with hot reload; otherwise the
 * production build (made first by `npm start` when missing or stale).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Middleware } from 'koa';
import type { ServerBuild } from 'react-router';
import { loadSiteConfig, SiteConfigError } from '../contract/site-config-env';
import { createApp } from './app';
import { type ApiSettings, DEFAULT_API_SETTINGS } from './http/app';
import { type CorsOrigins, parseCorsOrigins } from './http/cors';
import { consoleLogger as logger } from './logger';
import { PROJECT_ROOT } from './project-root';
import { seedDemoPosts } from './seed/demo-posts';
import { issueDemoKey } from './services/demo-key';
import { resolveDataDir } from './store/data-dir';
import { openFileStore } from './store/file-store';
import { StoreError } from './store/store-error';

const root = PROJECT_ROOT;

export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
  /** CORS_ORIGINS: `*` (default) or a comma-separated list of origins. */
  corsOrigins: CorsOrigins;
  /** RATE_LIMIT_WRITES_PER_MINUTE: writes a minute per API key (default 60, 0 for no limit). */
  writesPerMinute: number;
  /** SEED_DEMO_CONTENT: load the demo articles into an empty data directory (default true). */
  seedDemoContent: boolean;
}

export function readServerEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SiteConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}"`);
  }
  const rate = env.RATE_LIMIT_WRITES_PER_MINUTE?.trim();
  const writesPerMinute = rate ? Number(rate) : DEFAULT_API_SETTINGS.writesPerMinute;
  if (!Number.isInteger(writesPerMinute) || writesPerMinute < 0) {
    throw new SiteConfigError(`RATE_LIMIT_WRITES_PER_MINUTE must be a whole number (0 for no limit), not "${rate}"`);
  }
  return {
    port,
    host: env.HOST ?? 'localhost',
    dataDir: resolveDataDir(env),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    writesPerMinute,
    seedDemoContent: !/^(0|false|no|off)$/i.test(env.SEED_DEMO_CONTENT?.trim() ?? ''),
  };
}

export function apiSettingsFrom(env: ServerEnv): Partial<ApiSettings> {
  return { corsOrigins: env.corsOrigins, writesPerMinute: env.writesPerMinute };
}

async function devMode(): Promise<{ build: () => Promise<ServerBuild>; devMiddleware: Middleware }> {
  const vite = await import('vite');
  const server = await vite.createServer({ root, server: { middlewareMode: true }, appType: 'custom' });
  const devMiddleware: Middleware = (ctx, next) =>
    new Promise<void>((resolve, reject) => {
      const finished = () => {
        ctx.respond = false;
        resolve();
      };
      ctx.res.once('finish', finished);
      server.middlewares(ctx.req, ctx.res, (error?: unknown) => {
        ctx.res.off('finish', finished);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else next().then(resolve, reject);
      });
    });
  return {
    build: () => server.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
    devMiddleware,
  };
}

async function main(): Promise<void> {
  const config = loadSiteConfig(process.env);
  const env = readServerEnv(process.env);
  const dev = process.argv.includes('--dev');
  const store = await openFileStore(env.dataDir, { log: logger.info });
  const announcement = await issueDemoKey(store, config);
  if (announcement) for (const line of announcement) logger.info(line);
  if (store.created && env.seedDemoContent) {
    const outcome = await seedDemoPosts(store);
    logger.info(
      outcome.seeded
        ? `Loaded ${outcome.count} demo articles into the new data directory (SEED_DEMO_CONTENT=false turns this off).`
        : `Demo articles not loaded: ${outcome.reason}.`,
    );
  }
  const shared = { config, logger, store, api: apiSettingsFrom(env) };
  const app = dev
    ? createApp({ ...shared, mode: 'development', ...(await devMode()) })
    : createApp({
        ...shared,
        mode: 'production',
        build: (await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)) as ServerBuild,
        clientDir: path.join(root, 'build/client'),
      });
  const server = app.listen(env.port, env.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.port;
    logger.info(`Site and API on http://${env.host}:${port} (${dev ? 'development' : 'production'}, data in ${env.dataDir})`);
  });
  const stop = () =>
    server.close(() => {
      store.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // Configuration and store problems are the operator's to fix: say what, once, and exit (no crash loop).
  if (error instanceof SiteConfigError || error instanceof StoreError) console.error(error.message);
  else console.error('The server could not start:', error);
  process.exitCode = 1;
});
