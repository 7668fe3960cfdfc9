/**
 * Issue 38, as support meets it: an integrator's request fails, they paste the request id, and
 * `blogpost logs --request-id` finds it and `blogpost diagnose <id>` says the cause and the fix.
 * Requests are made the way the clients make them: Python's requests (a real python3 process when
 * one with requests is installed), node's fetch, and the bytes curl sends for a key read with a
 * carriage return (over a raw socket: node's fetch refuses to send them). The key's secret never
 * appears in an answer, the log or the CLI's output.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../api/raw-request';
import { call, validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';

const dataDir = makeTempDir('iul-cli-support-');
const at = ['--data-dir', dataDir];
let server: TestServer;
let key = '';
/** The part of the key that is secret: what must never be printed or logged. */
let secret = '';

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { DATA_DIR: '' } });
}

/** A POST from Python's requests, with the Authorization header exactly as given (asynchronously: the server runs in this process). */
async function pythonPost(url: string, authorization: string, body: unknown): Promise<{ status: number; requestId: string; body: Record<string, unknown> }> {
  const script = [
    'import json, sys, requests',
    'url, auth, body = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])',
    "r = requests.post(url, json=body, headers={'Authorization': auth})",
    "print(json.dumps({'status': r.status_code, 'requestId': r.headers.get('X-Request-Id'), 'body': r.json()}))",
  ].join('\n');
  const { stdout } = await promisify(execFile)('python3', ['-c', script, url, authorization, JSON.stringify(body)], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(stdout) as { status: number; requestId: string; body: Record<string, unknown> };
}

async function logged(id: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const run = await blogpost(['logs', '--request-id', id, '--json', ...at]);
      if (!run.stdout.includes(id)) throw new Error('not logged yet');
    },
    { timeout: 20_000, interval: 200 },
  );
}

/** Every file of the request log, as text: the secret must not be in any of them. */
function logText(): string {
  const dir = path.join(dataDir, 'logs');
  return readdirSync(dir)
    .map((name) => readFileSync(path.join(dir, name), 'utf8'))
    .join('\n');
}

function expectNoSecret(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(secret);
}

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
  key = await server.createKey('Integrator');
  secret = key.slice(15, 47);
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a key read with a carriage return (a .env file saved on Windows), as curl sends it', () => {
  it('is answered as that mistake, logged under the id it answered with, and diagnosed with the curl fix', async () => {
    const body = JSON.stringify(validPost());
    const res = await rawRequest(
      server.url,
      `POST /api/blog HTTP/1.1\r\nHost: localhost\r\nUser-Agent: curl/8.5.0\r\nAuthorization: Bearer ${key}\r\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status).toBe(401);
    const answer = JSON.parse(res.body) as { code: string; message: string; key_problem: string; request_id: string };
    expect(answer).toMatchObject({ code: 'malformed_api_key', key_problem: 'line_break' });
    expect(answer.message).toContain('ends with a line break');
    expect(answer.message).toContain('remove it');
    const id = res.headers['x-request-id'] ?? '';
    expect(answer.request_id).toBe(id);
    await logged(id);

    const logs = await blogpost(['logs', '--request-id', id, ...at]);
    expect(logs.stdout).toMatch(new RegExp(`${id}\\s+POST\\s+/api/blog\\s+401\\s+malformed_api_key`));
    const diagnose = await blogpost(['diagnose', id, ...at]);
    expect(diagnose.code).toBe(0);
    expect(diagnose.stdout).toContain('Refused by the HTTP parser');
    expect(diagnose.stdout).toContain('line break at its end');
    expect(diagnose.stdout).toContain("tr -d '\\r\\n");
    expect(diagnose.stdout).toContain('from curl (curl/8.5.0)');
    expectNoSecret(res.body, logs.stdout, logs.stderr, diagnose.stdout, diagnose.stderr, logText());
  });

  it('logs a parser refusal that names no key too, with the header it was in and the remote address', async () => {
    const res = await rawRequest(server.url, `GET /api/blog?q=1 HTTP/1.1\r\nHost: localhost\r\nX-Note: one\rtwo\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    const id = res.headers['x-request-id'] ?? '';
    await logged(id);
    const [entry] = (await blogpost(['logs', '--request-id', id, '--json', ...at])).stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entry).toMatchObject({ requestId: id, method: 'GET', path: '/api/blog', status: 400, code: 'bad_request', ip: '127.0.0.1' });
    expect(entry?.refusal).toContain('X-Note');
    expect((await blogpost(['diagnose', id, ...at])).stdout).toContain('Refused by the HTTP parser');
  });
});

describe('a key in quotes, from Python requests', () => {
  // python3 with requests is part of the machine (.ci/run installs python3-requests).
  it('says the quotes were sent, and diagnose shows the fix in Python', async () => {
    const answer = await pythonPost(`${server.url}/api/blog`, `Bearer "${key}"`, validPost());
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'malformed_api_key', key_problem: 'quotes' });
    expect(answer.body.message).toContain('The API key is in quotes');
    expect(answer.body.message).toContain('send it without them');
    await logged(answer.requestId);
    const diagnose = await blogpost(['diagnose', answer.requestId, ...at]);
    expect(diagnose.stdout).toContain('from python (python-requests/');
    expect(diagnose.stdout).toContain('inside quotes');
    expect(diagnose.stdout).toContain('os.environ["BLOGPOST_API_KEY"].strip()');
    const json = JSON.parse((await blogpost(['diagnose', answer.requestId, '--json', ...at])).stdout) as { request: { keyMistake: string } };
    expect(json.request.keyMistake).toBe('quotes');
    expectNoSecret(JSON.stringify(answer.body), diagnose.stdout, logText());
  }, 60_000);
});

describe('keys sent wrong from node’s fetch', () => {
  it.each([
    ['quotes', (k: string) => `Bearer '${k}'`, 'in quotes'],
    ['whitespace', (k: string) => `Bearer \u00A0${k}`, 'whitespace before or after it'],
    ['wrong_prefix', () => 'Bearer sk_live_0123456789abcdef', 'not an API key of this site'],
    ['bearer_twice', (k: string) => `Bearer Bearer ${k}`, '"Bearer" twice'],
  ])('%s: named in the answer and the log, and diagnosed with a fix for node', async (mistake, header, words) => {
    const res = await call(server, 'POST', '/api/blog', { body: validPost(), headers: { Authorization: header(key), 'User-Agent': 'node' } });
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'malformed_api_key', key_problem: mistake });
    expect(String(res.json.message)).toContain(words);
    const id = res.headers.get('x-request-id') ?? '';
    await logged(id);
    const diagnose = await blogpost(['diagnose', id, ...at]);
    expect(diagnose.stdout).toContain(`Request ${id}: POST /api/blog answered 401 malformed_api_key`);
    if (mistake === 'quotes' || mistake === 'whitespace') expect(diagnose.stdout).toContain('process.env.BLOGPOST_API_KEY.trim()');
    expectNoSecret(res.text, diagnose.stdout, logText());
  });

  it('still takes the same key sent right', async () => {
    expect((await call(server, 'POST', '/api/blog/validate', { key, body: validPost() })).status).toBe(200);
  });
});

describe('bodies shaped for another platform', () => {
  const wordpress = { title: { rendered: 'Hello' }, content: { rendered: '<p>Body</p>' }, excerpt: { rendered: 'Short' }, status: 'publish' };
  const ghost = { posts: [{ title: 'Hello', html: '<p>Body</p>', status: 'published' }] };
  const contentful = { fields: { title: { 'en-US': 'Hello' }, body: { 'en-US': 'Body' } } };
  const devto = { article: { title: 'Hello', body_markdown: 'Body', published: true } };

  it.each([
    ['wordpress', wordpress, 'WordPress REST API', 'title.rendered (or title.raw) → title'],
    ['ghost', ghost, 'Ghost Admin API', 'posts[0].html → content (HTML)'],
    ['contentful', contentful, 'Contentful', 'fields.title["en-US"] → title'],
    ['devto', devto, 'dev.to', 'article.body_markdown (rendered to HTML) → content (HTML)'],
  ])('%s: one error naming the platform and the mapping, and diagnose shows it', async (platform, body, name, mapping) => {
    const res = await call(server, 'POST', '/api/blog', { key, body, headers: { 'User-Agent': 'node' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'foreign_post_shape', platform });
    expect(res.json.errors).toBeUndefined();
    expect(String(res.json.message)).toContain(name);
    expect(String(res.json.message)).toContain(mapping);
    const id = res.headers.get('x-request-id') ?? '';
    await logged(id);
    const diagnose = await blogpost(['diagnose', id, ...at]);
    expect(diagnose.stdout).toContain('400 foreign_post_shape');
    expect(diagnose.stdout).toContain(name);
    expect(diagnose.stdout).toContain(mapping);
  });

  it('maps WordPress "publish" to "published" on the validation endpoint as well', async () => {
    const res = await call(server, 'POST', '/api/blog/validate', { body: { ...wordpress, title: { raw: 'Hello' } } });
    expect(res.json).toMatchObject({ code: 'foreign_post_shape', platform: 'wordpress' });
    expect(String(res.json.message)).toContain('status "publish" / "draft" / "future" → status "published" / "draft" / "scheduled"');
  });

  it('leaves an ordinary incomplete body to the field list', async () => {
    const res = await call(server, 'POST', '/api/blog', { key, body: { title: 'Only a title' } });
    expect(res.json).toMatchObject({ code: 'validation_failed' });
  });
});
