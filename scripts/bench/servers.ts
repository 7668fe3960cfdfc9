/**
 * One server for the benchmark, started as a child process so the load generator never shares its
 * event loop; prints one JSON line when listening, stops on SIGTERM.
 * - `site <dataDir>`: the real app (createApp, production build) on the SQLite store of a seeded data
 *   directory, with an API key of its own for the writes; `site <postgres-url>`: the same app on the
 *   PostgreSQL store, in a seeded database.
 * - `static <dir>`: the baseline of a page: bare Koa sending `<dir>/page.html` precompressed
 *   (`page.html.br`, koa-send) with the headers our server sent for it (`<dir>/headers.json`).
 * - `durable <sqlite-file>`: the baseline of a write: bare Koa parsing the JSON and inserting it as a
 *   post into a copy of the seeded database with better-sqlite3 alone, the same rows the store writes
 *   (the post, its slug, its tags, the post counter) in one transaction per request, with the store's
 *   durability (WAL, synchronous=FULL: committed on disk before the 201); no checks, no cleaning, no
 *   query builder, no batching.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import bodyParser from '@koa/bodyparser';
import Koa from 'koa';
import send from 'koa-send';
import type BetterSqlite3 from 'better-sqlite3';
import type { ServerBuild } from 'react-router';
import type { CreatePostInput } from '../../contract/blog';
import { slugify } from '../../contract/slug';
import { loadSiteConfig } from '../../contract/site-config-env';
import { createApp } from '../../api/app';
import { parseProxyTrust } from '../../api/http/proxy-trust';
import { createServices } from '../../api/services/services';
import { newPostRecord } from '../../api/store/records';
import type { NewPost } from '../../api/store/store';
import { SAMPLE_POST } from '../../harness/sample-post';
import { postRows, type PostRows } from './seed-rows';
import { openBenchStore } from './stores';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * BENCH_CPU_PROF=<dir>: the `site` server profiles its main thread from listening to SIGTERM and
 * writes `<dir>/site-<pid>.cpuprofile` (open it in Chrome's DevTools); for looking, never in a report.
 */
async function profiled(): Promise<(() => Promise<void>) | undefined> {
  const dir = process.env.BENCH_CPU_PROF?.trim();
  if (!dir) return undefined;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `site-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

function listen(app: Koa, info: Record<string, unknown> = {}, beforeExit?: () => Promise<void>): void {
  // autocannon drops its connections at the end of a run: a send cut short then is not an error.
  app.on('error', (error: { code?: string }) => {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE' && error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error(error);
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ port, ...info })}\n`);
  });
  process.on('SIGTERM', () => {
    void (beforeExit ?? (async () => undefined))().finally(() => server.close(() => process.exit(0)));
  });
}

async function site(target: string, options: { vitals?: boolean } = {}): Promise<void> {
  const store = await openBenchStore(target);
  // Built, not started: the measured requests are the only work (no scheduler, outbox or retention runs).
  const services = createServices(store, { config: loadSiteConfig({}), logger: { info: () => undefined, error: (message, error) => (error === undefined ? console.error(message) : console.error(message, error)) } });
  const { secret } = await services.keys.create({ name: `bench ${process.pid}`, permissions: ['blog:write'] });
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const app = createApp({
    services,
    build,
    mode: 'production',
    clientDir: path.join(ROOT, 'build/client'),
    // The per-key write limit stays on, as in a deployment, set high enough for the load generator.
    api: { writesPerMinute: 10_000_000 },
    // `site-vitals` (scripts/bench/vitals.ts): behind one proxy, as a deployment is, so beacons come from many addresses.
    ...(options.vitals ? { trustProxy: parseProxyTrust('1') } : {}),
  });
  // `site-vitals`: page views and vitals are written every few seconds, as a started server does.
  if (options.vitals) services.analytics.start({ rollUp: false });
  listen(app, { key: secret }, await profiled());
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

/** The post the baseline stores from a request body: the fields as sent, nothing checked or cleaned. */
function baselinePost(body: CreatePostInput): NewPost {
  return {
    title: body.title,
    excerpt: body.excerpt ?? '',
    content: body.content,
    categorySlug: slugify(body.category),
    tags: Array.isArray(body.tags) ? body.tags.map(String) : [],
    author: { name: body.author.name },
    isNewsArticle: false,
    trust: null,
    status: 'published',
    publishAt: null,
    owner: null,
    createdByKeyId: null,
    warnings: [],
  };
}

/** An INSERT of every column of `row`, bound by name. */
function insertOf(db: BetterSqlite3.Database, table: string, row: object): BetterSqlite3.Statement {
  const columns = Object.keys(row);
  return db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`);
}

async function durable(file: string): Promise<void> {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(file, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  let seq = Number(db.prepare("SELECT value FROM store_meta WHERE name = 'post_seq'").pluck().get());
  const sample = postRows(newPostRecord(baselinePost(SAMPLE_POST), { id: 'x', seq: 0, slug: 'x', at: new Date().toISOString(), idempotency: null }));
  const insertPost = insertOf(db, 'posts', sample.post);
  const insertSlug = insertOf(db, 'post_slugs', sample.slug);
  const insertTag = insertOf(db, 'post_tags', { post_id: '', tag_lower: '' });
  const counted = db.prepare("UPDATE store_meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE name IN ('post_seq', 'posts_revision')");
  const store = db.transaction((rows: PostRows) => {
    insertSlug.run(rows.slug);
    insertPost.run(rows.post);
    for (const tag of rows.tags) insertTag.run(tag);
    counted.run();
  });
  const app = new Koa();
  app.use(bodyParser({ jsonLimit: '1mb' }));
  app.use((ctx) => {
    const body = ctx.request.body as CreatePostInput;
    seq += 1;
    const id = randomUUID();
    const record = newPostRecord(baselinePost(body), { id, seq, slug: `${slugify(body.title)}-${seq}`, at: new Date().toISOString(), idempotency: null });
    store.immediate(postRows(record));
    ctx.status = 201;
    ctx.body = { success: true, id };
  });
  listen(app);
}

const [kind = '', arg = ''] = process.argv.slice(2);
if (arg === '') throw new Error('usage: servers.ts site <dataDir|postgres-url> | static <dir> | durable <sqlite-file>');
if (kind === 'site') await site(arg);
else if (kind === 'site-vitals') await site(arg, { vitals: true });
else if (kind === 'static') staticPage(arg);
else if (kind === 'durable') await durable(arg);
else throw new Error(`unknown server kind ${kind}`);
