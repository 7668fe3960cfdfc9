/**
 * One server for the benchmark, started as a child process so the load generator never shares its
 * event loop; prints one JSON line when listening, stops on SIGTERM.
 * - `site <dataDir>`: the real app (createApp, production build) on a seeded data directory, with an
 *   API key of its own for the writes; `site <postgres-url>`: the same app on the PostgreSQL store, in
 *   a seeded database.
 * - `static <dir>`: the baseline of a page: bare Koa sending `<dir>/page.html` precompressed
 *   (`page.html.br`, koa-send) with the headers our server sent for it (`<dir>/headers.json`).
 * - `durable <dir>`: the baseline of a write: bare Koa parsing the JSON and writing it durably to
 *   `<dir>/<uuid>.json` (temporary file, fsync, rename, fsync of the directory), one request at a time
 *   each, no batching.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import bodyParser from '@koa/bodyparser';
import Koa from 'koa';
import send from 'koa-send';
import type { ServerBuild } from 'react-router';
import { loadSiteConfig } from '../../contract/site-config-env';
import { createApp } from '../../api/app';
import { KeyService } from '../../api/services/keys';
import { openBenchStore } from './stores';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function listen(app: Koa, info: Record<string, unknown> = {}): void {
  // autocannon drops its connections at the end of a run: a send cut short then is not an error.
  app.on('error', (error: { code?: string }) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE' && error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error(error);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ port, ...info })}\n`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

async function site(target: string): Promise<void> {
  const store = await openBenchStore(target);
  const { secret } = await new KeyService(store.keys).create({ name: `bench ${process.pid}`, permissions: ['blog:write'] });
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
  listen(app, { key: secret });
}

function staticPage(dir: string): void {
  const headers = JSON.parse(readFileSync(path.join(dir, 'headers.json'), 'utf8')) as Record<string, string>;
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.headers['if-none-match'] === headers.etag) {
      ctx.status = 304;
      return;
    }
    await send(ctx, 'page.html', {
      root: dir,
      brotli: true,
      gzip: false,
      setHeaders: (res) => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      },
    });
  });
  listen(app);
}

async function writeDurably(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${randomUUID()}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  const directory = await open(dir, 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}

function durable(dir: string): void {
  const app = new Koa();
  app.use(bodyParser({ jsonLimit: '1mb' }));
  app.use(async (ctx) => {
    const id = randomUUID();
    const text = JSON.stringify({ id, ...(ctx.request.body as object) });
    await writeDurably(path.join(dir, `${id}.json`), text);
    ctx.status = 201;
    ctx.body = { success: true, id };
  });
  listen(app);
}

const [kind = '', arg = ''] = process.argv.slice(2);
if (arg === '') throw new Error(`usage: servers.ts site|static|durable <dir> (site: or a postgres:// URL)`);
if (kind === 'site') await site(arg);
else if (kind === 'static') staticPage(arg);
else if (kind === 'durable') durable(arg);
else throw new Error(`unknown server kind ${kind}`);
