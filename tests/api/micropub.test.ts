/**
 * The Micropub endpoint over real HTTP, one test per micropub.rocks server check (named after the check
 * it mirrors, numbers and names from micropub.rocks' list): creates as form, JSON and multipart, with
 * categories, HTML, photos and alt text; updates (replace, add, delete a value, delete a property,
 * refusing a non-array); delete and undelete; q=config, q=syndicate-to, q=source; the media endpoint's
 * jpg, png and gif; and the access-token checks. Each reads back what a reader or the app would see:
 * the post's page, q=source, the uploaded file. Then discovery (the home page's Link header and every
 * page's <link>s) and the compliance gate through this door: a risky post held (202) in review mode and
 * refused (400 with the finding) in block mode.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { type CallResult, resultOf } from './support';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let writer: string;
let reader: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('micropub app', ['blog:write'], 'alice');
  reader = await server.createKey('micropub reader', ['blog:read'], 'alice');
});
afterAll(() => server.close());

type Answer = CallResult;
const answerOf = (response: Response): Promise<Answer> => resultOf(response);

/** A form-encoded POST to /micropub (the token in the header unless `token` is null). */
async function form(fields: [string, string][], token: string | null = writer): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded' };
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  return answerOf(await fetch(`${server.url}/micropub`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() }));
}

async function json(body: unknown, token: string = writer): Promise<Answer> {
  return answerOf(await fetch(`${server.url}/micropub`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) }));
}

async function multipart(data: FormData, path = '/micropub', token: string = writer): Promise<Answer> {
  return answerOf(await fetch(`${server.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: data }));
}

async function query(search: string, token: string = writer): Promise<Answer> {
  return answerOf(await fetch(`${server.url}/micropub?${search}`, { headers: { Authorization: `Bearer ${token}` } }));
}

/** q=source of a post's properties. */
async function source(url: string): Promise<Record<string, unknown[]>> {
  const answer = await query(`q=source&url=${encodeURIComponent(url)}`);
  expect(answer.status).toBe(200);
  return (answer.json as { properties: Record<string, unknown[]> }).properties;
}

async function page(url: string): Promise<{ status: number; html: string }> {
  const response = await fetch(url);
  return { status: response.status, html: await response.text() };
}

function expectCreated(answer: Answer): string {
  expect(answer.status, answer.text).toBe(201);
  const location = answer.headers.get('location') ?? '';
  expect(location).toMatch(new RegExp(`^${server.url}/blog/[a-z0-9-]+$`));
  return location;
}

async function image(format: 'jpeg' | 'png' | 'gif', hue = 0): Promise<Blob> {
  const bytes = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40 + hue, g: 120, b: 200 - hue } } })
    .toFormat(format)
    .toBuffer();
  return new Blob([new Uint8Array(bytes)], { type: `image/${format}` });
}

/** Uploads an image to the media endpoint; its URL. */
async function uploaded(format: 'jpeg' | 'png' | 'gif', hue: number): Promise<string> {
  const data = new FormData();
  data.append('file', await image(format, hue), `photo.${format}`);
  const answer = await multipart(data, '/micropub/media');
  expect(answer.status, answer.text).toBe(201);
  return answer.headers.get('location') ?? '';
}

const CONTENT = 'Funding a policy to the limit keeps the cash value growing on the way in.';

describe('Creating posts (form-encoded)', () => {
  it('100 Create an h-entry post (form-encoded)', async () => {
    const location = expectCreated(await form([['h', 'entry'], ['content', CONTENT]]));
    const shown = await page(location);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(CONTENT);
    // No name: the title is the content's first words.
    expect((await source(location)).name).toEqual(['Funding a policy to the limit keeps the…']);
  });

  it('101 Create an h-entry post with multiple categories (form-encoded)', async () => {
    const location = expectCreated(await form([['h', 'entry'], ['content', CONTENT], ['category[]', 'retirement planning'], ['category[]', 'cash-value'], ['category[]', 'funding']]));
    expect((await source(location)).category).toEqual(['Retirement Planning', 'cash-value', 'funding']);
  });

  it('104 Create an h-entry with a photo referenced by URL (form-encoded)', async () => {
    const photo = await uploaded('jpeg', 10);
    const location = expectCreated(await form([['h', 'entry'], ['content', CONTENT], ['photo', photo]]));
    const properties = await source(location);
    expect(properties.photo).toHaveLength(1);
    expect(properties.photo?.[0]).toBe(photo);
    expect((await page(location)).html).toMatch(/<img[^>]+\/media\/[0-9a-f]{32}-/);
  });

  it('104 (refused) a photo that is not an upload of this site is refused, saying to upload it first', async () => {
    const answer = await form([['h', 'entry'], ['content', CONTENT], ['photo', 'https://elsewhere.example/cat.jpg']]);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(answer.json.error_description).toMatch(/upload it to the media endpoint first/);
  });

  it('107 Create an h-entry post with one category (form-encoded)', async () => {
    const location = expectCreated(await form([['h', 'entry'], ['content', CONTENT], ['category', 'tax-benefits'], ['name', 'One category']]));
    const properties = await source(location);
    expect(properties.category).toEqual(['Tax Benefits']);
    expect(properties.name).toEqual(['One category']);
    expect((await page(location)).html).toContain('Tax Benefits');
  });
});

describe('Creating posts (JSON)', () => {
  it('200 Create an h-entry post (JSON)', async () => {
    const location = expectCreated(await json({ type: ['h-entry'], properties: { name: ['A JSON post'], content: [CONTENT], 'mp-slug': ['a-json-post'] } }));
    expect(location).toBe(`${server.url}/blog/a-json-post`);
    expect((await page(location)).html).toContain('A JSON post');
  });

  it('201 Create an h-entry post with multiple categories (JSON)', async () => {
    const location = expectCreated(await json({ type: ['h-entry'], properties: { content: [CONTENT], category: ['premiums', 'IUL Strategies'] } }));
    expect((await source(location)).category).toEqual(['IUL Strategies', 'premiums']);
  });

  it('202 Create an h-entry with HTML content (JSON)', async () => {
    const location = expectCreated(await json({ type: ['h-entry'], properties: { name: ['HTML content'], content: [{ html: '<p>This post has <em>bold</em> words.</p><script>alert(1)</script>' }] } }));
    const shown = await page(location);
    expect(shown.html).toContain('<em>bold</em>');
    expect(shown.html).not.toContain('alert(1)');
  });

  it('203 Create an h-entry with a photo referenced by URL (JSON)', async () => {
    const photo = await uploaded('png', 20);
    const location = expectCreated(await json({ type: ['h-entry'], properties: { content: [CONTENT], photo: [photo] } }));
    expect((await source(location)).photo).toHaveLength(1);
  });

  it('204 Create an h-entry post with a nested object (JSON)', async () => {
    const location = expectCreated(
      await json({ type: ['h-entry'], properties: { content: [CONTENT], 'like-of': [{ type: ['h-cite'], properties: { name: ['Elsewhere'], url: ['https://example.com/'] } }] } }),
    );
    expect((await page(location)).status).toBe(200);
  });

  it('205 Create an h-entry post with a photo with alt text (JSON)', async () => {
    const photo = await uploaded('jpeg', 30);
    const location = expectCreated(await json({ type: ['h-entry'], properties: { content: [CONTENT], photo: [{ value: photo, alt: 'A couple reading a policy statement' }] } }));
    expect((await source(location)).photo).toEqual([{ value: photo, alt: 'A couple reading a policy statement' }]);
    expect((await page(location)).html).toContain('alt="A couple reading a policy statement"');
  });

  it('206 Create an h-entry with multiple photos referenced by URL (JSON)', async () => {
    const first = await uploaded('jpeg', 40);
    const second = await uploaded('png', 50);
    const location = expectCreated(await json({ type: ['h-entry'], properties: { name: ['Two photos'], content: [CONTENT], photo: [first, second] } }));
    const html = (await page(location)).html;
    const secondId = /\/media\/([0-9a-f]{32})-/.exec(second)?.[1] ?? 'none';
    expect(html).toContain(secondId);
  });
});

describe('Creating posts (multipart)', () => {
  it('300 Create an h-entry with a photo (multipart)', async () => {
    const data = new FormData();
    data.append('h', 'entry');
    data.append('content', CONTENT);
    data.append('photo', await image('jpeg', 60), 'photo.jpg');
    const location = expectCreated(await multipart(data));
    expect((await source(location)).photo).toHaveLength(1);
  });

  it('301 Create an h-entry with two photos (multipart)', async () => {
    const data = new FormData();
    data.append('h', 'entry');
    data.append('name', 'Two uploaded photos');
    data.append('content', CONTENT);
    data.append('photo[]', await image('jpeg', 70), 'one.jpg');
    data.append('photo[]', await image('png', 80), 'two.png');
    const location = expectCreated(await multipart(data));
    const html = (await page(location)).html;
    expect(html.match(/\/media\/[0-9a-f]{32}-\d+\./g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });
});

describe('Updates', () => {
  async function post(properties: Record<string, unknown[]>): Promise<string> {
    return expectCreated(await json({ type: ['h-entry'], properties: { content: [CONTENT], ...properties } }));
  }

  it('400 Replace a property', async () => {
    const url = await post({ name: ['Before the update'] });
    const answer = await json({ action: 'update', url, replace: { content: ['The content after the update.'] } });
    expect(answer.status, answer.text).toBe(204);
    expect((await page(url)).html).toContain('The content after the update.');
    expect((await source(url)).name).toEqual(['Before the update']);
  });

  it('401 Add a value to an existing property', async () => {
    const url = await post({ category: ['loans'] });
    expect((await json({ action: 'update', url, add: { category: ['riders'] } })).status).toBe(204);
    expect((await source(url)).category).toEqual(['loans', 'riders']);
  });

  it('402 Add a value to a non-existent property', async () => {
    const url = await post({});
    expect((await source(url)).category).toEqual([]);
    expect((await json({ action: 'update', url, add: { category: ['Tax Benefits'] } })).status).toBe(204);
    expect((await source(url)).category).toEqual(['Tax Benefits']);
  });

  it('403 Remove a value from a property', async () => {
    const url = await post({ category: ['loans', 'riders', 'caps'] });
    expect((await json({ action: 'update', url, delete: { category: ['riders'] } })).status).toBe(204);
    expect((await source(url)).category).toEqual(['loans', 'caps']);
  });

  it('404 Remove a property', async () => {
    const url = await post({ category: ['loans', 'riders'] });
    expect((await json({ action: 'update', url, delete: ['category'] })).status).toBe(204);
    expect((await source(url)).category).toEqual([]);
  });

  it('405 Reject the request if operation is not an array', async () => {
    const url = await post({ name: ['Kept as it was'] });
    const answer = await json({ action: 'update', url, replace: { content: 'not a list' } });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(answer.json.error_description).toMatch(/must be a list of values/);
    expect((await page(url)).html).toContain(CONTENT);
  });
});

describe('Deletes', () => {
  it('500 Delete a post (form-encoded)', async () => {
    const url = expectCreated(await form([['h', 'entry'], ['content', CONTENT]]));
    expect((await form([['action', 'delete'], ['url', url]])).status).toBe(204);
    expect((await page(url)).status).toBe(410);
  });

  it('501 Delete a post (JSON)', async () => {
    const url = expectCreated(await form([['h', 'entry'], ['content', CONTENT]]));
    expect((await json({ action: 'delete', url })).status).toBe(204);
    expect((await page(url)).status).toBe(410);
  });

  it('502 Undelete a post (form-encoded)', async () => {
    const url = expectCreated(await form([['h', 'entry'], ['content', CONTENT]]));
    expect((await form([['action', 'delete'], ['url', url]])).status).toBe(204);
    expect((await form([['action', 'undelete'], ['url', url]])).status).toBe(204);
    expect((await page(url)).status).toBe(200);
  });

  it('a URL that names no post of this site is a 400 saying so, never a 500', async () => {
    for (const url of [`${server.url}/blog/no-such-post`, `${server.url}/blog/%E0%A4%A`, 'https://elsewhere.example/blog/a-json-post', `${server.url}/about-us`, 'not a url at all']) {
      const answer = await json({ action: 'delete', url });
      expect(answer.status, url).toBe(400);
      expect(answer.json.error).toBe('invalid_request');
    }
    expect((await page(`${server.url}/blog/a-json-post`)).status).toBe(200);
  });

  it("another owner's key may neither delete nor change the post (403 forbidden); nothing changes", async () => {
    const url = expectCreated(await json({ type: ['h-entry'], properties: { name: ['Alice owns this'], content: [CONTENT] } }));
    const bob = await server.createKey('bob app', ['blog:write'], 'bob');
    for (const body of [{ action: 'delete', url }, { action: 'update', url, replace: { name: ['Bob was here'] } }]) {
      const answer = await json(body, bob);
      expect(answer.status).toBe(403);
      expect(answer.json.error).toBe('forbidden');
    }
    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.html).toContain('Alice owns this');
  });

  it('503 Undelete a post (JSON)', async () => {
    const url = expectCreated(await form([['h', 'entry'], ['content', CONTENT]]));
    expect((await json({ action: 'delete', url })).status).toBe(204);
    expect((await json({ action: 'undelete', url })).status).toBe(204);
    expect((await page(url)).status).toBe(200);
  });
});

describe('Query', () => {
  it('600 Configuration Query', async () => {
    const answer = await query('q=config');
    expect(answer.status).toBe(200);
    expect(answer.json['media-endpoint']).toBe(`${server.url}/micropub/media`);
    expect(answer.json['syndicate-to']).toEqual([]);
    expect(answer.json.categories).toEqual(['Insurance Basics', 'IUL Strategies', 'Retirement Planning', 'Tax Benefits', 'Financial Education']);
  });

  it('601 Syndication Endpoint Query', async () => {
    const answer = await query('q=syndicate-to');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ 'syndicate-to': [] });
  });

  it('602 Source Query (All Properties)', async () => {
    const url = expectCreated(await json({ type: ['h-entry'], properties: { name: ['Source query'], content: [CONTENT], summary: ['A short summary.'], category: ['IUL Strategies', 'caps'] } }));
    const answer = await query(`q=source&url=${encodeURIComponent(url)}`);
    expect(answer.json.type).toEqual(['h-entry']);
    const properties = answer.json.properties as Record<string, unknown[]>;
    expect(properties.name).toEqual(['Source query']);
    expect(properties.summary).toEqual(['A short summary.']);
    expect(properties.category).toEqual(['IUL Strategies', 'caps']);
    expect(properties.content).toEqual([{ html: `<p>${CONTENT}</p>`, value: CONTENT }]);
    expect(properties['post-status']).toEqual(['published']);
  });

  it('603 Source Query (Specific Properties)', async () => {
    const url = expectCreated(await json({ type: ['h-entry'], properties: { name: ['Some properties'], content: [CONTENT], category: ['caps'] } }));
    const answer = await query(`q=source&properties[]=content&properties[]=category&url=${encodeURIComponent(url)}`);
    expect(answer.json).toEqual({ properties: { content: [{ html: `<p>${CONTENT}</p>`, value: CONTENT }], category: ['caps'] } });
  });

  it('q=category lists the site categories, filtered', async () => {
    expect((await query('q=category&filter=tax')).json).toEqual({ categories: ['Tax Benefits'] });
  });
});

describe('Media Endpoint', () => {
  for (const [number, format, type] of [
    ['700', 'jpeg', 'jpg'],
    ['701', 'png', 'png'],
    ['702', 'gif', 'gif'],
  ] as const) {
    it(`${number} Upload a ${type} to the Media Endpoint`, async () => {
      const location = await uploaded(format, Number(number) % 100);
      expect(location).toMatch(new RegExp(`^${server.url}/media/[0-9a-f]{32}-\\d+\\.`));
      const file = await fetch(location);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^image\//);
    });
  }

  it('the media endpoint refuses what is not an image, saying what it is', async () => {
    const data = new FormData();
    data.append('file', new Blob(['not a picture'], { type: 'image/png' }), 'fake.png');
    const answer = await multipart(data, '/micropub/media');
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(answer.json.error_description).toMatch(/not a PNG, JPEG, WebP, AVIF or GIF/);
  });
});

describe('Authentication', () => {
  it('800 Accept access token in HTTP header', async () => {
    expectCreated(await form([['h', 'entry'], ['content', 'Token in the header.']]));
  });

  it('801 Accept access token in POST body', async () => {
    expectCreated(await form([['h', 'entry'], ['content', 'Token in the body.'], ['access_token', writer]], null));
  });

  it('802 Does not store access token property', async () => {
    const url = expectCreated(await form([['h', 'entry'], ['content', 'Token not kept.'], ['access_token', writer]], null));
    const properties = await source(url);
    expect(Object.keys(properties)).not.toContain('access_token');
    expect(JSON.stringify(properties)).not.toContain(writer);
    expect((await page(url)).html).not.toContain(writer);
  });

  it('803 Rejects unauthenticated requests', async () => {
    const none = await form([['h', 'entry'], ['content', 'No token, no post.'], ['mp-slug', 'no-token-no-post']], null);
    expect(none.status).toBe(401);
    expect(none.json.error).toBe('unauthorized');
    const wrong = await form([['h', 'entry'], ['content', 'Wrong token, no post.'], ['mp-slug', 'no-token-no-post']], `${writer.slice(0, -4)}abcd`);
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('unauthorized');
    expect((await page(`${server.url}/blog/no-token-no-post`)).status).toBe(404);
  });

  it('804 Rejects unauthorized access tokens', async () => {
    const answer = await form([['h', 'entry'], ['content', 'A read-only token.'], ['mp-slug', 'read-only-token']], reader);
    expect(answer.status).toBe(403);
    expect(answer.json.error).toBe('insufficient_scope');
    expect((await page(`${server.url}/blog/read-only-token`)).status).toBe(404);
    // The same token reads: q=source is blog:read.
    expect((await query('q=config', reader)).status).toBe(200);
  });

  it('a token sent both in the header and in the body is refused', async () => {
    const answer = await form([['h', 'entry'], ['content', 'Twice.'], ['access_token', writer]]);
    expect(answer.status).toBe(400);
    expect(answer.json.error_description).toMatch(/sent twice/);
  });
});

describe('the door is recorded', () => {
  function logLines(): Array<Record<string, unknown>> {
    try {
      const text = readFileSync(path.join(server.dataDir, 'logs', `requests-${new Date().toISOString().slice(0, 10)}.jsonl`), 'utf8');
      return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    } catch {
      return [];
    }
  }

  it("the request log names /micropub and the key's id, never the token; the audit log the key as the post's creator", async () => {
    const created = await form([['h', 'entry'], ['content', 'A logged post.'], ['mp-slug', 'a-logged-post']]);
    expect(created.status).toBe(201);
    const refused = await form([['h', 'entry'], ['content', 'Refused.']], reader);
    const keyId = writer.slice(4, 14);
    const requestId = created.headers.get('x-request-id');
    const line = await vi.waitFor(() => {
      const found = logLines().find((entry) => entry.requestId === requestId);
      if (!found) throw new Error('not written yet');
      return found;
    });
    expect(line).toMatchObject({ method: 'POST', path: '/micropub', status: 201, keyId });
    const refusedLine = await vi.waitFor(() => {
      const found = logLines().find((entry) => entry.requestId === refused.headers.get('x-request-id'));
      if (!found) throw new Error('not written yet');
      return found;
    });
    expect(refusedLine).toMatchObject({ path: '/micropub', status: 403, code: 'insufficient_permissions' });
    expect(JSON.stringify(logLines())).not.toContain(writer);
    const entries = await server.store.audit.list();
    const post = await server.store.posts.getBySlug('a-logged-post');
    expect(entries.find((entry) => entry.action === 'post.created' && entry.target === post?.id)?.actor).toBe(`key:${keyId}`);
    expect(post?.owner).toBe('alice');
  });
});

describe('any request', () => {
  it('any JSON or form body is stored (201) or refused with invalid_request (400), never a 500 (property test over HTTP)', async () => {
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.record({ html: fc.string({ maxLength: 40 }) }), fc.record({ value: fc.string({ maxLength: 40 }), alt: fc.string({ maxLength: 10 }) }), fc.integer(), fc.constant(null));
    const name = fc.constantFrom('name', 'content', 'summary', 'category', 'photo', 'published', 'post-status', 'mp-slug', 'x-unknown');
    const jsonBody = fc.record({ type: fc.constantFrom(['h-entry'], ['h-event'], 'h-entry'), properties: fc.dictionary(name, fc.oneof(fc.array(value, { maxLength: 3 }), value)) });
    const formBody = fc.array(fc.tuple(fc.oneof(name, name.map((field) => `${field}[]`), fc.string({ maxLength: 8 })), fc.string({ maxLength: 40 })), { maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(jsonBody.map((body) => ({ body })), formBody.map((fields) => ({ fields }))), async (request) => {
        const answer = 'body' in request ? await json(request.body) : await form([['h', 'entry'], ...request.fields]);
        expect([201, 400], answer.text).toContain(answer.status);
        if (answer.status === 400) expect(answer.json.error).toBe('invalid_request');
      }),
      { numRuns: 40 },
    );
  });
});

describe('limits', () => {
  it("a key's writes a minute are one allowance for the API and Micropub together: past it, 429 with Retry-After", async () => {
    const limited = await startTestServer({ api: { writesPerMinute: 2 } });
    try {
      const key = await limited.createKey('app', ['blog:write'], 'alice');
      const send = (body: Record<string, string>) => fetch(`${limited.url}/micropub`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
      const viaApi = await fetch(`${limited.url}/api/blog`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: 'Through the API', content: '<p>Sent to the API.</p>', excerpt: 'Sent to the API.', category: 'IUL Strategies', status: 'draft', author: { name: 'Alice' } }) });
      expect(viaApi.status).toBe(201);
      // A refused write gives its allowance back.
      expect((await send({ h: 'entry', 'post-status': 'maybe', content: 'Refused.' })).status).toBe(400);
      expect((await send({ h: 'entry', content: 'The second write.' })).status).toBe(201);
      const third = await send({ h: 'entry', content: 'One too many.' });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await third.json()) as { error: string }).error).toBe('too_many_requests');
    } finally {
      await limited.close();
    }
  });
});

describe('Discovery', () => {
  it("the home page's Link header and every page's head name the Micropub and IndieAuth endpoints", async () => {
    const home = await fetch(`${server.url}/`);
    const link = home.headers.get('link') ?? '';
    expect(link).toContain('</micropub>; rel="micropub"');
    expect(link).toBe('</micropub>; rel="micropub", </.well-known/oauth-authorization-server>; rel="indieauth-metadata"');
    for (const path of ['/', '/blog', '/about-us']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(html).toContain('<link rel="micropub" href="/micropub"/>');
      expect(html).toContain('<link rel="token_endpoint" href="/indieauth/token"/>');
    }
  });
});

describe('the compliance gate through Micropub', () => {
  const RISKY = 'This policy is risk-free and pays guaranteed returns every year.';

  it('review mode: a risky post is held (202) with the finding named, on no public page', async () => {
    const held = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' } });
    try {
      const key = await held.createKey('app', ['blog:write'], 'alice');
      const response = await fetch(`${held.url}/micropub`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ h: 'entry', content: RISKY }).toString() });
      const body = (await response.json()) as { description: string };
      expect(response.status).toBe(202);
      expect(body.description).toMatch(/Held for compliance review \(.*guaranteed-returns/);
      const location = response.headers.get('location') ?? '';
      expect((await fetch(location)).status).toBe(404);
    } finally {
      await held.close();
    }
  });

  it("block mode: a risky post is refused (400 invalid_request) with the finding's message, nothing stored", async () => {
    const blocked = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'block' } });
    try {
      const key = await blocked.createKey('app', ['blog:write'], 'alice');
      const response = await fetch(`${blocked.url}/micropub`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ type: ['h-entry'], properties: { content: [RISKY], 'mp-slug': ['blocked-post'] } }) });
      const body = (await response.json()) as { error: string; error_description: string };
      expect(response.status).toBe(400);
      expect(body.error).toBe('invalid_request');
      expect(body.error_description).toMatch(/guaranteed/i);
      expect((await fetch(`${blocked.url}/blog/blocked-post`)).status).toBe(404);
    } finally {
      await blocked.close();
    }
  });
});
