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
import { describeProxyTrust } from './http/proxy-trust';
import { prepareListener, stopListening } from './http/listener';
import { consoleLogger as logger } from './logger';
import { PROJECT_ROOT } from './project-root';
import { archiveSitePages, ownPages } from './services/page-archive';
import { openFileRequestLog } from './request-log/file-writer';
import { openFileRequestLogReader } from './request-log/file-reader';
import { announceDemoKey, issueDemoKey } from './services/demo-key';
import { createServices } from './services/services';
import { deliveryBanner, readLeadDeliverySettings } from './leads/delivery-settings';
import { describeLocation, openStore } from './store/open-store';
import { apiSettingsFrom, readServerEnv, serviceSettingsFrom } from './server-env';
import { StoreError } from './store/store-error';

const root = PROJECT_ROOT;

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
  const store = await openStore(env.store, { log: logger.info });
  // Quote requests' notifications: checked before anything is started, so a half-set one stops the start.
  const leadDelivery = readLeadDeliverySettings(process.env, config);
  const services = createServices(store, { ...serviceSettingsFrom(env), config, leadDelivery, logger });
  const demoKey = await issueDemoKey(services, config);
  if (demoKey) for (const line of await announceDemoKey(demoKey, { interactive: process.stdout.isTTY === true, dataDir: env.dataDir })) logger.info(line);
  if (store.created && env.seedDemoContent) {
    // Loaded only for a new data directory: the Markdown reader (gray-matter, js-yaml) is not part of every start.
    const { seedDemoPosts } = await import('./seed/demo-posts');
    const outcome = await seedDemoPosts(store, services.posts);
    logger.info(
      outcome.seeded
        ? `Loaded ${outcome.count} demo articles into the new data directory (SEED_DEMO_CONTENT=false turns this off).`
        : `Demo articles not loaded: ${outcome.reason}.`,
    );
  }
  const requestLog = await openFileRequestLog(env.dataDir, { retentionDays: env.requestLogRetentionDays, onError: logger.error });
  logger.info(deliveryBanner(leadDelivery));
  logger.info(`Visitors' addresses: ${describeProxyTrust(env.trustProxy)}.`);
  if (!dev && process.env.NODE_ENV !== 'production') {
    logger.error(
      `NODE_ENV is ${process.env.NODE_ENV ? `"${process.env.NODE_ENV}"` : 'not set'}: pages are rendered with React's development build, much slower. Start with \`npm start\` (node scripts/start.js), which sets NODE_ENV=production, or set it yourself.`,
    );
  }
  // Scheduled posts that came due and notifications left by a crash or a restart go first, before the first request.
  await services.start();
  // The site's build (React, React Router and every page: about a fifth of a start) loads once the server
  // listens, not before (decision 0040): the API and health answers need none of it, and a page request
  // that comes first waits for this one load (api/site/request-handler.ts).
  let loadingBuild: Promise<ServerBuild> | undefined;
  const siteBuild = (): Promise<ServerBuild> => (loadingBuild ??= import(pathToFileURL(path.join(root, 'build/server/index.js')).href) as Promise<ServerBuild>);
  const shared = { services, trustProxy: env.trustProxy, requestLog, requestLogReader: openFileRequestLogReader(env.dataDir), api: apiSettingsFrom(env) };
  const app = dev
    ? createApp({ ...shared, mode: 'development', ...(await devMode()) })
    : createApp({ ...shared, mode: 'production', build: siteBuild, clientDir: path.join(root, 'build/client') });
  const server = app.listen(env.port, env.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : env.port;
    logger.info(`Site and API on http://${env.host}:${port} (${dev ? 'development' : 'production'}, ${describeLocation(env.store)})`);
    // The marketing pages as this build renders them, into the advertising archive when they changed (decision 0028),
    // once the build has loaded (on the next turn of the event loop: a request already waiting goes first).
    const own = ['0.0.0.0', '::', ''].includes(env.host) ? '127.0.0.1' : env.host;
    const archivePages = () =>
      archiveSitePages({ fetchPage: ownPages(`http://${own.includes(':') ? `[${own}]` : own}:${port}`), archive: store.archive, config, now: services.clock }).then(
        (outcome) => {
          logger.info(`Advertising archive: ${outcome.recorded.length} site page(s) recorded as changed, ${outcome.unchanged.length} unchanged.`);
          for (const failed of outcome.failed) logger.error(`Advertising archive: the page ${failed.path} could not be recorded (${failed.why}); it is tried again at the next start.`);
        },
        (error: unknown) => logger.error(`Advertising archive: the site pages could not be recorded (${error instanceof Error ? error.message : String(error)}); they are tried again at the next start.`),
      );
    if (dev) archivePages();
    else
      setImmediate(() => {
        siteBuild().then(archivePages, (error: unknown) => {
          // No site build: the server cannot serve its pages. Said once, as a failed start is, and it stops (exit code 1).
          console.error('The server could not start:', error);
          process.exitCode = 1;
          void stop(1);
        });
      });
  });
  prepareListener(server, { writer: requestLog });
  // A port taken (or not ours to use) is the operator's to fix: one line, no stack, exit code 1.
  const onListenError = (error: NodeJS.ErrnoException) => {
    const where = `${env.host}:${env.port}`;
    if (error.code === 'EADDRINUSE') console.error(`Port ${env.port} is in use on ${env.host}: stop the other server or set PORT=<another port> (PORT=0 picks a free one).`);
    else if (error.code === 'EACCES') console.error(`Port ${env.port} on ${env.host} needs privileges this user lacks: set PORT to 1024 or above.`);
    else if (error.code === 'EADDRNOTAVAIL') console.error(`HOST=${env.host} is not an address of this machine: set HOST to one of its own (localhost, 0.0.0.0).`);
    else console.error(`The server could not listen on ${where}: ${error.message}`);
    process.exitCode = 1;
    services.stop().then(() => store.close()).finally(() => process.exit(1));
  };
  server.once('error', onListenError);
  server.once('listening', () => server.off('error', onListenError));
  function stop(code = 0): Promise<never> {
    return stopListening(server)
      .then(() => Promise.all([requestLog.close(), services.stop().then(() => store.close())]))
      .then(
        () => process.exit(code),
        () => process.exit(1),
      );
  }
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  // Configuration and store problems are the operator's to fix: say what, once, and exit (no crash loop).
  if (error instanceof SiteConfigError || error instanceof StoreError) console.error(error.message);
  else console.error('The server could not start:', error);
  process.exitCode = 1;
});
