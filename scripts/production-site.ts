/**
 * The site as a visitor meets it, for the measuring scripts (`npm run lighthouse`, `npm run bench:ux`):
 * the production build (built first when stale) served by the real app, in this process, on a fresh
 * data directory (its SQLite store) holding the demo posts, listening on 127.0.0.1 on a free port.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { createApp } from '../api/app';
import { seedDemoPosts } from '../api/seed/demo-posts';
import { createServices } from '../api/services/services';
import { openSqliteStore } from '../api/store/sql/sql-store';
import { DEFAULT_SITE_CONFIG, productPaths } from '../contract/site-config';
import { loadSiteConfig } from '../contract/site-config-env';
import { ensureBuild } from './build-stamp';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ProductionSite {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  origin: string;
  /** The slug of a published demo post, for a blog post page. */
  postSlug: string;
  /** The pages that matter most, as [name, path]: what `npm run lighthouse` measures and `npm run screenshots` pictures. */
  pages: Array<[string, string]>;
  close(): Promise<void>;
}

export async function startProductionSite(name: string): Promise<ProductionSite> {
  ensureBuild(ROOT);
  const dataDir = path.join(os.tmpdir(), `${name}-data-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const store = await openSqliteStore(dataDir);
  // The services are built, not started: a measurement of pages needs no scheduler or outbox running.
  const services = createServices(store, { config: loadSiteConfig(process.env), logger: { info: () => undefined, error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)) } });
  await seedDemoPosts(store, services.posts);
  const { entries: posts } = await store.posts.list({ status: 'published', limit: 1 });
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const app = createApp({ services, build, mode: 'production', clientDir: path.join(ROOT, 'build/client') });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const postSlug = posts[0]?.slug ?? '';
  const paths = productPaths(DEFAULT_SITE_CONFIG);
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    postSlug,
    pages: [
      ['home', '/'],
      ['faq', '/faq'],
      ['ultimate-guide', paths.ultimateGuide],
      ['sep-comparison', paths.sepComparison],
      ['about-us', '/about-us'],
      ['get-quote', '/get-quote'],
      ['blog', '/blog'],
      ['api-usage-examples', '/api/usage-examples'],
      ['blog-post', `/blog/${postSlug}`],
    ],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
