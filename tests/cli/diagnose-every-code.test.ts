/**
 * Issue 38's "done when": for every code of the error catalogue, a failing request made the way a
 * real client makes it (a python3 process with requests, a curl process, node's fetch; the bytes of a
 * request Node's parser refuses over a raw socket), then `blogpost diagnose <its request id>` (the
 * CLI's own entry, tests/support/cli.ts) prints the cause and the fix: the catalogue's title and the
 * first line of its guidance, and for the codes that have them the specifics (the limit that applied
 * and when a wait ends, a 412's changed fields with who changed them and when, the platform a body was
 * shaped for, how a key was sent wrong). Two servers: one as an agency runs it (a CORS list, small
 * validation and image limits) and one in COMPLIANCE_MODE=block whose store can be made to fail.
 * Also `blogpost support-bundle`: the file holds neither the key's secret nor the e-mail or phone
 * number sent, and names the key id and the request id.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode, guidanceFor } from '../../contract/errors';
import { KeyService } from '../../api/services/keys';
import { StoreError } from '../../api/store/store-error';
import type { Store } from '../../api/store/store';
import { rawRequest } from '../api/raw-request';
import { validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { withMember } from '../support/failing';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { pngBomb } from '../support/png-bomb';

const run = promisify(execFile);
const dirA = makeTempDir('iul-diagnose-every-a-');
const dirB = makeTempDir('iul-diagnose-every-b-');
const work = makeTempDir('iul-diagnose-every-files-');
let agency: TestServer;
let strict: TestServer;
/** What server B's store does with a create: as it should, or fail as a full or read-only disk, or crash. */
let storeMode: 'ok' | 'full' | 'read_only' | 'crash' = 'ok';
const keys = { writer: '', colleague: '', reader: '', other: '', revoked: '', limited: '', strictWriter: '' };
/** What diagnose printed for each code (the last case of it): the table in docs/integrator-guide.md is copied from these runs. */
const seen = new Map<ErrorCode, string[]>();

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { DATA_DIR: '', DATABASE_URL: '' }, cwd: work });
}

interface Answer {
  status: number;
  id: string;
  body: string;
}

/** A curl process; the answer's status, X-Request-Id and body. */
async function curl(args: string[]): Promise<Answer> {
  const { stdout } = await run('curl', ['-sS', '-i', '--max-time', '30', ...args], { encoding: 'utf8', maxBuffer: 8 * 1024 * 1024, cwd: work });
  // A large body is sent after the server's "100 Continue": that interim answer comes first.
  const [head = '', ...rest] = stdout.replace(/^(HTTP\/[\d.]+ 100 [^\r]*\r\n\r\n)+/, '').split('\r\n\r\n');
  return { status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1] ?? 0), id: /^x-request-id: (\S+)/im.exec(head)?.[1] ?? '', body: rest.join('\r\n\r\n') };
}

/** A python3 process with requests: `code` uses `url`, `key` and `s` (a requests.Session) and leaves its answer in `r`. */
async function python(code: string, url: string, key = ''): Promise<Answer> {
  const script = ['import json, sys, requests', 'url, key = sys.argv[1], sys.argv[2]', 's = requests.Session()', code, "print(json.dumps({'status': r.status_code, 'id': r.headers.get('X-Request-Id'), 'body': r.text}))"].join('\n');
  const { stdout } = await run('python3', ['-c', script, url, key], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Answer;
}

/** node's fetch. */
async function node(server: TestServer, method: string, pathname: string, init: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'User-Agent': 'node', ...init.headers };
  if (init.key) headers.Authorization = `Bearer ${init.key}`;
  let body: BodyInit | undefined;
  if (typeof init.body === 'string' || init.body instanceof Uint8Array) body = init.body as BodyInit;
  else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${server.url}${pathname}`, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: res.status, id: res.headers.get('x-request-id') ?? '', body: await res.text() };
}

async function logged(id: string, dataDir: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const found = await blogpost(['logs', '--request-id', id, '--all', '--json', '--data-dir', dataDir]);
      if (!found.stdout.includes(id)) throw new Error('not logged yet');
    },
    { timeout: 20_000, interval: 200 },
  );
}

/** Diagnoses the answer: the code it was expected to have, and what diagnose must say about it besides the catalogue's cause and fix. */
async function diagnosed(code: ErrorCode, answer: Answer, server: TestServer, specifics: readonly string[] = []): Promise<string> {
  expect(answer.status, answer.body).toBe(ERROR_CATALOGUE[code].status);
  expect(answer.id).toMatch(/^req_/);
  await logged(answer.id, server.dataDir);
  const result = await blogpost(['diagnose', answer.id, '--data-dir', server.dataDir]);
  seen.set(code, [...(seen.get(code) ?? []), result.stdout]);
  expect(result.code, result.stderr).toBe(0);
  const out = result.stdout;
  expect(out).toMatch(new RegExp(`^Request ${answer.id}: \\S+ \\S+ answered ${ERROR_CATALOGUE[code].status} ${code} on `));
  expect(out).toContain(`Cause:\n  ${ERROR_CATALOGUE[code].title}:`);
  expect(out).toContain('Fix:\n  → ');
  // The catalogue's fix, or (for a revoked key) what the administrator does.
  expect(out).toContain(guidanceFor(code)[0]);
  for (const words of specifics) expect(out).toContain(words);
  return out;
}

/** A picture of random pixels (slow to re-encode, which media_busy needs). */
function noise(width: number, height: number): Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = width * 31 + height;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    pixels[i] = seed >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

function file(name: string, content: string | Buffer): string {
  writeFileSync(path.join(work, name), content);
  return name;
}

function failingCreates(store: Store): Store {
  const create = store.posts.create.bind(store.posts);
  const failing = ((...args: Parameters<typeof create>) => {
    if (storeMode === 'full' || storeMode === 'read_only') return Promise.reject(new StoreError(storeMode, path.join(dirB, 'store.sqlite'), 'cannot write'));
    if (storeMode === 'crash') return Promise.reject(new Error('disk exploded at /internal/path'));
    return create(...args);
  }) as typeof create;
  return withMember(store, 'posts', withMember(store.posts, 'create', failing));
}

beforeAll(async () => {
  agency = await startTestServer({
    dataDir: dirA,
    api: { writesPerMinute: 0, validationsPerMinute: 2, corsOrigins: ['https://partner.example'], mediaMaxBytes: 100_000 },
  });
  strict = await startTestServer({ dataDir: dirB, wrapStore: failingCreates, api: { writesPerMinute: 0, complianceMode: 'block', mediaWork: { jobs: 1, queueLength: 0 } } });
  keys.writer = await agency.createKey('Integrator', ['blog:write', 'blog:read'], 'alice');
  keys.colleague = await agency.createKey('Colleague', ['blog:write', 'blog:read'], 'alice');
  keys.reader = await agency.createKey('Reader', ['blog:read'], 'alice');
  keys.other = await agency.createKey('Other agency', ['blog:write', 'blog:read'], 'bob');
  keys.limited = await agency.createKey('Bulk importer', ['blog:write'], 'carol');
  keys.revoked = await agency.createKey('Old laptop', ['blog:write'], 'alice');
  await new KeyService(agency.store.keys).revoke(keys.revoked.slice(4, 14), { by: 'cli:support', reason: 'laptop stolen' });
  keys.strictWriter = await strict.createKey('Strict writer', ['blog:write', 'blog:read']);
}, 120_000);

afterAll(async () => {
  await agency?.close();
  await strict?.close();
  for (const dir of [dirA, dirB, work]) rmSync(dir, { recursive: true, force: true });
});

/** Creates a post on the agency's server with the writer's key; its id, slug and ETag. */
async function createPost(overrides: Record<string, unknown> = {}, key = keys.writer): Promise<{ id: string; slug: string; etag: string }> {
  const res = await node(agency, 'POST', '/api/blog', { key, body: validPost(overrides) });
  expect(res.status, res.body).toBe(201);
  const { post } = JSON.parse(res.body) as { post: { id: string; slug: string; etag: string } };
  return post;
}

describe('the issue’s cases', () => {
  it('a key read with a trailing newline (curl sends the carriage return of a Windows .env file)', async () => {
    const body = JSON.stringify(validPost());
    const res = await rawRequest(
      agency.url,
      `POST /api/blog HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/8.5.0\r\nAuthorization: Bearer ${keys.writer}\r\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    await diagnosed('malformed_api_key', { status: res.status, id: res.headers['x-request-id'] ?? '', body: res.body }, agency, ['line break at its end', "tr -d '\\r\\n"]);
  });

  it('a key in quotes, from Python requests', async () => {
    const answer = await python("r = s.post(url, json={'title': 'x'}, headers={'Authorization': 'Bearer \"' + key + '\"'})", `${agency.url}/api/blog`, keys.writer);
    await diagnosed('malformed_api_key', answer, agency, ['inside quotes', 'os.environ["BLOGPOST_API_KEY"].strip()']);
  }, 60_000);

  it('a WordPress-shaped body, from curl', async () => {
    const body = file('wordpress.json', JSON.stringify({ title: { rendered: 'Hello' }, content: { rendered: '<p>Body</p>' }, excerpt: { rendered: 'Short' }, status: 'publish' }));
    const answer = await curl(['-X', 'POST', `${agency.url}/api/blog`, '-H', `Authorization: Bearer ${keys.writer}`, '-H', 'Content-Type: application/json', '--data-binary', `@${body}`]);
    await diagnosed('foreign_post_shape', answer, agency, ['WordPress REST API', 'title.rendered (or title.raw) → title']);
  });

  it('a Ghost-shaped body, from node’s fetch', async () => {
    const answer = await node(agency, 'POST', '/api/blog', { key: keys.writer, body: { posts: [{ title: 'Hello', html: '<p>Body</p>', status: 'published' }] } });
    await diagnosed('foreign_post_shape', answer, agency, ['Ghost Admin API', 'posts[0].html → content (HTML)']);
  });

  it('a 412: names the fields changed since the revision sent, who changed them and when, and how to recover', async () => {
    const post = await createPost({ title: 'Rates in 2027' });
    // A colleague changes the excerpt first (from the same revision, so it applies)...
    const colleague = await node(agency, 'PATCH', `/api/blog/${post.id}`, { key: keys.colleague, body: { excerpt: 'The colleague’s excerpt.' }, headers: { 'If-Match': post.etag } });
    expect(colleague.status, colleague.body).toBe(200);
    // ...then the integrator, from Python, sends their excerpt against the revision they read.
    const answer = await python(
      "r = s.patch(url, json={'excerpt': 'The integrator’s excerpt.'}, headers={'Authorization': 'Bearer ' + key, 'If-Match': sys.argv[3]})".replace('sys.argv[3]', JSON.stringify(post.etag)),
      `${agency.url}/api/blog/${post.id}`,
      keys.writer,
    );
    const out = await diagnosed('precondition_failed', answer, agency, [
      'The change was made from revision 1 (the If-Match sent); the post was at revision 2.',
      'Changed since revision 1: excerpt.',
      `excerpt was changed by this request and, since, by key "Colleague" (${keys.colleague.slice(4, 14)}) on `,
      `revision 2: changed excerpt, by key "Colleague" (${keys.colleague.slice(4, 14)}) on `,
      `blogpost get ${post.slug} --markdown --output post.md`,
      'The merge rules:',
    ]);
    expect(out).not.toContain(keys.colleague.slice(15));
  }, 60_000);
});

describe('every other code of the catalogue', () => {
  it('validation_failed (python), invalid_json and body_is_json_string (curl)', async () => {
    await diagnosed('validation_failed', await python("r = s.post(url, json={'title': 'Only a title'}, headers={'Authorization': 'Bearer ' + key})", `${agency.url}/api/blog`, keys.writer), agency, [
      'Put the fields at the top level of one dict',
    ]);
    await diagnosed('invalid_json', await curl(['-X', 'POST', `${agency.url}/api/blog`, '-H', `Authorization: Bearer ${keys.writer}`, '-H', 'Content-Type: application/json', '-d', "{'title': 'single quotes'}"]), agency, [
      'Wrap the JSON in single quotes',
    ]);
    const twice = JSON.stringify(JSON.stringify(validPost()));
    await diagnosed('body_is_json_string', await python(`r = s.post(url, json=json.dumps(${JSON.stringify(validPost())}), headers={'Authorization': 'Bearer ' + key})`.replace(/\btrue\b/g, 'True'), `${agency.url}/api/blog`, keys.writer), agency, [
      'Use json=post, not json=json.dumps(post)',
    ]);
    expect(twice.startsWith('"')).toBe(true);
  }, 60_000);

  it('invalid_idempotency_key and idempotency_key_mismatch (node’s fetch)', async () => {
    await diagnosed('invalid_idempotency_key', await node(agency, 'POST', '/api/blog', { key: keys.writer, body: validPost(), headers: { 'Idempotency-Key': 'x'.repeat(300) } }), agency);
    const idem = `import-${Date.now()}`;
    expect((await node(agency, 'POST', '/api/blog', { key: keys.writer, body: validPost({ title: 'Idempotent one' }), headers: { 'Idempotency-Key': idem } })).status).toBe(201);
    await diagnosed('idempotency_key_mismatch', await node(agency, 'POST', '/api/blog', { key: keys.writer, body: validPost({ title: 'Idempotent two' }), headers: { 'Idempotency-Key': idem } }), agency);
  });

  it('bad_request: a header the HTTP parser refuses (raw bytes)', async () => {
    const res = await rawRequest(agency.url, `GET /api/blog HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/8.5.0\r\nX-Note: one\rtwo\r\nConnection: close\r\n\r\n`);
    await diagnosed('bad_request', { status: res.status, id: res.headers['x-request-id'] ?? '', body: res.body }, agency, ['Refused by the HTTP parser', 'X-Note']);
  });

  it('missing_api_key (curl), invalid_api_key for a revoked key (python) and insufficient_permissions (node)', async () => {
    await diagnosed('missing_api_key', await curl(['-X', 'POST', `${agency.url}/api/blog`, '-H', 'Content-Type: application/json', '-d', JSON.stringify(validPost())]), agency, ["With curl add -H 'Authorization: Bearer YOUR_KEY'."]);
    const revoked = await python("r = s.post(url, json={'title': 'x'}, headers={'Authorization': 'Bearer ' + key})", `${agency.url}/api/blog`, keys.revoked);
    await diagnosed('invalid_api_key', revoked, agency, ['Key "Old laptop"', 'was revoked on', 'by cli:support', '"laptop stolen"', 'blogpost keys create --name NAME --permission blog:write']);
    await diagnosed('insufficient_permissions', await node(agency, 'POST', '/api/blog', { key: keys.reader, body: validPost() }), agency, ['Key "Reader"', 'holds blog:read']);
  }, 60_000);

  it('origin_not_allowed: a browser’s preflight from an origin not in CORS_ORIGINS (curl)', async () => {
    const answer = await curl(['-X', 'OPTIONS', `${agency.url}/api/blog`, '-H', 'Origin: https://elsewhere.example', '-H', 'Access-Control-Request-Method: POST']);
    await diagnosed('origin_not_allowed', answer, agency);
  });

  it('post_not_found, not_found, unknown_query_parameter and method_not_allowed (curl)', async () => {
    await diagnosed('post_not_found', await curl([`${agency.url}/api/blog/no-such-post`]), agency);
    await diagnosed('not_found', await curl([`${agency.url}/api/blogs`]), agency);
    await diagnosed('unknown_query_parameter', await curl([`${agency.url}/api/blog?sort=newest`]), agency);
    await diagnosed('method_not_allowed', await curl(['-X', 'DELETE', `${agency.url}/api/blog`]), agency, ['With curl, -d or --json imply POST']);
  });

  it('post_gone, not_in_trash, not_post_owner, revision_not_found, slug_taken and precondition_required (node’s fetch)', async () => {
    const gone = await createPost({ title: 'Soon in the trash' });
    expect((await node(agency, 'DELETE', `/api/blog/${gone.id}`, { key: keys.writer, headers: { 'If-Match': gone.etag } })).status).toBe(200);
    await diagnosed('post_gone', await node(agency, 'PATCH', `/api/blog/${gone.id}`, { key: keys.writer, body: { title: 'Changed' }, headers: { 'If-Match': '*' } }), agency);
    const live = await createPost({ title: 'Alive and well', slug: 'alive-and-well' });
    await diagnosed('not_in_trash', await node(agency, 'POST', `/api/blog/${live.id}/restore`, { key: keys.writer }), agency);
    await diagnosed('not_post_owner', await node(agency, 'PATCH', `/api/blog/${live.id}`, { key: keys.other, body: { title: 'Mine now' }, headers: { 'If-Match': live.etag } }), agency);
    await diagnosed('revision_not_found', await node(agency, 'GET', `/api/blog/${live.id}/revisions/99`, { key: keys.writer }), agency);
    await diagnosed('slug_taken', await node(agency, 'POST', '/api/blog', { key: keys.writer, body: validPost({ title: 'Another', slug: 'alive-and-well' }) }), agency);
    await diagnosed('precondition_required', await node(agency, 'PATCH', `/api/blog/${live.id}`, { key: keys.writer, body: { title: 'No If-Match' } }), agency);
  });

  it('request_headers_too_large (curl with a 20 KB cookie)', async () => {
    const answer = await curl([`${agency.url}/api/blog`, '-H', `Cookie: session=${'a'.repeat(20_000)}`]);
    await diagnosed('request_headers_too_large', answer, agency, ['Refused by the HTTP parser (HPE_HEADER_OVERFLOW): the request line and headers together were larger than the server reads.', 'The limit that applied: 16,384 bytes.']);
  });

  it('payload_too_large (curl, 1.2 MB) names the size limit', async () => {
    const big = file('big.json', JSON.stringify(validPost({ content: `<p>${'x'.repeat(1_200_000)}</p>` })));
    const send = () => curl(['-X', 'POST', `${agency.url}/api/blog`, '-H', `Authorization: Bearer ${keys.writer}`, '-H', 'Content-Type: application/json', '--data-binary', `@${big}`]);
    // Every attempt gets the 413 and its request id (the server reads the declared body away rather than
    // resetting the connection under curl, which then said "Send failure: Broken pipe" and nothing else).
    for (let attempt = 0; attempt < 4; attempt++) expect((await send()).status).toBe(413);
    await diagnosed('payload_too_large', await send(), agency, ['The limit that applied: 1,048,576 bytes (1 MB)']);
  });

  it('unsupported_media_type (curl -d sends a form) names the type sent and the types taken', async () => {
    const answer = await curl(['-X', 'POST', `${agency.url}/api/blog`, '-H', `Authorization: Bearer ${keys.writer}`, '-d', 'title=Hello&content=Body']);
    await diagnosed('unsupported_media_type', answer, agency, [
      'The request was sent with Content-Type application/x-www-form-urlencoded.',
      'This endpoint takes: application/json, application/*+json.',
      "Add -H 'Content-Type: application/json'",
    ]);
  });

  it('rate_limited (python, a third validation in a minute) names the limit, its window and when it resets', async () => {
    const answer = await python("for _ in range(3):\n    r = s.post(url, json={'title': 'x'}, headers={'Authorization': 'Bearer ' + key})", `${agency.url}/api/blog/validate`, keys.limited);
    await diagnosed('rate_limited', answer, agency, ['The limit that applied: 2 validations per 60 seconds per key', 'It allowed the next request 30 seconds later, from ', 'the whole allowance is back by ']);
  }, 60_000);

  it('the image codes: media_too_large, unsupported_image, image_unreadable, image_too_many_pixels (curl), media_not_found, not_media_owner, media_in_use (node)', async () => {
    const large = file('large.jpg', await noise(400, 300).jpeg({ quality: 95 }).toBuffer());
    const upload = (name: string, type: string, key = keys.writer) => curl(['-X', 'POST', `${agency.url}/api/media`, '-H', `Authorization: Bearer ${key}`, '-H', `Content-Type: ${type}`, '--data-binary', `@${name}`]);
    // Every attempt gets the 413 and its request id, not a reset connection under curl.
    for (let attempt = 0; attempt < 4; attempt++) expect((await upload(large, 'image/jpeg')).status).toBe(413);
    const tooLarge = await diagnosed('media_too_large', await upload(large, 'image/jpeg'), agency, ['Image too large: the request was larger than the limit that applied (below).', 'The limit that applied: 100,000 bytes']);
    // The catalogue's default (10 MB) is not what applied here.
    expect(tooLarge).not.toContain('10 MB');
    await diagnosed('unsupported_image', await upload(file('notes.png', 'just some text, not a picture'), 'image/png'), agency, ['Its bytes were found to be text/plain.', 'This endpoint takes: image/png']);
    const truncated = (await noise(60, 40).png().toBuffer()).subarray(0, 200);
    await diagnosed('image_unreadable', await upload(file('cut.png', truncated), 'image/png'), agency);
    await diagnosed('image_too_many_pixels', await upload(file('bomb.png', pngBomb(8000)), 'image/png'), agency);
    await diagnosed('media_not_found', await node(agency, 'GET', '/api/media/0123456789abcdef0123', { key: keys.writer }), agency);

    const small = await upload(file('small.png', await noise(60, 40).png().toBuffer()), 'image/png');
    expect(small.status, small.body).toBe(201);
    const media = (JSON.parse(small.body) as { id: string }).id;
    await diagnosed('not_media_owner', await node(agency, 'DELETE', `/api/media/${media}`, { key: keys.other }), agency);
    await createPost({ title: 'With a cover', cover_image: media, cover_image_alt: 'Random dots' });
    await diagnosed('media_in_use', await node(agency, 'DELETE', `/api/media/${media}`, { key: keys.writer }), agency);
  }, 60_000);

  it('compliance_blocked (COMPLIANCE_MODE=block, python)', async () => {
    const answer = await python(
      "r = s.post(url, json={'title': 'Blocked claim', 'content': '<p>Our IUL strategy offers guaranteed returns and is completely risk-free.</p>', 'excerpt': 'A claim.', 'category': 'IUL Strategies', 'status': 'published', 'author': {'name': 'Jane Author'}}, headers={'Authorization': 'Bearer ' + key})",
      `${strict.url}/api/blog`,
      keys.strictWriter,
    );
    await diagnosed('compliance_blocked', answer, strict);
  }, 60_000);

  it('storage_full, storage_unavailable and server_error (node’s fetch against a failing store)', async () => {
    try {
      storeMode = 'full';
      await diagnosed('storage_full', await node(strict, 'POST', '/api/blog', { key: keys.strictWriter, body: validPost() }), strict);
      storeMode = 'read_only';
      await diagnosed('storage_unavailable', await node(strict, 'POST', '/api/blog', { key: keys.strictWriter, body: validPost() }), strict);
      storeMode = 'crash';
      const crashed = await node(strict, 'POST', '/api/blog', { key: keys.strictWriter, body: validPost() });
      await diagnosed('server_error', crashed, strict, [`The server's own log (its standard error: the journal of its service) holds the error and its stack under ${crashed.id}.`]);
      expect(strict.logs.join('\n')).toContain(crashed.id);
    } finally {
      storeMode = 'ok';
    }
  });

  it('media_busy (curl, while the one upload the server takes at once is re-encoding) says when to retry', async () => {
    const photo = await noise(2400, 1800).jpeg({ quality: 95 }).toBuffer();
    const working = fetch(`${strict.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${keys.strictWriter}`, 'content-type': 'image/jpeg' }, body: new Uint8Array(photo) });
    // One byte: answered 415 (not an image) until the photo's re-encoding has begun, 503 from then on.
    const tiny = file('one-byte.png', 'x');
    let answer: Answer = { status: 0, id: '', body: '' };
    // Busy once the photo's re-encoding has begun: polled, not waited for.
    await vi.waitFor(
      async () => {
        answer = await curl(['-X', 'POST', `${strict.url}/api/media`, '-H', `Authorization: Bearer ${keys.strictWriter}`, '-H', 'Content-Type: image/png', '--data-binary', `@${tiny}`]);
        if (answer.status !== 503) throw new Error(`answered ${answer.status}`);
      },
      { timeout: 20_000, interval: 50 },
    );
    await working;
    await diagnosed('media_busy', answer, strict, ['The answer asked to retry after 10 seconds (Retry-After), from ']);
  }, 60_000);

  it('covers every code of the catalogue', () => {
    expect([...seen.keys()].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
    // What diagnose said in these runs, for the table in docs/integrator-guide.md (written only when asked).
    if (process.env.DIAGNOSE_TABLE_OUT) writeFileSync(process.env.DIAGNOSE_TABLE_OUT, JSON.stringify(Object.fromEntries(seen), null, 2));
  });
});

describe('blogpost support-bundle', () => {
  it('writes one file that holds neither the key’s secret nor the e-mail or phone sent, and names the key id and the request id', async () => {
    const email = 'jane.integrator@example.org';
    const phone = '+1 (555) 201-7788';
    const answer = await node(agency, 'POST', '/api/blog', { key: keys.writer, body: { title: `Call ${phone}`, author: { name: 'Jane', email }, api_key: keys.writer } });
    expect(answer.status).toBe(400);
    await logged(answer.id, agency.dataDir);
    const made = await blogpost(['support-bundle', answer.id, '--data-dir', agency.dataDir, '--out', 'ticket.json']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain(`Wrote ${path.join(work, 'ticket.json')}: request ${answer.id}`);
    const text = readFileSync(path.join(work, 'ticket.json'), 'utf8');
    expect(text).not.toContain(keys.writer.slice(15));
    expect(text).not.toContain(email);
    expect(text).not.toContain('201-7788');
    expect(text).toContain(keys.writer.slice(4, 14));
    expect(text).toContain(answer.id);
    const bundle = JSON.parse(text) as Record<string, Record<string, unknown>>;
    expect(bundle.key).toMatchObject({ id: keys.writer.slice(4, 14), name: 'Integrator', status: 'active' });
    expect(bundle.settings).toMatchObject({ engine: 'sqlite', COMPLIANCE_MODE: 'warn' });
    expect(bundle.server?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(bundle.diagnosis?.summary).toContain('answered 400 validation_failed');

    // The same again is refused rather than overwritten; --force replaces it; --json says where it went.
    const again = await blogpost(['support-bundle', answer.id, '--data-dir', agency.dataDir, '--out', 'ticket.json']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists: choose another --out, or add --force to replace it.');
    const json = await blogpost(['support-bundle', answer.id, '--data-dir', agency.dataDir, '--out', 'ticket.json', '--force', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ success: true, file: path.join(work, 'ticket.json'), request_id: answer.id });
  });

  it('holds the post’s revision history when the request touched a post, the revoked key’s who, when and why', async () => {
    const post = await createPost({ title: 'History for the bundle' });
    const answer = await node(agency, 'PATCH', `/api/blog/${post.id}`, { key: keys.revoked, body: { title: 'x' }, headers: { 'If-Match': post.etag } });
    expect(answer.status).toBe(401);
    await logged(answer.id, agency.dataDir);
    expect((await blogpost(['support-bundle', answer.id, '--data-dir', agency.dataDir, '--out', 'revoked.json'])).code).toBe(0);
    const bundle = JSON.parse(readFileSync(path.join(work, 'revoked.json'), 'utf8')) as { key: Record<string, unknown>; post: { post: { id: string }; versions: Array<{ revision: number; made_by: string }> } };
    expect(bundle.key).toMatchObject({ status: 'revoked', revokedBy: 'cli:support', revokeReason: 'laptop stolen' });
    expect(bundle.post.post.id).toBe(post.id);
    expect(bundle.post.versions[0]).toMatchObject({ revision: 1, made_by: `key:${keys.writer.slice(4, 14)}` });
  });

  it('ends with exit code 1 and says where it looked for an unknown request id', async () => {
    const missing = await blogpost(['support-bundle', 'req_00000000000000000000000000000000', '--data-dir', agency.dataDir]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`No request req_00000000000000000000000000000000 in the request log at ${path.join(agency.dataDir, 'logs')}`);
  });

  it('is in the help and in the shell completion', async () => {
    expect((await blogpost(['--help'])).stdout).toContain('support-bundle');
    expect((await blogpost(['completion', 'bash'])).stdout).toContain('support-bundle');
    expect((await blogpost(['support-bundle', '--help'])).stdout).toContain('The file is JSON, not Markdown');
  });
});

describe('the CLI’s own checks', () => {
  const POST = ['---', 'title: "A chart of the cash value"', 'category: "IUL Strategies"', 'status: draft', 'author:', '  name: "Ada Writer"', '---', 'How it grows.', '', '![Cash value over twenty years](chart.png)', ''].join('\n');

  async function entries(args: string[]): Promise<Array<{ requestId: string; method: string; path: string; status: number; check?: boolean }>> {
    const found = await blogpost(['logs', '--since', '1h', '--limit', '1000', '--json', '--data-dir', agency.dataDir, ...args]);
    return found.stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { requestId: string; method: string; path: string; status: number; check?: boolean });
  }

  it('publish marks its look for an image already on the site with X-Blogpost-Check, and logs hides it unless --all', async () => {
    await noise(64, 48).png().toFile(path.join(work, 'chart.png'));
    file('chart-post.md', POST);
    const published = await blogpost(['publish', 'chart-post.md', '--url', agency.url, '--key', keys.writer]);
    expect(published.code, published.stderr).toBe(0);
    let check: { requestId: string; status: number; check?: boolean } | undefined;
    await vi.waitFor(async () => {
      check = (await entries(['--all'])).find((entry) => entry.method === 'GET' && entry.path.startsWith('/api/media/') && entry.check === true);
      if (!check) throw new Error('not logged yet');
    }, { timeout: 20_000, interval: 200 });
    expect(check?.status).toBe(404);
    expect((await entries([])).map((entry) => entry.requestId)).not.toContain(check?.requestId);
    const table = await blogpost(['logs', '--since', '1h', '--limit', '1000', '--data-dir', agency.dataDir]);
    expect(table.stdout).not.toContain(check?.requestId);
    expect(table.stderr).toMatch(/requests? the CLI made to check its own work \(X-Blogpost-Check\) (is|are) hidden: add --all to show them\./);
  });

  it('media upload sends the image once, with no check before it: its one request is the author’s and logs shows it', async () => {
    await noise(32, 24).png().toFile(path.join(work, 'upload.png'));
    const before = new Set((await entries(['--all'])).map((entry) => entry.requestId));
    const uploaded = await blogpost(['media', 'upload', 'upload.png', '--url', agency.url, '--key', keys.writer]);
    expect(uploaded.code, uploaded.stderr).toBe(0);
    let made: Array<{ requestId: string; method: string; path: string; check?: boolean }> = [];
    await vi.waitFor(async () => {
      made = (await entries(['--all'])).filter((entry) => !before.has(entry.requestId) && entry.path.startsWith('/api/media'));
      if (made.length === 0) throw new Error('not logged yet');
    }, { timeout: 20_000, interval: 200 });
    expect(made.map((entry) => `${entry.method} ${entry.path} ${entry.check === true}`)).toEqual(['POST /api/media false']);
    expect((await entries([])).map((entry) => entry.requestId)).toContain(made[0]?.requestId);
  });
});
