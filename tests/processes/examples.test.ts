/**
 * Every example of docs/examples/ run for real against a listening server: the Python script with
 * Debian's python3 + requests, the curl command, the Node script and the Postman collection with
 * newman. Each create must get a 201 and create the post; each update example must change the post
 * through GET -> ETag -> PATCH with If-Match, and stop with exit 1 naming the fields changed meanwhile
 * when its ETag is stale; the trash example must delete and restore; each image example must upload
 * the picture (multipart form data) and create a draft that shows it and has it as its cover_image.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse } from '../../contract/blog';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { SAMPLE_POST } from '../../harness/sample-post';
import { ROOT, startTestServer, type TestServer } from '../support/server';
import { call } from '../api/support';

const EXAMPLES = path.join(ROOT, 'docs/examples');
/** The picture the image examples upload (docs/examples/cash-value-chart.png). */
const SAMPLE_IMAGE = 'cash-value-chart.png';

/** Its media id: the first 32 hex digits of the SHA-256 of its bytes. */
function sampleImageId(): string {
  return createHash('sha256').update(readFileSync(path.join(EXAMPLES, SAMPLE_IMAGE))).digest('hex').slice(0, 32);
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** What every update example (and the collection's PATCH) sends. */
const CHANGES = {
  excerpt: 'A short introduction to indexed universal life insurance: how its cash value grows, and what protects it from market losses.',
  tags: ['IUL', 'retirement', 'cash value'],
};

interface PostmanItem {
  name: string;
  request: { method: string; header: { key: string; value: string }[]; body?: { mode: string; raw?: string; formdata?: { key: string; type: string; src: string }[] }; url: { raw: string } };
}

function readCollection(): { item: PostmanItem[]; variable: { key: string }[] } {
  return JSON.parse(readFileSync(path.join(EXAMPLES, 'blog-api.postman_collection.json'), 'utf8')) as { item: PostmanItem[]; variable: { key: string }[] };
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
    const posts = readCollection().item.filter((item) => item.request.method === 'POST' && item.request.body?.mode === 'raw' && !item.request.body.raw?.includes('cover_image'));
    expect(posts.map((item) => item.name)).toEqual(['Create blog post', 'Validate a post (saves nothing)']);
    for (const item of posts) expect(JSON.parse(item.request.body?.raw ?? '')).toEqual(SAMPLE_POST);
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

  it('the Postman collection passes its tests under newman with baseUrl and apiKey set: create, read, PATCH, list, delete, restore, upload, create with a cover', async () => {
    const before = await draftsCreated();
    const result = await run(
      path.join(ROOT, 'node_modules/.bin/newman'),
      ['run', 'blog-api.postman_collection.json', '--env-var', `baseUrl=${server.url}`, '--env-var', `apiKey=${env.BLOGPOST_API_KEY}`, '--reporters', 'cli', '--color', 'off'],
      {},
    );
    for (const test of ['post created', 'payload valid', 'post read, ETag saved', 'post updated', 'my posts listed', 'post deleted', 'post restored', 'image uploaded, id saved', 'post with a cover image created']) {
      expect(result.stdout, test).toContain(`✓  ${test}`);
    }
    expect(result.code).toBe(0);
    expect(await draftsCreated()).toBe(before + 2);
    // The post the collection created was changed by its PATCH, deleted and restored (three revisions);
    // then it uploaded the image and made a post with it as the cover.
    const [withCover, first] = (await server.store.posts.list({ status: 'any', limit: 2 })).entries;
    const post = await server.store.posts.getById(first?.id ?? '');
    expect(post).toMatchObject({ title: SAMPLE_POST.title, excerpt: CHANGES.excerpt, tags: CHANGES.tags, revision: 4, deletedAt: null });
    const covered = await server.store.posts.getById(withCover?.id ?? '');
    expect(covered?.coverImage).toMatchObject({ mediaId: sampleImageId(), alt: expect.stringMatching(/\w/) });
  });

  it("the collection's PATCH sends the update examples' change with If-Match {{etag}}", () => {
    const collection = readCollection();
    expect(collection.variable.map((v) => v.key)).toEqual(['baseUrl', 'apiKey', 'postId', 'etag', 'mediaId', 'mediaUrl']);
    const upload = collection.item.find((item) => item.name === 'Upload an image');
    expect(upload?.request.body).toMatchObject({ mode: 'formdata', formdata: [{ key: 'file', type: 'file', src: SAMPLE_IMAGE }] });
    const covered = collection.item.find((item) => item.name === 'Create a post with a cover image');
    expect(JSON.parse(covered?.request.body?.raw ?? '')).toMatchObject({ cover_image: '{{mediaId}}', content: expect.stringContaining('<img src="{{mediaUrl}}"') });
    const update = collection.item.find((item) => item.name === 'Update blog post (PATCH)');
    expect(update?.request.header).toContainEqual({ key: 'If-Match', value: '{{etag}}' });
    expect(JSON.parse(update?.request.body?.raw ?? '')).toEqual(CHANGES);
    for (const file of ['update_post.py', 'update-post.sh', 'update-post.mjs']) {
      const text = readFileSync(path.join(EXAMPLES, file), 'utf8');
      expect(text, file).toContain(CHANGES.excerpt);
      expect(text, file).toContain('If-Match');
      expect(text, file).toContain('BLOGPOST_URL');
      expect(text, file).toContain('BLOGPOST_API_KEY');
    }
  });
});

/** A new post made from the sample post (its own title, so its slug is its own), and its ETag. */
async function createPost(title: string, status: 'Draft' | 'Published' = 'Draft'): Promise<{ id: string; etag: string }> {
  const res = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key: env.BLOGPOST_API_KEY, body: { ...SAMPLE_POST, title, status } });
  expect(res.status).toBe(201);
  return { id: res.json.post.id, etag: res.json.post.etag };
}

const UPDATE_EXAMPLES = [
  { name: 'Python', command: '/usr/bin/python3', file: 'update_post.py' },
  { name: 'curl', command: 'sh', file: 'update-post.sh' },
  { name: 'Node', command: process.execPath, file: 'update-post.mjs' },
] as const;

describe.each(UPDATE_EXAMPLES)('the $name update example ($file)', ({ name, command, file }) => {
  it('reads the ETag, PATCHes the excerpt and tags with If-Match, and leaves the other fields as they were', async () => {
    const { id } = await createPost(`Updated by the ${name} example`);
    const result = await run(command, [file, id], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const post = await server.store.posts.getById(id);
    expect(post).toMatchObject({ title: `Updated by the ${name} example`, excerpt: CHANGES.excerpt, tags: CHANGES.tags, revision: 2 });
    expect(post?.content).toBe(SAMPLE_POST.content);
    expect(result.stdout).toContain(`-r2`);
    expect(result.stdout).toContain('excerpt');
  });

  it('with a stale ETag whose fields nobody else changed, is applied on top of the colleague\'s change', async () => {
    const { id, etag } = await createPost(`Merged in the ${name} example`);
    const other = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, {
      key: env.BLOGPOST_API_KEY,
      body: { title: `Merged in the ${name} example, retitled`, content: '<p>Rewritten by a colleague.</p>' },
      headers: { 'if-match': etag },
    });
    expect(other.status).toBe(200);
    const result = await run(command, [file, id, etag], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('-r3');
    const post = await server.store.posts.getById(id);
    expect(post).toMatchObject({ title: `Merged in the ${name} example, retitled`, excerpt: CHANGES.excerpt, tags: CHANGES.tags, revision: 3 });
    expect(post?.content).toBe('<p>Rewritten by a colleague.</p>');
  });

  it('with a stale ETag and its fields changed meanwhile, changes nothing, names the fields changed and exits 1', async () => {
    const { id, etag } = await createPost(`Raced in the ${name} example`);
    const other = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, {
      key: env.BLOGPOST_API_KEY,
      body: { title: `Raced in the ${name} example, retitled`, excerpt: 'A colleague wrote this summary first.' },
      headers: { 'if-match': etag },
    });
    expect(other.status).toBe(200);
    const result = await run(command, [file, id, etag], env);
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    expect(output).toContain('Not applied');
    expect(output).toMatch(/^ {2}(- )?title\b/m);
    expect(output).toMatch(/^ {2}(- )?excerpt\b/m);
    expect(output).toContain(other.json.etag.replaceAll('"', ''));
    const post = await server.store.posts.getById(id);
    expect(post).toMatchObject({ excerpt: 'A colleague wrote this summary first.', tags: SAMPLE_POST.tags, revision: 2 });
  });

  it('without a post id says how to call it and exits 2', async () => {
    const result = await run(command, [file], { ...env, BLOGPOST_POST_ID: '' });
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toContain(`Usage: ${command === 'sh' ? 'sh' : command === process.execPath ? 'node' : 'python3'} ${file} <post id> [etag]`);
  });
});

describe('the trash example (delete-post.sh)', () => {
  it('moves the post to the trash (readers get 410), restores it, and fails on a restore of a live post', async () => {
    const { id } = await createPost('Deleted by the curl example', 'Published');
    const deleted = await run('sh', ['delete-post.sh', id], env);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ success: true, post: { id, deleted_at: expect.any(String) } });
    expect((await server.store.posts.getById(id))?.deletedAt).toEqual(expect.any(String));
    expect((await call(server, 'GET', `/api/blog/${id}`)).status).toBe(410);

    const restored = await run('sh', ['delete-post.sh', '--restore', id], env);
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ success: true, message: 'Restored from the trash, as a published post.' });
    expect((await server.store.posts.getById(id))?.deletedAt).toBeNull();
    expect((await call(server, 'GET', `/api/blog/${id}`)).status).toBe(200);

    const again = await run('sh', ['delete-post.sh', '--restore', id], env);
    expect(again.code).not.toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ code: 'not_in_trash' });
  });
});

const IMAGE_EXAMPLES = [
  { name: 'curl', command: 'sh', file: 'upload-image.sh' },
  { name: 'Python', command: '/usr/bin/python3', file: 'upload_image.py' },
  { name: 'Node', command: process.execPath, file: 'upload-image.mjs' },
] as const;

describe.each(IMAGE_EXAMPLES)('the $name image example ($file)', ({ command, file }) => {
  it('uploads the picture as form data and creates a draft showing it, with it as the cover image', async () => {
    const before = await draftsCreated();
    const result = await run(command, [file, SAMPLE_IMAGE], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const id = sampleImageId();
    const uploaded = new RegExp(`^Uploaded: ${id} (/media/${id}-\\d+\\.png)`, 'm').exec(result.stdout);
    expect(uploaded, result.stdout).not.toBeNull();
    expect(await draftsCreated()).toBe(before + 1);
    const [newest] = (await server.store.posts.list({ status: 'any', limit: 1 })).entries;
    const post = await server.store.posts.getById(newest?.id ?? '');
    expect(post?.coverImage).toMatchObject({ mediaId: id, alt: 'Cash value rising over twenty years' });
    expect(post?.content).toContain(`src="${uploaded?.[1] ?? ''}"`);
    const image = await fetch(`${server.url}${uploaded?.[1] ?? ''}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
  });

  it('without a file says how to call it and exits 2', async () => {
    const result = await run(command, [file], env);
    expect(result.code).toBe(2);
    expect(result.stdout + result.stderr).toContain(`Usage: ${command === 'sh' ? 'sh' : command === process.execPath ? 'node' : 'python3'} ${file} <image file>`);
  });
});
