/**
 * Ghost's Admin API subset (decision 0033) over real HTTP: tokens made as Ghost's clients make them (an
 * HS256 JWT, header kid = the key id, iat/exp/aud, signed with the hex secret's bytes: here with
 * node:crypto, as jsonwebtoken's sign({}, secret, {keyid, algorithm: 'HS256', expiresIn: '5m', audience})
 * makes it), each refused kind of token, create from html, read, update with the right and a stale
 * updated_at, image uploads, the request shapes of the writing apps, and the compliance gate.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { type CallResult, resultOf } from './support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiPermission } from '../../contract/keys';
import { ghostSecret } from '../../api/ghost/admin-key';
import { startTestServer, type TestServer } from '../support/server';
import { ghostToken as token } from '../support/ghost-token';

let server: TestServer;
let adminKey: string;
let readKey: string;

/** Makes a Ghost admin key (id:secret) in a server's store, as `blogpost keys create --ghost` does. */
async function ghostKey(on: TestServer, name: string, permissions: ApiPermission[] = ['blog:write'], owner = 'alice'): Promise<string> {
  const made = await on.services.keys.createGhost({ name, permissions, owner }, async (id) => ghostSecret(await on.store.audit.pseudonymKey(), id));
  return made.secret;
}

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  adminKey = await ghostKey(server, 'iA Writer');
  readKey = await ghostKey(server, 'reader', ['blog:read']);
});
afterAll(() => server.close());


type Answer = CallResult;
const answerOf = (response: Response): Promise<Answer> => resultOf(response);

async function ghost(method: string, path: string, options: { auth?: string | null; body?: unknown; headers?: Record<string, string>; on?: TestServer } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'Accept-Version': 'v5.0', ...options.headers };
  const auth = options.auth === undefined ? `Ghost ${token(adminKey)}` : options.auth;
  if (auth !== null) headers.Authorization = auth;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  return answerOf(await fetch(`${(options.on ?? server).url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
}

interface GhostErrorBody {
  errors: { message: string; context: string | null; type: string; code: string | null; details: Record<string, unknown> | null }[];
}

function firstError(answer: Answer): GhostErrorBody['errors'][number] {
  const error = (answer.json as unknown as GhostErrorBody).errors[0];
  if (!error) throw new Error(`no error in ${answer.text}`);
  return error;
}

type GhostPost = Record<string, unknown> & { id: string; slug: string; updated_at: string; title: string; status: string; url: string; html: string };

function postOf(answer: Answer): GhostPost {
  const post = (answer.json as { posts?: GhostPost[] }).posts?.[0];
  if (!post) throw new Error(`no post in ${answer.status} ${answer.text}`);
  return post;
}

async function image(format: 'jpeg' | 'png', hue = 0): Promise<Blob> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40 + hue, g: 120, b: 200 - hue } } })
    .toFormat(format)
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: `image/${format}` });
}

const HTML = '<p>Funding a policy to the limit keeps the cash value growing on the way in.</p><p>Here is how it works.</p>';

describe('GET /site/', () => {
  it('answers the title, url and version without a key, as Ghost does', async () => {
    const answer = await ghost('GET', '/ghost/api/admin/site/', { auth: null });
    expect(answer.status).toBe(200);
    const site = (answer.json as { site: { title: string; url: string; version: string } }).site;
    expect(site.title).not.toBe('');
    expect(site.url).toMatch(/^https?:\/\/.+\/$/);
    expect(site.version).toMatch(/^\d+\.\d+$/);
  });
});

describe('tokens', () => {
  const create = (auth: string | null) => ghost('POST', '/ghost/api/admin/posts/?source=html', { auth, body: { posts: [{ title: 'Refused', html: HTML }] } });

  it('no Authorization header: 401 UnauthorizedError saying the header format', async () => {
    const answer = await create(null);
    expect(answer.status).toBe(401);
    expect(firstError(answer)).toMatchObject({ type: 'UnauthorizedError', message: 'Authorization header format is "Authorization: Ghost [token]"' });
  });

  it('an expired token is refused: 401 "jwt expired"', async () => {
    const iat = Math.floor(Date.now() / 1000) - 600;
    const answer = await create(`Ghost ${token(adminKey, { iat, exp: iat + 300 })}`);
    expect(answer.status).toBe(401);
    expect(firstError(answer)).toMatchObject({ type: 'UnauthorizedError', message: 'Invalid token: jwt expired' });
  });

  it('a token living longer than 5 minutes is refused', async () => {
    const iat = Math.floor(Date.now() / 1000);
    const answer = await create(`Ghost ${token(adminKey, { iat, exp: iat + 3600 })}`);
    expect(answer.status).toBe(401);
    expect(firstError(answer).message).toMatch(/maxAge/);
  });

  it('a wrong audience is refused; /admin/ and the older /v3/admin/, /v4/admin/ pass', async () => {
    const wrong = await create(`Ghost ${token(adminKey, { aud: '/content/' })}`);
    expect(wrong.status).toBe(401);
    expect(firstError(wrong).message).toBe('Invalid token: jwt audience invalid');
    for (const aud of ['/admin/', '/v3/admin/', '/v4/admin/']) {
      expect((await ghost('GET', '/ghost/api/admin/posts/?filter=slug:nothing-here', { auth: `Ghost ${token(adminKey, { aud })}` })).status, aud).toBe(200);
    }
  });

  it('an unknown kid is refused: 401 "Unknown Admin API Key"', async () => {
    const answer = await create(`Ghost ${token(adminKey, { kid: 'ffffffffffffffffffffffff' })}`);
    expect(answer.status).toBe(401);
    expect(firstError(answer)).toMatchObject({ type: 'UnauthorizedError', message: 'Unknown Admin API Key' });
  });

  it('a bad signature (another secret) is refused: 401 "invalid signature"', async () => {
    const [id] = adminKey.split(':');
    const answer = await create(`Ghost ${token(`${id}:${'ab'.repeat(32)}`)}`);
    expect(answer.status).toBe(401);
    expect(firstError(answer).message).toBe('Invalid token: invalid signature');
  });

  it('a token that is no JWT: 400 BadRequestError', async () => {
    const answer = await create('Ghost not-a-token');
    expect(answer.status).toBe(400);
    expect(firstError(answer).type).toBe('BadRequestError');
  });

  it('a site API key (Bearer) is not a Ghost key', async () => {
    const siteKey = await server.createKey('site key', ['blog:write'], 'alice');
    expect((await create(`Bearer ${siteKey}`)).status).toBe(401);
  });

  it('a revoked key is refused: 401', async () => {
    const key = await ghostKey(server, 'revoked app');
    const id = key.split(':')[0] ?? '';
    expect((await ghost('GET', '/ghost/api/admin/posts/?filter=slug:x', { auth: `Ghost ${token(key)}` })).status).toBe(200);
    await server.services.keys.revoke(id, { by: 'cli:test', reason: 'lost laptop' });
    const answer = await create(`Ghost ${token(key)}`);
    expect(answer.status).toBe(401);
    expect(firstError(answer).message).toBe('Admin API Key revoked');
  });

  it('a reading key may read but not write: 403 NoPermissionError', async () => {
    const answer = await create(`Ghost ${token(readKey)}`);
    expect(answer.status).toBe(403);
    expect(firstError(answer).type).toBe('NoPermissionError');
  });
});

describe('posts', () => {
  it('creates from html: 201, the post on its page, tags mapped to the category and tags', async () => {
    const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', {
      body: { posts: [{ title: 'Funding to the limit', html: HTML, custom_excerpt: 'Why the limit matters.', tags: [{ name: 'Retirement planning' }, { name: 'cash value' }], status: 'published', slug: 'funding-to-the-limit' }] },
    });
    expect(answer.status, answer.text).toBe(201);
    const post = postOf(answer);
    expect(post).toMatchObject({ title: 'Funding to the limit', slug: 'funding-to-the-limit', status: 'published', custom_excerpt: 'Why the limit matters.' });
    expect(post.url).toBe(`${server.url}/blog/funding-to-the-limit`);
    const page = await fetch(post.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Funding to the limit');
    expect(html).toContain('Here is how it works.');
    const stored = await server.store.posts.getById(post.id);
    expect(stored?.categorySlug).toBe('retirement-planning');
    expect(stored?.tags).toEqual(['cash value']);
    expect(stored?.author.name).toBe('alice');
  });

  it('a draft stays off the public pages', async () => {
    const post = postOf(await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'A draft from Ghost', html: HTML, slug: 'a-ghost-draft' }] } }));
    expect(post.status).toBe('draft');
    expect((await fetch(`${server.url}/blog/a-ghost-draft`)).status).toBe(404);
  });

  it('mobiledoc or lexical without html: 422 ValidationError saying to send html with ?source=html', async () => {
    for (const format of ['lexical', 'mobiledoc']) {
      const answer = await ghost('POST', '/ghost/api/admin/posts/', { body: { posts: [{ title: 'Lexical post', [format]: '{"root":{}}' }] } });
      expect(answer.status, format).toBe(422);
      const error = firstError(answer);
      expect(error.type).toBe('ValidationError');
      expect(error.message).toContain(`${format} is not supported`);
      expect(error.context).toContain('?source=html');
    }
  });

  it('a body without posts: 422', async () => {
    const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { title: 'no root' } });
    expect(answer.status).toBe(422);
    expect(firstError(answer).type).toBe('ValidationError');
  });

  it('reads a post back by id, and by slug', async () => {
    const created = postOf(await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'Read me back', html: HTML, status: 'published' }] } }));
    const read = await ghost('GET', `/ghost/api/admin/posts/${created.id}/`, { auth: `Ghost ${token(readKey)}` });
    expect(read.status).toBe(200);
    expect(postOf(read)).toMatchObject({ id: created.id, title: 'Read me back', updated_at: created.updated_at });
    expect(postOf(read).html).toContain('Here is how it works.');
    const bySlug = await ghost('GET', `/ghost/api/admin/posts/?filter=slug:${created.slug}`);
    expect(postOf(bySlug).id).toBe(created.id);
    expect((await ghost('GET', '/ghost/api/admin/posts/0000-missing/')).status).toBe(404);
  });

  it('updates with the right updated_at; a stale one is refused 409 UpdateCollisionError and changes nothing', async () => {
    const created = postOf(await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'Before the edit', html: HTML, custom_excerpt: 'Kept excerpt.', status: 'published', slug: 'edited-from-ghost' }] } }));
    const updated = await ghost('PUT', `/ghost/api/admin/posts/${created.id}/?source=html`, { body: { posts: [{ title: 'After the edit', updated_at: created.updated_at }] } });
    expect(updated.status, updated.text).toBe(200);
    const after = postOf(updated);
    expect(after.title).toBe('After the edit');
    expect(after.html).toContain('Here is how it works.');
    expect(after).toMatchObject({ custom_excerpt: 'Kept excerpt.', status: 'published' });
    expect(after.updated_at).not.toBe(created.updated_at);
    expect(await (await fetch(`${server.url}/blog/edited-from-ghost`)).text()).toContain('After the edit');

    const stale = await ghost('PUT', `/ghost/api/admin/posts/${created.id}/?source=html`, { body: { posts: [{ title: 'A lost edit', updated_at: created.updated_at }] } });
    expect(stale.status).toBe(409);
    expect(firstError(stale)).toMatchObject({ type: 'UpdateCollisionError', message: 'Saving failed! Someone else is editing this post.' });
    expect((await server.store.posts.getById(created.id))?.title).toBe('After the edit');

    const htmlOnly = await ghost('PUT', `/ghost/api/admin/posts/${created.id}/?source=html`, { body: { posts: [{ html: '<p>Only the text changes here.</p>', updated_at: after.updated_at }] } });
    expect(htmlOnly.status, htmlOnly.text).toBe(200);
    expect(postOf(htmlOnly)).toMatchObject({ title: 'After the edit', custom_excerpt: 'Kept excerpt.', status: 'published' });
    expect(postOf(htmlOnly).html).toContain('Only the text changes here.');

    const missing = await ghost('PUT', `/ghost/api/admin/posts/${created.id}/`, { body: { posts: [{ title: 'No updated_at' }] } });
    expect(missing.status).toBe(422);
  });
});

describe('owners', () => {
  it("a key of another owner may not change alice's post: 403 NoPermissionError, nothing changed", async () => {
    const created = postOf(await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'Alice only', html: HTML }] } }));
    const bob = await ghostKey(server, 'bob app', ['blog:write'], 'bob');
    const answer = await ghost('PUT', `/ghost/api/admin/posts/${created.id}/`, { auth: `Ghost ${token(bob)}`, body: { posts: [{ title: 'Bob was here', updated_at: created.updated_at }] } });
    expect(answer.status).toBe(403);
    expect(firstError(answer).type).toBe('NoPermissionError');
    expect((await server.store.posts.getById(created.id))?.title).toBe('Alice only');
  });
});

describe('POST /images/upload/', () => {
  for (const format of ['png', 'jpeg'] as const) {
    it(`takes a ${format} as multipart file: {images: [{url, ref}]}, the url serves the image`, async () => {
      const data = new FormData();
      data.append('file', await image(format, format === 'png' ? 10 : 30), `photo.${format === 'jpeg' ? 'jpg' : 'png'}`);
      data.append('purpose', 'image');
      data.append('ref', `photo.${format}`);
      const answer = await ghost('POST', '/ghost/api/admin/images/upload/', { body: data });
      expect(answer.status, answer.text).toBe(201);
      const uploaded = (answer.json as { images: { url: string; ref: string | null }[] }).images[0];
      expect(uploaded?.ref).toBe(`photo.${format}`);
      const file = await fetch(uploaded?.url ?? '');
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^image\//);
    });
  }

  it('an uploaded image becomes the feature_image; another site\'s image is refused 422', async () => {
    const data = new FormData();
    data.append('file', await image('png', 50), 'cover.png');
    const url = (((await ghost('POST', '/ghost/api/admin/images/upload/', { body: data })).json as { images: { url: string }[] }).images[0]?.url) ?? '';
    const post = postOf(await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'With a cover', html: HTML, feature_image: url, feature_image_alt: 'A blue square' }] } }));
    expect(post.feature_image).toMatch(/^http/);
    expect(post.feature_image_alt).toBe('A blue square');
    const foreign = await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'Foreign cover', html: HTML, feature_image: 'https://example.com/a.png' }] } });
    expect(foreign.status).toBe(422);
    expect(firstError(foreign).context).toContain('/images/upload/');
  });

  it('a file that is no image is refused, nothing stored', async () => {
    const data = new FormData();
    data.append('file', new Blob(['not an image'], { type: 'image/png' }), 'fake.png');
    const answer = await ghost('POST', '/ghost/api/admin/images/upload/', { body: data });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(firstError(answer).message).not.toBe('');
  });
});

describe('the request shapes writing apps send', () => {
  /**
   * The Obsidian "Ghost Publish" plugin (github.com/Hailst0rm1/obsidian-ghost-publish, src/methods/publishPost.ts):
   * a token signed with jsonwebtoken for audience /v4/admin/, a look-up by slug, then a create, or an update
   * carrying the found post's updated_at; every request to /ghost/api/v4/admin/... with ?source=html, the
   * note's front matter spread into the post (unknown fields such as type, featured, meta_title,
   * imageUpload and "date modified" included) and tags as plain strings.
   */
  it('the Obsidian Ghost Publish plugin: look up, create, look up again, update', async () => {
    const auth = `Ghost ${token(adminKey, { aud: '/v4/admin/' })}`;
    const headers = { 'Content-Type': 'application/json;charset=utf-8', 'Access-Control-Allow-Methods': 'POST' };
    const frontmatter = { type: 'post', title: 'Notes on cash value', tags: ['Life insurance', 'notes'], featured: false, slug: 'notes-on-cash-value', status: 'published', meta_title: 'Notes on cash value', imageUpload: false, 'date modified': 'Sunday' };
    const none = await ghost('GET', '/ghost/api/v4/admin/posts/?source=html&filter=slug:notes-on-cash-value', { auth, headers: { 'Content-Type': 'application/json;charset=utf-8' } });
    expect((none.json as { posts: unknown[] }).posts).toEqual([]);
    const created = await ghost('POST', '/ghost/api/v4/admin/posts/?source=html', { auth, headers, body: { posts: [{ ...frontmatter, html: HTML }] } });
    expect(created.status, created.text).toBe(201);
    const found = postOf(await ghost('GET', '/ghost/api/v4/admin/posts/?source=html&filter=slug:notes-on-cash-value', { auth }));
    expect(found.status).toBe('published');
    const updated = await ghost('PUT', `/ghost/api/v4/admin/posts/${found.id}/?source=html`, { auth, headers, body: { posts: [{ ...frontmatter, updated_at: found.updated_at, html: `${HTML}<p>An added line.</p>` }] } });
    expect(updated.status, updated.text).toBe(200);
    expect(await (await fetch(`${server.url}/blog/notes-on-cash-value`)).text()).toContain('An added line.');
  });

  /**
   * Ghost's own Admin API client (@tryghost/admin-api, as docs.ghost.org/admin-api shows it), which apps
   * built on it use: the token for audience /admin/, Accept-Version v5.0, POST /ghost/api/admin/posts/?source=html
   * with {posts: [{title, html, status}]}.
   */
  it("Ghost's Admin API client (docs.ghost.org/admin-api): create with source=html", async () => {
    const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [{ title: 'From the Admin API client', html: HTML, status: 'published' }] } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-version')).toMatch(/^v\d/);
  });

  /*
   * iA Writer (ia.net/writer/support/publishing/ghost) and Ulysses (help.ulysses.app, "Publish to Ghost")
   * document only their settings: the site's URL and an Admin API key (Ulysses also accepts a staff
   * user's email and password, which this site does not offer). Their documentation does not show the
   * requests they send, so no replay of them is written here rather than an invented one; they use the
   * Admin API's documented endpoints, which the tests above cover.
   */
});

describe('the compliance gate through the Ghost Admin API', () => {
  const RISKY = '<p>This policy is risk-free and pays guaranteed returns every year.</p>';

  it('review mode: a risky post is stored, held, on no public page; the app is told why (422 ValidationError)', async () => {
    const held = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' } });
    try {
      const key = await ghostKey(held, 'app');
      const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', { on: held, auth: `Ghost ${token(key)}`, body: { posts: [{ title: 'Risky', html: RISKY, status: 'published', slug: 'risky-held' }] } });
      expect(answer.status).toBe(422);
      const error = firstError(answer);
      expect(error).toMatchObject({ type: 'ValidationError', code: 'HELD_FOR_REVIEW' });
      expect(error.message).toMatch(/Held for compliance review \(.*guaranteed-returns/);
      const id = String(error.details?.post_id);
      expect((await held.store.posts.getById(id))?.status).toBe('in_review');
      expect((await fetch(`${held.url}/blog/risky-held`)).status).toBe(404);
    } finally {
      await held.close();
    }
  });

  it("block mode: a risky post is refused (422 ValidationError) with the finding's message, nothing stored", async () => {
    const blocked = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'block' } });
    try {
      const key = await ghostKey(blocked, 'app');
      const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', { on: blocked, auth: `Ghost ${token(key)}`, body: { posts: [{ title: 'Risky', html: RISKY, status: 'published', slug: 'risky-blocked' }] } });
      expect(answer.status).toBe(422);
      const error = firstError(answer);
      expect(error).toMatchObject({ type: 'ValidationError', code: 'COMPLIANCE_BLOCKED' });
      expect(`${error.message} ${error.context ?? ''}`).toMatch(/guaranteed/i);
      expect(await blocked.store.posts.lookupSlug('risky-blocked')).toBeNull();
    } finally {
      await blocked.close();
    }
  });
});

describe('the request log', () => {
  function logLines(): Record<string, unknown>[] {
    try {
      const text = readFileSync(path.join(server.dataDir, 'logs', `requests-${new Date().toISOString().slice(0, 10)}.jsonl`), 'utf8');
      return text
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {
      return [];
    }
  }

  async function lineFor(requestId: string | null): Promise<Record<string, unknown>> {
    return vi.waitFor(
      () => {
        const line = logLines().find((entry) => entry.requestId === requestId);
        if (!line) throw new Error(`no line for ${requestId} yet`);
        return line;
      },
      { timeout: 10_000, interval: 50 },
    );
  }

  it("names the door by its path, with the key's id and never the token; a refusal keeps its code", async () => {
    const kid = adminKey.split(':')[0];
    const jwt = token(adminKey);
    const created = await ghost('POST', '/ghost/api/admin/posts/?source=html', { auth: `Ghost ${jwt}`, body: { posts: [{ title: 'Logged', html: HTML }] } });
    expect(created.status).toBe(201);
    expect(await lineFor(created.headers.get('x-request-id'))).toMatchObject({ path: '/ghost/api/admin/posts/', status: 201, keyId: kid });
    const refused = await ghost('POST', '/ghost/api/admin/posts/?source=html', { auth: `Ghost ${token(adminKey, { aud: '/content/' })}`, body: { posts: [{ title: 'Refused', html: HTML }] } });
    expect(await lineFor(refused.headers.get('x-request-id'))).toMatchObject({ status: 401, code: 'invalid_api_key', keyId: kid });
    const file = logLines().map((line) => JSON.stringify(line)).join('\n');
    expect(file).not.toContain(jwt);
    expect(file).not.toContain(adminKey.split(':')[1]);
  });
});

describe('any post body', () => {
  it('is stored or refused in Ghost\'s error shape with a 4xx that says what to do, never a 5xx', async () => {
    const field = fc.oneof(fc.string({ maxLength: 60 }), fc.integer(), fc.constant(null), fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.record({ name: fc.string({ maxLength: 20 }) })), { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(
        fc.record({ title: field, html: fc.oneof(fc.constant(HTML), field), custom_excerpt: field, tags: field, status: fc.oneof(fc.constantFrom('draft', 'published', 'scheduled', 'sent'), field), published_at: fc.oneof(fc.constant('2020-01-01T00:00:00Z'), field), slug: field, feature_image: field }, { requiredKeys: [] }),
        async (post) => {
          const answer = await ghost('POST', '/ghost/api/admin/posts/?source=html', { body: { posts: [post] } });
          if (answer.status === 201) {
            expect(postOf(answer).id).not.toBe('');
            return;
          }
          expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
          expect(answer.status, answer.text).toBeLessThan(500);
          const error = firstError(answer);
          expect(error.message).not.toBe('');
          expect(error.type).toMatch(/Error$/);
        },
      ),
      { numRuns: 40 },
    );
  });
});
