/**
 * The OpenAPI document at /api/openapi.json over real HTTP: Redocly's linter passes it (its recommended
 * rules, redocly.yaml), every $ref in it resolves and its operationIds are unique, and real answers of
 * every operation, successes and the errors each documents, match it: the status is documented, the
 * content type is one the answer documents, the headers it requires are there and the body validates
 * against its schema (ajv, JSON Schema 2020-12). The last test checks that every operation and every
 * status the document gives it was seen. 429s come from a server with a write limit of one a minute,
 * 503 and 507 from one whose store fails its writes on purpose (posts and media alike), and the health
 * check's 503 from the same store out of reach.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { StoreError, type StoreProblem } from '../../api/store/store-error';
import type { Store } from '../../api/store/store';
import type { CreatePostResponse } from '../../contract/blog';
import { HTTP_METHODS, type HttpMethod, type OpenApiDocument, type OpenApiOperation } from '../../contract/openapi';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { makeTempDir, ROOT, seedDemoDataDir, startTestServer, type TestServer } from '../support/server';
import { rawRequest } from './raw-request';
import { call, type CallOptions, validPost } from './support';

const run = promisify(execFile);

/** Claims the compliance rules flag as high, and the acceptances that send such a post to review instead of a 422. */
const RISKY = '<p>This IUL strategy offers guaranteed returns and is risk-free.</p>';
const ACCEPTED = [
  { rule: 'guaranteed-returns', reason: 'Quoted to show readers the claim to watch for.' },
  { rule: 'risk-free', reason: 'Quoted to show readers the claim to watch for.' },
];

/** A real origin: Redocly warns of a server at localhost, which only the test server is. */
const SITE_URL = 'https://www.hartwell-insurance.test';

const seededDir = makeTempDir('openapi-test-');
let server: TestServer;
let limited: TestServer;
let failing: TestServer;
/** What the failing server's store answers writes with; null: it writes. */
let storeFailure: StoreProblem | null = null;
let doc: OpenApiDocument;
let ajv: Ajv2020;
let acme: string;
let globex: string;
let reader: string;

/** Operation key (`get /api/blog`) -> statuses seen. */
const seen = new Map<string, Set<number>>();

/** The store with posts.create, posts.save, posts.counts (the health check's read), media.save and media.delete failing with `storeFailure` while it is set. */
function failingWrites(store: Store): Store {
  const fail = <T extends (...args: never[]) => Promise<unknown>>(write: T): T =>
    ((...args: Parameters<T>) => (storeFailure ? Promise.reject(new StoreError(storeFailure, '/data/posts/x.json', 'cannot write')) : write(...args))) as T;
  const failing = <R extends object>(repository: R, writes: readonly string[]): R =>
    new Proxy(repository, {
      get(target, property) {
        const member: unknown = Reflect.get(target, property, target);
        if (typeof member !== 'function') return member;
        const bound = (member as (...args: never[]) => Promise<unknown>).bind(target);
        return typeof property === 'string' && writes.includes(property) ? fail(bound) : bound;
      },
    });
  const posts = failing(store.posts, ['create', 'save', 'counts']);
  const media = failing(store.media, ['save', 'delete']);
  return new Proxy(store, {
    get: (target, property) => (property === 'posts' ? posts : property === 'media' ? media : (Reflect.get(target, property, target) as unknown)),
  });
}

/** A small PNG, different for each `seed` (so each is a new upload). */
function png(seed: number): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: seed % 256, g: 90, b: 160 } } })
    .png()
    .toBuffer();
}

const asImage = (key: string, bytes: Uint8Array, type = 'image/png'): CallOptions => ({ key, body: bytes, headers: { 'content-type': type } });

beforeAll(async () => {
  // The main server holds the demo articles too, so lists answer with posts the seed made.
  await seedDemoDataDir(seededDir);
  [server, limited, failing] = await Promise.all([
    startTestServer({ env: { SITE_URL }, dataDir: seededDir, api: { writesPerMinute: 0, validationsPerMinute: 0 } }),
    startTestServer({ env: { SITE_URL }, api: { writesPerMinute: 1, validationsPerMinute: 1 } }),
    // Block mode changes nothing for the careful posts the other tests send; the compliance test uses it.
    startTestServer({ env: { SITE_URL }, api: { writesPerMinute: 0, complianceMode: 'block' }, wrapStore: failingWrites }),
  ]);
  acme = await server.createKey('acme-cms', ['blog:write'], 'acme');
  globex = await server.createKey('globex', ['blog:write'], 'globex');
  reader = await server.createKey('reader', ['blog:read']);
  const res = await call<OpenApiDocument>(server, 'GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.json;
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi.json');
});

afterAll(async () => {
  await Promise.all([server?.close(), limited?.close(), failing?.close()]);
  rmSync(seededDir, { recursive: true, force: true });
});

/** An answer as fetch or a raw socket got it. */
interface Answer {
  status: number;
  header: (name: string) => string | null;
  text: string;
}

function fromFetch(res: { status: number; headers: Headers; text: string }): Answer {
  return { status: res.status, header: (name) => res.headers.get(name), text: res.text };
}

function operationOf(docPath: string, method: HttpMethod): OpenApiOperation {
  const operation = doc.paths[docPath]?.[method];
  if (!operation) throw new Error(`The document has no ${method.toUpperCase()} ${docPath}.`);
  return operation;
}

/** The value a `#/...` reference names in the document. */
function resolve(reference: string): unknown {
  let value: unknown = doc;
  for (const part of reference.replace(/^#\//, '').split('/')) {
    const name = part.replaceAll('~1', '/').replaceAll('~0', '~');
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  }
  return value;
}

/** Checks an answer against the document: status, required headers, content type and body. */
function expectDocumented(docPath: string, method: HttpMethod, answer: Answer, status: number): void {
  const where = `${method.toUpperCase()} ${docPath} ${answer.status}`;
  expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBe(status);
  const response = operationOf(docPath, method).responses[String(status)];
  expect(response, `${where} is documented`).toBeDefined();
  if (!response) return;
  for (const [name, reference] of Object.entries(response.headers ?? {})) {
    const header = resolve(reference.$ref) as { required?: boolean };
    if (header.required) expect(answer.header(name), `${where} sends ${name}`).not.toBeNull();
  }
  if (!response.content) {
    expect(answer.text, `${where} has no body`).toBe('');
  } else {
    const type = (answer.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const media = response.content[type];
    expect(media, `${where}: Content-Type ${type} is one of ${Object.keys(response.content).join(', ')}`).toBeDefined();
    if (media) {
      const validate = ajv.compile({ $ref: `openapi.json${media.schema.$ref}` });
      const body: unknown = JSON.parse(answer.text);
      expect(validate(body) ? [] : validate.errors, `${where}: the body matches ${media.schema.$ref}`).toEqual([]);
    }
  }
  const key = `${method} ${docPath}`;
  seen.set(key, (seen.get(key) ?? new Set()).add(status));
}

/** Makes a request with fetch and checks its answer against the document. */
async function expectCall(
  target: Pick<TestServer, 'url'>,
  method: HttpMethod,
  docPath: string,
  url: string,
  status: number,
  options: CallOptions = {},
): Promise<Record<string, unknown>> {
  const res = await call(target, method.toUpperCase(), url, options);
  expectDocumented(docPath, method, fromFetch(res), status);
  return res.json;
}

/** A GET over a raw socket (fetch would add Cache-Control: no-cache to a conditional request). */
async function rawGet(url: string, headers: Record<string, string> = {}, host = 'localhost'): Promise<Answer> {
  const lines = Object.entries({ Host: host, ...headers, Connection: 'close' }).map(([name, value]) => `${name}: ${value}\r\n`);
  const res = await rawRequest(server.url, `GET ${url} HTTP/1.1\r\n${lines.join('')}\r\n`);
  return { status: res.status, header: (name) => res.headers[name.toLowerCase()] ?? null, text: res.body };
}

/**
 * A GET answered, then the same GET with its ETag as If-None-Match: 304. An answer that changed in
 * between (the health check's uptime moves on every second) is a 200 with another ETag: asked again.
 */
async function expectConditional(docPath: string, url: string, key?: string): Promise<void> {
  const auth: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  for (let attempt = 1; ; attempt += 1) {
    const first = await rawGet(url, auth);
    expectDocumented(docPath, 'get', first, 200);
    const etag = first.header('etag');
    expect(etag, `GET ${url} has an ETag`).toBeTruthy();
    const second = await rawGet(url, { ...auth, 'If-None-Match': etag ?? '' });
    if (attempt < 3 && second.status === 200 && second.header('etag') !== etag) continue;
    expectDocumented(docPath, 'get', second, 304);
    return;
  }
}

const json = (body: unknown, type: string): CallOptions => ({ body: JSON.stringify(body), headers: { 'content-type': type } });
const withKey = (key: string, options: CallOptions = {}): CallOptions => ({ ...options, key });
const ifMatch = (etag: string, options: CallOptions = {}): CallOptions => ({ ...options, headers: { ...options.headers, 'if-match': etag } });
const tooLarge = (key: string): CallOptions => ({ key, body: validPost({ content: `<p>${'a'.repeat(1_100_000)}</p>` }), headers: { 'if-match': '*' } });
const plainText = (key: string): CallOptions => ({ key, body: 'title=Hello', headers: { 'content-type': 'text/plain', 'if-match': '*' } });
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A PNG whose header says `width` x `height` (a decompression bomb's header): refused before any pixel is decoded. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])));
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8);
  const rows = zlib.deflateSync(Buffer.alloc(height * (1 + Math.ceil(width / 8))), { level: 9 });
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', rows), chunk('IEND', Buffer.alloc(0))]);
}

async function createPost(target: TestServer, key: string, overrides: Record<string, unknown> = {}): Promise<CreatePostResponse['post']> {
  const res = await call<CreatePostResponse>(target, 'POST', '/api/blog', { key, body: validPost({ status: 'published', ...overrides }) });
  expect(res.status, res.text).toBe(201);
  return res.json.post;
}

describe('the OpenAPI document', () => {
  it('is served as JSON to GET and HEAD, with CORS, and is an OpenAPI 3.1 document of this package version', async () => {
    const res = await call(server, 'GET', '/api/openapi.json', { headers: { origin: 'https://integrator.example' } });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(packageJson.version);
    expect(doc.servers).toEqual([{ url: SITE_URL, description: 'This site' }]);
    const head = await fetch(`${server.url}/api/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await call(server, 'POST', '/api/openapi.json');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('passes redocly lint with the recommended rules', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
      const outcome = await run(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', file, '--format', 'json', '--config', path.join(ROOT, 'redocly.yaml')], { cwd: ROOT, env }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? '' }),
      );
      const report = JSON.parse(outcome.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
      const problems = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`);
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
      expect(outcome.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('can be imported: every $ref resolves, operationIds are unique, every operation has a tag the document lists', () => {
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (typeof value === 'object' && value !== null) {
        for (const [name, inner] of Object.entries(value)) {
          if (name === '$ref' && typeof inner === 'string') refs.push(inner);
          else walk(inner);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((reference) => !reference.startsWith('#/') || resolve(reference) === undefined)).toEqual([]);
    const operations = Object.values(doc.paths).flatMap((item) => HTTP_METHODS.flatMap((method) => (item[method] ? [item[method]] : [])));
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((tag) => tag.name));
    expect(operations.flatMap((operation) => operation.tags).filter((tag) => !tags.has(tag))).toEqual([]);
    // The paths are the routes of api/http/routes (blog.ts's header lists them).
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/blog',
      '/api/blog/categories',
      '/api/blog/validate',
      '/api/blog/{id}',
      '/api/blog/{id}/restore',
      '/api/blog/{id}/review',
      '/api/blog/{id}/revisions',
      '/api/blog/{id}/revisions/{n}',
      '/api/blog/{id}/revisions/{n}/revert',
      '/api/health',
      '/api/media',
      '/api/media/{id}',
      '/api/openapi.json',
    ]);
  });
});

describe('real answers of every operation match the document', () => {
  it('GET /api/health and GET /api/openapi.json', async () => {
    for (const url of ['/api/health', '/api/openapi.json']) {
      await expectConditional(url, url);
      expectDocumented(url, 'get', await rawGet(url, {}, 'exa mple.com'), 400);
    }
  });

  it('GET /api/blog/categories', async () => {
    await expectConditional('/api/blog/categories', '/api/blog/categories');
    await expectCall(server, 'get', '/api/blog/categories', '/api/blog/categories', 401, { headers: { authorization: 'Bearer nope' } });
  });

  it('POST /api/blog: created, replayed and refused', async () => {
    const docPath = '/api/blog';
    const first = { key: acme, body: validPost({ title: 'Documented create', slug: 'documented-create', status: 'published' }), headers: { 'idempotency-key': 'openapi-create-1' } };
    await expectCall(server, 'post', docPath, docPath, 201, first);
    const replay = await call(server, 'POST', docPath, first);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expectDocumented(docPath, 'post', fromFetch(replay), 201);
    await expectCall(server, 'post', docPath, docPath, 422, { ...first, body: validPost({ title: 'Another body' }) });
    await expectCall(server, 'post', docPath, docPath, 409, withKey(acme, { body: validPost({ title: 'Same slug', slug: 'documented-create' }) }));
    await expectCall(server, 'post', docPath, docPath, 400, withKey(acme, { body: { title: 'No' } }));
    await expectCall(server, 'post', docPath, docPath, 400, withKey(acme, { body: '{"title": ', headers: { 'content-type': 'application/json' } }));
    await expectCall(server, 'post', docPath, docPath, 400, withKey(acme, { body: JSON.stringify(JSON.stringify(validPost())), headers: { 'content-type': 'application/json' } }));
    await expectCall(server, 'post', docPath, docPath, 400, withKey(acme, { body: validPost(), headers: { 'idempotency-key': 'k'.repeat(300) } }));
    await expectCall(server, 'post', docPath, docPath, 401, { body: validPost() });
    await expectCall(server, 'post', docPath, docPath, 403, withKey(reader, { body: validPost() }));
    await expectCall(server, 'post', docPath, docPath, 413, tooLarge(acme));
    await expectCall(server, 'post', docPath, docPath, 415, plainText(acme));
  });

  it('POST /api/blog/validate', async () => {
    const docPath = '/api/blog/validate';
    await expectCall(server, 'post', docPath, docPath, 200, { body: validPost() });
    await expectCall(server, 'post', docPath, docPath, 400, { body: { title: 'No' }, headers: { accept: 'application/problem+json' } });
    await expectCall(server, 'post', docPath, docPath, 401, { body: validPost(), headers: { authorization: 'Bearer nope' } });
    await expectCall(server, 'post', docPath, docPath, 403, withKey(reader, { body: validPost() }));
    await expectCall(server, 'post', docPath, docPath, 413, { body: validPost({ content: `<p>${'a'.repeat(1_100_000)}</p>` }) });
    await expectCall(server, 'post', docPath, docPath, 415, { body: 'title=Hello', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  });

  it('GET /api/blog', async () => {
    const docPath = '/api/blog';
    await createPost(server, acme, { title: 'A draft of acme', status: 'draft' });
    await expectConditional(docPath, '/api/blog?limit=5');
    const all = await expectCall(server, 'get', docPath, '/api/blog?limit=100', 200);
    expect((all.posts as unknown[]).length).toBeGreaterThan(40);
    const mine = await expectCall(server, 'get', docPath, '/api/blog?mine=1&limit=100', 200, withKey(acme));
    expect((mine.posts as { status: string }[]).some((post) => post.status === 'draft')).toBe(true);
    await expectCall(server, 'get', docPath, '/api/blog?limit=0', 400);
    await expectCall(server, 'get', docPath, '/api/blog?pgae=2', 400);
    await expectCall(server, 'get', docPath, '/api/blog?status=draft', 401);
  });

  it('GET, PATCH, PUT and DELETE /api/blog/{id}, and restore', async () => {
    const docPath = '/api/blog/{id}';
    const post = await createPost(server, acme, { title: 'A post to change', slug: 'a-post-to-change' });
    const other = await createPost(server, acme, { title: 'Another post', slug: 'another-post' });
    const url = `/api/blog/${post.id}`;

    await expectConditional(docPath, url);
    await expectCall(server, 'get', docPath, `/api/blog/${post.slug}`, 200, withKey(reader));
    await expectCall(server, 'get', docPath, url, 401, { headers: { authorization: 'Bearer nope' } });
    await expectCall(server, 'get', docPath, '/api/blog/no-such-post', 404);

    // PATCH
    await expectCall(server, 'patch', docPath, url, 428, withKey(acme, json({ excerpt: 'Changed.' }, 'application/merge-patch+json')));
    const patched = (await expectCall(server, 'patch', docPath, url, 200, withKey(acme, ifMatch(post.etag, json({ excerpt: 'Changed once.' }, 'application/merge-patch+json'))))) as unknown as PostWriteResponse;
    const stale = await call(server, 'PATCH', url, withKey(acme, ifMatch(post.etag, json({ excerpt: 'Changed twice.' }, 'application/json'))));
    expect(stale.headers.get('etag')).toBe(patched.etag);
    expectDocumented(docPath, 'patch', fromFetch(stale), 412);
    await expectCall(server, 'patch', docPath, url, 400, withKey(acme, ifMatch('nonsense', { body: { excerpt: 'x' } })));
    await expectCall(server, 'patch', docPath, url, 400, withKey(acme, ifMatch('*', { body: { title: '' } })));
    await expectCall(server, 'patch', docPath, url, 401, ifMatch('*', { body: { excerpt: 'x' } }));
    await expectCall(server, 'patch', docPath, url, 403, withKey(globex, ifMatch('*', { body: { excerpt: 'x' } })));
    await expectCall(server, 'patch', docPath, `/api/blog/${MISSING_ID}`, 404, withKey(acme, ifMatch('*', { body: { excerpt: 'x' } })));
    await expectCall(server, 'patch', docPath, url, 409, withKey(acme, ifMatch('*', { body: { slug: other.slug } })));
    await expectCall(server, 'patch', docPath, url, 413, tooLarge(acme));
    await expectCall(server, 'patch', docPath, url, 415, plainText(acme));
    // A changed slug: the old one answers 301.
    await expectCall(server, 'patch', docPath, url, 200, withKey(acme, ifMatch('*', { body: { slug: 'a-post-changed' } })));
    const moved = await rawGet('/api/blog/a-post-to-change');
    expect(moved.header('location')).toBe('/api/blog/a-post-changed');
    expectDocumented(docPath, 'get', moved, 301);

    // PUT
    const replaced = validPost({ title: 'A post replaced', status: 'published' });
    await expectCall(server, 'put', docPath, url, 428, withKey(acme, { body: replaced }));
    await expectCall(server, 'put', docPath, url, 200, withKey(acme, ifMatch('*', { body: replaced })));
    // From the first revision, changing the title changed since: a conflict (other fields alone would be applied on top).
    await expectCall(server, 'put', docPath, url, 412, withKey(acme, ifMatch(post.etag, { body: { ...replaced, title: 'A title from the first revision' } })));
    await expectCall(server, 'put', docPath, url, 400, withKey(acme, ifMatch('*', { body: { title: 'Only a title' } })));
    await expectCall(server, 'put', docPath, url, 401, ifMatch('*', { body: replaced }));
    await expectCall(server, 'put', docPath, url, 403, withKey(reader, ifMatch('*', { body: replaced })));
    await expectCall(server, 'put', docPath, `/api/blog/${MISSING_ID}`, 404, withKey(acme, ifMatch('*', { body: replaced })));
    await expectCall(server, 'put', docPath, url, 409, withKey(acme, ifMatch('*', { body: { ...replaced, slug: other.slug } })));
    await expectCall(server, 'put', docPath, url, 413, tooLarge(acme));
    await expectCall(server, 'put', docPath, url, 415, plainText(acme));

    // DELETE, then what a post in the trash answers, then restore
    await expectCall(server, 'delete', docPath, url, 412, withKey(acme, ifMatch(post.etag)));
    await expectCall(server, 'delete', docPath, url, 400, withKey(acme, ifMatch('nonsense')));
    await expectCall(server, 'delete', docPath, url, 401);
    await expectCall(server, 'delete', docPath, url, 403, withKey(globex));
    await expectCall(server, 'delete', docPath, `/api/blog/${MISSING_ID}`, 404, withKey(acme));
    await expectCall(server, 'delete', docPath, url, 200, withKey(acme));
    await expectCall(server, 'get', docPath, url, 410);
    await expectCall(server, 'patch', docPath, url, 410, withKey(acme, ifMatch('*', { body: { excerpt: 'x' } })));
    await expectCall(server, 'put', docPath, url, 410, withKey(acme, ifMatch('*', { body: replaced })));

    const restore = '/api/blog/{id}/restore';
    await expectCall(server, 'post', restore, `${url}/restore`, 401);
    await expectCall(server, 'post', restore, `${url}/restore`, 403, withKey(globex));
    await expectCall(server, 'post', restore, `/api/blog/${MISSING_ID}/restore`, 404, withKey(acme));
    await expectCall(server, 'post', restore, `${url}/restore`, 200, withKey(acme));
    await expectCall(server, 'post', restore, `${url}/restore`, 409, withKey(acme));
  });

  it('revisions: list, read one, revert', async () => {
    const post = await createPost(server, acme, { title: 'A post with history' });
    await call(server, 'PATCH', `/api/blog/${post.id}`, withKey(acme, ifMatch(post.etag, { body: { excerpt: 'Second version.' } })));
    const base = `/api/blog/${post.id}/revisions`;

    const list = '/api/blog/{id}/revisions';
    await expectConditional(list, base, reader);
    await expectCall(server, 'get', list, base, 401);
    await expectCall(server, 'get', list, `/api/blog/${MISSING_ID}/revisions`, 404, withKey(reader));

    const one = '/api/blog/{id}/revisions/{n}';
    await expectConditional(one, `${base}/1`, reader);
    await expectCall(server, 'get', one, `${base}/1`, 401);
    await expectCall(server, 'get', one, `${base}/99`, 404, withKey(reader));

    const revert = '/api/blog/{id}/revisions/{n}/revert';
    await expectCall(server, 'post', revert, `${base}/1/revert`, 412, withKey(acme, ifMatch(post.etag)));
    await expectCall(server, 'post', revert, `${base}/1/revert`, 400, withKey(acme, ifMatch('nonsense')));
    await expectCall(server, 'post', revert, `${base}/1/revert`, 401);
    await expectCall(server, 'post', revert, `${base}/1/revert`, 403, withKey(globex));
    await expectCall(server, 'post', revert, `${base}/99/revert`, 404, withKey(acme));
    await expectCall(server, 'post', revert, `${base}/1/revert`, 200, withKey(acme));
    await call(server, 'DELETE', `/api/blog/${post.id}`, withKey(acme));
    await expectCall(server, 'post', revert, `${base}/1/revert`, 410, withKey(acme));
  });

  it('compliance: 422 for a risky claim in block mode, and a reviewer\'s decisions on a held post', async () => {
    const key = await failing.createKey('compliance author', ['blog:write'], 'compliance');
    const admin = await failing.createKey('compliance reviewer', ['blog:admin']);
    await expectCall(failing, 'post', '/api/blog', '/api/blog', 422, withKey(key, { body: validPost({ status: 'published', content: RISKY }) }));
    await expectCall(failing, 'post', '/api/blog/validate', '/api/blog/validate', 422, { body: validPost({ status: 'published', content: RISKY }) });
    const careful = await createPost(failing, key, { title: 'Careful wording' });
    const url = `/api/blog/${careful.id}`;
    await expectCall(failing, 'patch', '/api/blog/{id}', url, 422, withKey(key, ifMatch(careful.etag, { body: { content: RISKY } })));
    await expectCall(failing, 'put', '/api/blog/{id}', url, 422, withKey(key, ifMatch(careful.etag, { body: validPost({ title: 'Careful wording', status: 'published', content: RISKY }) })));
    // A draft is never refused; once published, going back to its first wording is.
    const risky = await createPost(failing, key, { title: 'Drafted with a claim', status: 'draft', content: RISKY });
    const fixed = await call<PostWriteResponse>(failing, 'PATCH', `/api/blog/${risky.id}`, withKey(key, ifMatch(risky.etag, { body: { content: '<p>Careful now.</p>', status: 'published' } })));
    expect(fixed.status).toBe(200);
    await expectCall(failing, 'post', '/api/blog/{id}/revisions/{n}/revert', `/api/blog/${risky.id}/revisions/1/revert`, 422, withKey(key, ifMatch(fixed.json.etag)));

    const review = '/api/blog/{id}/review';
    const held = await createPost(failing, key, { title: 'Held for a reviewer', content: RISKY, compliance: { accept: ACCEPTED } });
    expect(held.status).toBe('in_review');
    const heldUrl = `/api/blog/${held.id}/review`;
    await expectCall(failing, 'post', review, heldUrl, 401, { body: { decision: 'approve' } });
    await expectCall(failing, 'post', review, heldUrl, 403, withKey(key, ifMatch(held.etag, { body: { decision: 'approve' } })));
    await expectCall(failing, 'post', review, `/api/blog/${MISSING_ID}/review`, 404, withKey(admin, ifMatch('*', { body: { decision: 'approve' } })));
    await expectCall(failing, 'post', review, heldUrl, 428, withKey(admin, { body: { decision: 'approve' } }));
    await expectCall(failing, 'post', review, heldUrl, 412, withKey(admin, ifMatch('"00000000-r9"', { body: { decision: 'approve' } })));
    await expectCall(failing, 'post', review, heldUrl, 400, withKey(admin, ifMatch(held.etag, { body: { decision: 'return', note: 'no' } })));
    await expectCall(failing, 'post', review, heldUrl, 413, tooLarge(admin));
    await expectCall(failing, 'post', review, heldUrl, 415, plainText(admin));
    await expectCall(failing, 'post', review, heldUrl, 200, withKey(admin, ifMatch(held.etag, { body: { decision: 'return', note: 'Say what the floor protects against, and what it does not.' } })));
    const again = await createPost(failing, key, { title: 'Held and then deleted', content: RISKY, compliance: { accept: ACCEPTED } });
    await call(failing, 'DELETE', `/api/blog/${again.id}`, withKey(key));
    await expectCall(failing, 'post', review, `/api/blog/${again.id}/review`, 410, withKey(admin, ifMatch('*', { body: { decision: 'approve' } })));
  });

  it('media: upload, list, read and delete images', async () => {
    const upload = '/api/media';
    const first = await png(1);
    const created = (await expectCall(server, 'post', upload, upload, 201, asImage(acme, first))) as { id: string; url: string };
    await expectCall(server, 'post', upload, upload, 200, asImage(globex, first));
    const form = new FormData();
    form.append('note', 'no file here');
    const noFile = await fetch(`${server.url}${upload}`, { method: 'POST', headers: { authorization: `Bearer ${acme}` }, body: form });
    expectDocumented(upload, 'post', { status: noFile.status, header: (name) => noFile.headers.get(name), text: await noFile.text() }, 400);
    await expectCall(server, 'post', upload, upload, 401, { body: first, headers: { 'content-type': 'image/png' } });
    await expectCall(server, 'post', upload, upload, 403, asImage(reader, first));
    await expectCall(server, 'post', upload, upload, 413, asImage(acme, Buffer.alloc(10 * 1024 * 1024 + 1)));
    await expectCall(server, 'post', upload, upload, 415, asImage(acme, Buffer.from('just some text'), 'text/plain'));
    await expectCall(server, 'post', upload, upload, 415, asImage(acme, Buffer.from('just some text')));
    await expectCall(server, 'post', upload, upload, 422, asImage(acme, Buffer.concat([await png(2), Buffer.from('<script>alert(1)</script>')])));
    await expectCall(server, 'post', upload, upload, 422, asImage(acme, pngHeaderOnly(12_000, 12_000)));

    await expectConditional(upload, upload, acme);
    await expectCall(server, 'get', upload, `${upload}?owner=acme`, 200, withKey(acme));
    await expectCall(server, 'get', upload, '/api/media?sort=new', 400, withKey(acme));
    await expectCall(server, 'get', upload, upload, 401);

    const one = '/api/media/{id}';
    const url = `/api/media/${created.id}`;
    await expectConditional(one, url, reader);
    await expectCall(server, 'get', one, url, 401);
    await expectCall(server, 'get', one, `/api/media/${'0'.repeat(32)}`, 404, withKey(reader));

    const used = await createPost(server, acme, { title: 'A post with a picture', content: `<p>Look.</p><p><img src="${created.url}" alt="A chart"></p>` });
    expect(used.id).toBeTruthy();
    await expectCall(server, 'delete', one, url, 409, withKey(acme));
    await expectCall(server, 'delete', one, url, 401);
    await expectCall(server, 'delete', one, url, 403, withKey(reader));
    const unused = (await expectCall(server, 'post', upload, upload, 201, asImage(acme, await png(3)))) as { id: string };
    await expectCall(server, 'delete', one, `/api/media/${unused.id}`, 403, withKey(await server.createKey('media stranger', ['blog:write'], 'stranger')));
    await expectCall(server, 'delete', one, `/api/media/${unused.id}`, 200, withKey(acme));
    await expectCall(server, 'delete', one, `/api/media/${unused.id}`, 404, withKey(acme));
    await expectCall(server, 'get', upload, `${upload}?owner=globex`, 403, withKey(acme));
  });

  it('429 when a key has used its writes or validations for the minute', async () => {
    const key = await limited.createKey('limited', ['blog:write']);
    const post = await createPost(limited, key);
    const id = `/api/blog/${post.id}`;
    await expectCall(limited, 'post', '/api/blog', '/api/blog', 429, withKey(key, { body: validPost() }));
    await expectCall(limited, 'patch', '/api/blog/{id}', id, 429, withKey(key, ifMatch('*', { body: { excerpt: 'x' } })));
    await expectCall(limited, 'put', '/api/blog/{id}', id, 429, withKey(key, ifMatch('*', { body: validPost() })));
    await expectCall(limited, 'delete', '/api/blog/{id}', id, 429, withKey(key));
    await expectCall(limited, 'post', '/api/blog/{id}/restore', `${id}/restore`, 429, withKey(key));
    await expectCall(limited, 'post', '/api/blog/{id}/revisions/{n}/revert', `${id}/revisions/1/revert`, 429, withKey(key));
    await expectCall(limited, 'post', '/api/blog/{id}/review', `${id}/review`, 429, withKey(key, ifMatch('*', { body: { decision: 'approve' } })));
    await expectCall(limited, 'post', '/api/media', '/api/media', 429, asImage(key, await png(4)));
    await expectCall(limited, 'delete', '/api/media/{id}', `/api/media/${'0'.repeat(32)}`, 429, withKey(key));
    await expectCall(limited, 'post', '/api/blog/validate', '/api/blog/validate', 200, { body: validPost() });
    await expectCall(limited, 'post', '/api/blog/validate', '/api/blog/validate', 429, { body: validPost() });
  });

  it('GET /api/health: 503 degraded, with Retry-After, while the store is out of reach', async () => {
    storeFailure = 'unavailable';
    try {
      const body = await expectCall(failing, 'get', '/api/health', '/api/health', 503);
      expect(body).toMatchObject({ success: false, status: 'degraded', code: 'storage_unavailable', reason: expect.stringContaining('The database cannot be reached') });
    } finally {
      storeFailure = null;
    }
    expect((await call(failing, 'GET', '/api/health')).status).toBe(200);
  });

  it.each([
    ['full', 507],
    ['read_only', 503],
    ['unavailable', 503],
  ] as const)('%s storage: every write answers %i', async (problem, status) => {
    // Each case uploads pictures of its own (the same bytes again would be the same upload, answered 200).
    const seeds = { full: [5, 7], read_only: [6, 8], unavailable: [9, 10] }[problem];
    const key = await failing.createKey(`storage ${problem}`, ['blog:write']);
    const post = await createPost(failing, key, { title: `Kept before the disk was ${problem}` });
    const id = `/api/blog/${post.id}`;
    await call(failing, 'PATCH', id, withKey(key, ifMatch('*', { body: { excerpt: 'A second version.' } })));
    const trashed = await createPost(failing, key, { title: `Trashed before the disk was ${problem}` });
    await call(failing, 'DELETE', `/api/blog/${trashed.id}`, withKey(key));
    const held = await createPost(failing, key, { title: `Held before the disk was ${problem}`, content: RISKY, compliance: { accept: ACCEPTED } });
    expect(held.status).toBe('in_review');
    const admin = await failing.createKey(`reviewer ${problem}`, ['blog:admin']);
    const image = await call<{ id: string }>(failing, 'POST', '/api/media', asImage(key, await png(seeds[0] ?? 0)));
    expect(image.status).toBe(201);
    storeFailure = problem;
    try {
      await expectCall(failing, 'post', '/api/blog', '/api/blog', status, withKey(key, { body: validPost() }));
      await expectCall(failing, 'patch', '/api/blog/{id}', id, status, withKey(key, ifMatch('*', { body: { excerpt: 'x' } })));
      await expectCall(failing, 'put', '/api/blog/{id}', id, status, withKey(key, ifMatch('*', { body: validPost({ title: 'Replaced' }) })));
      await expectCall(failing, 'post', '/api/blog/{id}/restore', `/api/blog/${trashed.id}/restore`, status, withKey(key));
      await expectCall(failing, 'post', '/api/blog/{id}/revisions/{n}/revert', `${id}/revisions/1/revert`, status, withKey(key));
      await expectCall(failing, 'delete', '/api/blog/{id}', id, status, withKey(key));
      await expectCall(failing, 'post', '/api/blog/{id}/review', `/api/blog/${held.id}/review`, status, withKey(admin, ifMatch('*', { body: { decision: 'approve' } })));
      await expectCall(failing, 'post', '/api/media', '/api/media', status, asImage(key, await png(seeds[1] ?? 0)));
      await expectCall(failing, 'delete', '/api/media/{id}', `/api/media/${image.json.id}`, status, withKey(key));
    } finally {
      storeFailure = null;
    }
  });

  it('every operation of the document was called, and every status it documents was seen', () => {
    const missing: string[] = [];
    for (const [docPath, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const statuses = seen.get(`${method} ${docPath}`) ?? new Set();
        for (const status of Object.keys(operation.responses).map(Number)) {
          if (!statuses.has(status)) missing.push(`${method.toUpperCase()} ${docPath} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
