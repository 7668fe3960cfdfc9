/**
 * One server for the benchmark, started as a child process so the load generator never shares its
 * event loop: `site` (the real app on a data directory holding N posts), `static` (bare Koa sending
 * one HTML file) or `echo` (bare Koa parsing and echoing JSON). Prints one JSON line when listening.
 */
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import bodyParser from '@koa/bodyparser';
import Koa from 'koa';
import send from 'koa-send';
import type { ServerBuild } from 'react-router';
import { createApp } from '../../api/app';
import { checkCreatePostBody } from '../../contract/blog';
import { KeyService } from '../../api/services/keys';
import { preparePost, PostService } from '../../api/services/posts';
import { openBlogStore } from '../../api/store/blog-store';
import { SAMPLE_POST } from '../../harness/sample-post';
import { loadSiteConfig } from '../../contract/site-config-env';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [kind = 'site', arg = ''] = process.argv.slice(2);

function listen(app: Koa, info: Record<string, unknown> = {}): void {
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ port, ...info })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

async function site(postCount: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  const store = await openBlogStore(dataDir);
  const service = new PostService(store.posts);
  const check = checkCreatePostBody({ ...SAMPLE_POST, status: 'published' });
  if (!check.ok) throw new Error('the sample post is invalid');
  let slug = '';
  for (let i = 0; i < postCount; i += 1) {
    const created = await service.create(preparePost({ ...check.data, title: `${check.data.title} ${i}` }, [], null));
    slug = created.post.slug;
  }
  await store.flush();
  const { secret } = await new KeyService(store.keys, () => new Date()).create({ name: 'bench', permissions: ['blog:write'] });
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const app = createApp({
    config: loadSiteConfig({}),
    build,
    mode: 'production',
    clientDir: path.join(ROOT, 'build/client'),
    logger: { info: () => undefined, error: (message, error) => console.error(message, error) },
    store,
    // The per-key write limit stays on, as in a deployment, set high enough for the load generator.
    api: { writesPerMinute: 10_000_000 },
  });
  listen(app, { key: secret, slug, dataDir });
}

function staticFile(file: string): void {
  const app = new Koa();
  const dir = path.dirname(file);
  const name = path.basename(file);
  app.use(async (ctx) => {
    await send(ctx, name, { root: dir });
  });
  listen(app);
}

function echo(): void {
  const app = new Koa();
  app.use(bodyParser({ jsonLimit: '1mb' }));
  app.use((ctx) => {
    ctx.status = 201;
    ctx.body = ctx.request.body;
  });
  listen(app);
}

if (kind === 'site') await site(Number(arg || 0));
else if (kind === 'static') staticFile(arg);
else if (kind === 'echo') echo();
else throw new Error(`unknown server kind ${kind}`);
