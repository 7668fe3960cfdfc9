/**
 * `blogpost publish | validate | diagnose | test | seed | help` (through the CLI's own entry, tests/support/cli.ts) against a real
 * server: output, exit codes, and what reached the store.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatApiKey } from '../../contract/keys';
import { SAMPLE_POST } from '../../harness/sample-post';
import { blogpost } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');
const POST_FILE = path.join(FIXTURES, 'policy-loans.md');
const BROKEN_FILE = path.join(FIXTURES, 'broken.md');

let server: TestServer;
let writer: string;
let reader: string;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('cli-writer', ['blog:write']);
  reader = await server.createKey('cli-reader', ['blog:read']);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-cli-'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): { env: Record<string, string> } {
  return { env: { BLOGPOST_URL: server.url, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json'), ...extra } };
}

describe('blogpost validate', () => {
  it('accepts a valid Markdown post offline and says what the server will make of it', async () => {
    const run = await blogpost(['validate', POST_FILE]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Valid: "How Policy Loans Work in an IUL"');
    expect(run.stderr).toContain('slug how-policy-loans-work-in-an-iul');
    expect(run.stderr).toContain('category iul-strategies');
    expect(run.stderr).toContain('note: excerpt taken from the first paragraph');
  });

  it('lists every problem with its field path and exits 1', async () => {
    const run = await blogpost(['validate', BROKEN_FILE, '--json']);
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout) as { valid: boolean; errors: { field: string }[] };
    expect(out.valid).toBe(false);
    expect(out.errors.map((e) => e.field).sort()).toEqual(
      ['author.name', 'category', 'content', 'excerpt', 'status', 'title', 'trust.sources[0].url'].sort(),
    );
  });

  it('reads a JSON payload from standard input, and explains a file that cannot be read', async () => {
    const run = await blogpost(['validate', '-'], { input: JSON.stringify(SAMPLE_POST) });
    expect(run.code).toBe(0);
    const twice = await blogpost(['validate', '-'], { input: JSON.stringify(JSON.stringify(SAMPLE_POST)) });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('serialised twice');
    const missing = await blogpost(['validate', 'no-such-file.md']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('Cannot read no-such-file.md: no such file.');
  });
});

describe('blogpost publish', () => {
  it('prints the exact request on --dry-run and sends nothing', async () => {
    const run = await blogpost(['publish', POST_FILE, '--dry-run', '--key', writer], env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`POST ${server.url}/api/blog`);
    expect(run.stdout).toContain('Content-Type: application/json');
    expect(run.stdout).toMatch(/Idempotency-Key: blogpost-[0-9a-f]{40}/);
    expect(run.stdout).toContain('Authorization: Bearer bpk_');
    expect(run.stdout).not.toContain(writer);
    expect(run.stderr).toContain('Dry run: nothing was sent.');
    expect(await server.store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
  });

  it('creates the post once, even when run twice with the same idempotency key, and prints its URL', async () => {
    // From standard input, so nothing records the post's id and the second run is a retry of the create.
    const input = readFileSync(POST_FILE, 'utf8');
    const first = await blogpost(['publish', '-', '--status', 'published'], { ...env({ BLOGPOST_API_KEY: writer }), input });
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(`${server.url}/blog/how-policy-loans-work-in-an-iul`);
    expect(first.stderr).toContain('Created "How Policy Loans Work in an IUL" as published');
    const second = await blogpost(['publish', '-', '--status', 'published'], { ...env({ BLOGPOST_API_KEY: writer }), input });
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`${server.url}/blog/how-policy-loans-work-in-an-iul`);
    expect(second.stderr).toContain('Already published with this Idempotency-Key: nothing new was created');
    expect(await server.store.posts.counts()).toEqual({ published: 1, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
    const page = await fetch(`${server.url}/blog/how-policy-loans-work-in-an-iul`);
    expect(page.status).toBe(200);
  });

  it('refuses to send without a key, or with a mistyped one', async () => {
    const none = await blogpost(['publish', POST_FILE], env());
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No API key: pass --key or set BLOGPOST_API_KEY');
    const mistyped = `${writer.slice(0, -1)}${writer.endsWith('A') ? 'B' : 'A'}`;
    const bad = await blogpost(['publish', POST_FILE, '--key', mistyped], env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('fails its checksum');
    expect(bad.stderr).toContain('Nothing was sent.');
  });

  it('explains a refusal from the server with the catalogue guidance', async () => {
    const run = await blogpost(['publish', POST_FILE, '--key', reader, '--idempotency-key', 'reader-try'], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Not published: 403 insufficient_permissions');
    expect(run.stderr).toContain('The key needs blog:write');
  });

  it('says the server is unreachable with exit code 3', async () => {
    const run = await blogpost(['publish', POST_FILE, '--key', writer, '--url', 'http://127.0.0.1:9', '--retries', '1'], env());
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('Could not reach http://127.0.0.1:9');
  });
});

describe('blogpost diagnose', () => {
  it('passes every probe on a healthy server without creating anything', async () => {
    const before = await server.store.posts.counts();
    const run = await blogpost(['diagnose', '--key', writer], env());
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('API key: prefix, shape and checksum are correct');
    for (const probe of ['python', 'dataParam', 'cors', 'postman', 'postmanFix']) expect(run.stderr).toContain(`${probe}: pass`);
    expect(run.stderr).toContain('All 5 probes passed.');
    expect(await server.store.posts.counts()).toEqual(before);
  });

  it('names the cause for a wrong key and for a key without blog:write', async () => {
    const unknown = formatApiKey('ZZZZZZZZZZ', 'q'.repeat(32));
    const wrong = await blogpost(['diagnose', '--key', unknown, '--json'], env());
    expect(wrong.code).toBe(1);
    // The key is named once; the probes then run without it instead of failing on it again.
    const report = JSON.parse(wrong.stdout) as { success: boolean; key: { state: string }; probes: { probe: string; success: boolean }[] };
    expect(report).toMatchObject({ success: false, key: { state: 'unknown' } });
    expect(report.probes.every((p) => p.success)).toBe(true);
    const readOnly = await blogpost(['diagnose', '--key', reader], env());
    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toContain('API key: the key lacks blog:write (it holds blog:read)');
    expect(readOnly.stderr).toContain("→ Ask the site's administrator for a new key with blog:write.");
    expect(readOnly.stderr).not.toContain('FAIL');
    const mistyped = await blogpost(['diagnose', '--key', 'bpk_short'], env());
    expect(mistyped.code).toBe(1);
    expect(mistyped.stderr).toContain('API key: The API key is not in the expected shape');
  });

  it('names a failed preflight on a server that does not allow the origin', async () => {
    const strict = await startTestServer({ api: { corsOrigins: ['https://only.example.com'] } });
    try {
      const run = await blogpost(['diagnose', '--url', strict.url], env());
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/cors: FAIL - CORS preflight failed: the preflight answered 403/);
      expect(run.stderr).toContain('Allow the calling origin on the server');
    } finally {
      await strict.close();
    }
  });

  it('explains a captured curl command with a form body, and one with a body serialised twice', async () => {
    const form = path.join(tmp, 'form.sh');
    writeFileSync(form, `curl -X POST ${server.url}/api/blog \\\n  -H 'Authorization: Bearer ${writer}' \\\n  -A 'python-requests/2.31.0' \\\n  -d 'title=Hello&content=x'\n`);
    const run = await blogpost(['diagnose', '--request', form], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The body is sent as a form body (in Python: data=post');
    expect(run.stderr).toContain('json=post');

    const twice = path.join(tmp, 'twice.sh');
    writeFileSync(twice, `curl ${server.url}/api/blog -H 'Authorization: Bearer ${writer}' -H 'Content-Type: application/json' --data-raw '${JSON.stringify(JSON.stringify(SAMPLE_POST)).replace(/'/g, "'\\''")}'`);
    const replay = await blogpost(['diagnose', '--request', twice, '--send', '--yes'], env());
    expect(replay.code).toBe(1);
    expect(replay.stderr).toContain('The body is a JSON string holding the post: the payload was serialised twice.');
    expect(replay.stderr).toContain('The server answered 400 body_is_json_string');
  });

  it('reads a HAR file with its recorded answer', async () => {
    const har = path.join(tmp, 'session.har');
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          entries: [
            {
              request: { method: 'POST', url: `${server.url}/api/blog`, headers: [{ name: 'Content-Type', value: 'text/plain' }, { name: 'User-Agent', value: 'PostmanRuntime/7.39.0' }], postData: { mimeType: 'text/plain', text: JSON.stringify(SAMPLE_POST) } },
              response: { status: 415, headers: [], content: { text: '<html>Unsupported</html>' } },
            },
          ],
        },
      }),
    );
    const run = await blogpost(['diagnose', '--request', har], env());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Captured HAR entry: POST');
    expect(run.stderr).toContain('There is no Authorization header.');
    expect(run.stderr).toContain('text/plain (in Postman: Body type left on Text)');
    expect(run.stderr).toContain('The server answered 415 Unsupported content type');
  });
});

describe('blogpost test, help and seed', () => {
  it('runs one harness test, and rejects an unknown type with exit code 2', async () => {
    const run = await blogpost(['test', 'python', '--json'], env());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ success: true, statusCode: 200 });
    const reset = await blogpost(['test', 'reset'], env());
    expect(reset.code).toBe(0);
    expect(reset.stderr).toMatch(/Test state cleared \(9 stored values removed\)/);
    const unknown = await blogpost(['test', 'ruby'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown test type: ruby');
  });

  it('documents its exit codes and leads every command help with examples', async () => {
    const codes = await blogpost(['help', 'exit-codes']);
    expect(codes.code).toBe(0);
    expect(codes.stdout.split('\n').filter((l) => /^\s+\d\s/.test(l))).toHaveLength(5);
    for (const command of ['publish', 'validate', 'diagnose', 'test', 'seed']) {
      const help = await blogpost([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout.startsWith('Examples:'), command).toBe(true);
    }
    const wrong = await blogpost(['publsh']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('(Did you mean publish?)');
  });

  it('loads the demo articles into an empty data directory once, never on top of posts', async () => {
    const dataDir = makeTempDir('iul-seed-');
    try {
      const first = await blogpost(['seed', '--data-dir', dataDir]);
      expect(first.code).toBe(0);
      expect(first.stderr).toContain('Loaded 41 demo articles');
      const again = await blogpost(['seed', '--data-dir', dataDir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already holds 41 posts');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
