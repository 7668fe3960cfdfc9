/**
 * Entry point: reads the environment, builds the app and listens. `--dev` serves through Vite with
 * hot reload; otherwise the production build (made first by `npm start` when missing or stale).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Middleware } from 'koa';
import type { ServerBuild } from 'react-router';
import { loadSiteConfig, SiteConfigError } from '../web/content/site-config-env';
import { createApp } from './app';
import type { Logger } from './middleware/errors';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerEnv {
  port: number;
  host: string;
  dataDir: string;
}

export function readServerEnv(env: NodeJS.ProcessEnv): ServerEnv {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SiteConfigError(`PORT must be a whole number from 0 to 65535, not "${env.PORT}"`);
  }
  return { port, host: env.HOST ?? 'localhost', dataDir: path.resolve(env.DATA_DIR ?? path.join(root, 'data')) };
}

const logger: Logger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error ?? ''),
};

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
  const app = dev
    ? createApp({ config, mode: 'development', logger, ...(await devMode()) })
    : createApp({
        config,
        mode: 'production',
        logger,
        build: (await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)) as ServerBuild,
        clientDir: path.join(root, 'build/client'),
      });
  const server = app.listen(env.port, env.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.port;
    logger.info(`Site and API on http://${env.host}:${port} (${dev ? 'development' : 'production'}, data in ${env.dataDir})`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof SiteConfigError) console.error(error.message);
  else console.error('The server could not start:', error);
  process.exitCode = 1;
});
