/**
 * Every example of docs/examples/ run for real against a listening server: the Python script with
 * Debian's python3 + requests, the curl command, the Node script and the Postman collection with
 * newman. Each must get a 201 and create the post.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_POST } from '../../harness/sample-post';
import { ROOT, startTestServer, type TestServer } from '../support/server';

const EXAMPLES = path.join(ROOT, 'docs/examples');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: EXAMPLES, env: { ...process.env, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

let server: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  env = { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: await server.createKey('examples') };
});
afterAll(async () => {
  await server.close();
});

async function draftsCreated(): Promise<number> {
  return (await server.store.posts.counts()).drafts;
}

describe('docs/examples', () => {
  it('all send the same post: the harness sample', () => {
    const python = readFileSync(path.join(EXAMPLES, 'create_post.py'), 'utf8');
    const collection = JSON.parse(readFileSync(path.join(EXAMPLES, 'blog-api.postman_collection.json'), 'utf8')) as {
      item: { request: { body: { raw: string } } }[];
    };
    for (const item of collection.item) expect(JSON.parse(item.request.body.raw)).toEqual(SAMPLE_POST);
    for (const file of ['create_post.py', 'create-post.sh', 'create-post.mjs']) {
      const text = readFileSync(path.join(EXAMPLES, file), 'utf8');
      expect(text, file).toContain(SAMPLE_POST.content);
      expect(text, file).toContain('BLOGPOST_URL');
      expect(text, file).toContain('BLOGPOST_API_KEY');
    }
    expect(python).toContain('json=post');
  });

  it('the Python example creates the post with the real requests library', async () => {
    const before = await draftsCreated();
    const result = await run('/usr/bin/python3', ['create_post.py'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Draft blog post created successfully: understanding-indexed-universal-life-insurance(-\d+)? \(draft\)/);
    expect(await draftsCreated()).toBe(before + 1);
  });

  it('the Python example explains a wrong key and exits 1', async () => {
    const result = await run('/usr/bin/python3', ['create_post.py'], { ...env, BLOGPOST_API_KEY: 'wrong' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Error 401');
    expect(result.stdout).toContain('Authorization');
  });

  it('the curl example creates the post', async () => {
    const before = await draftsCreated();
    const result = await run('sh', ['create-post.sh'], env);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true, post: { status: 'draft' } });
    expect(await draftsCreated()).toBe(before + 1);
  });

  it('the Node example creates the post', async () => {
    const before = await draftsCreated();
    const result = await run(process.execPath, ['create-post.mjs'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Draft blog post created successfully');
    expect(await draftsCreated()).toBe(before + 1);
  });

  it('the Postman collection passes its tests under newman with baseUrl and apiKey set', async () => {
    const before = await draftsCreated();
    const result = await run(
      path.join(ROOT, 'node_modules/.bin/newman'),
      ['run', 'blog-api.postman_collection.json', '--env-var', `baseUrl=${server.url}`, '--env-var', `apiKey=${env.BLOGPOST_API_KEY}`, '--reporters', 'cli', '--color', 'off'],
      {},
    );
    expect(result.stdout).toContain('post created');
    expect(result.stdout).toContain('payload valid');
    expect(result.code).toBe(0);
    expect(await draftsCreated()).toBe(before + 1);
  });
});
