/**
 * A page the answer cache does not hold is rendered and sent compressed quickly (brotli quality 2, or
 * gzip 6): the request that missed never pays the static level's compression. Asked for again, the kept
 * page is compressed at the static level (brotli 6, gzip 9) off the request path, and from then on sent
 * in those bytes, as a static server would send them (decision 0041). Every answer is the same page once
 * decompressed, under one weak validator per coding; a change to the post renders it again.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressNow } from '../../api/answer-cache';
import type { Store } from '../../api/store/store';
import type { CreatePostResponse } from '../../contract/blog';
import type { PostWriteResponse } from '../../contract/post-lifecycle';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

/** Renders of a post page: each looks its slug up once; an answer from the cache does not. */
let lookups = 0;

function countingLookups(store: Store): Store {
  const posts = new Proxy(store.posts, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== 'function') return member;
      const bound = (member as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'lookupSlug') return bound;
      return (...args: unknown[]) => {
        lookups += 1;
        return bound(...args);
      };
    },
  });
  return new Proxy(store, { get: (target, property) => (property === 'posts' ? posts : Reflect.get(target, property, target)) });
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent, compressed. */
  body: Buffer;
}

/** One GET as sent over the wire, not decompressed (fetch would decompress it). */
function getRaw(path: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

function text(answer: Raw): string {
  const coding = answer.headers['content-encoding'];
  const bytes = coding === 'br' ? brotliDecompressSync(answer.body) : coding === 'gzip' ? gunzipSync(answer.body) : answer.body;
  return bytes.toString('utf8');
}

/**
 * Asks for the page until it comes in other bytes than `quick` (the static level's, compressed in
 * Node's thread pool while the event loop answers); each ask is an answer from the cache. The answers
 * on the way.
 */
async function untilStatic(path: string, headers: Record<string, string>, quick: Buffer): Promise<Raw[]> {
  const answers: Raw[] = [];
  for (let asked = 0; asked < 500; asked += 1) {
    const answer = await getRaw(path, headers);
    answers.push(answer);
    if (!answer.body.equals(quick)) return answers;
  }
  throw new Error(`${path} was still sent quickly compressed after 500 answers`);
}

const BR = { 'accept-encoding': 'br, gzip' };
const GZIP = { 'accept-encoding': 'gzip' };

let server: TestServer;
let key: string;
let post: { id: string; slug: string; etag: string };

beforeAll(async () => {
  server = await startTestServer({ wrapStore: countingLookups });
  key = await server.createKey('Page compression', ['blog:write']);
  const created = await call<CreatePostResponse>(server, 'POST', '/api/blog', { key, body: validPost({ title: 'Compression study', status: 'Published' }) });
  expect(created.status).toBe(201);
  post = created.json.post;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

describe('a post page not in the answer cache', () => {
  it('is sent compressed quickly to the request that rendered it, and at the static level once kept and asked for again', async () => {
    const page = `/blog/${post.slug}`;
    lookups = 0;
    const miss = await getRaw(page, BR);
    expect(miss.status).toBe(200);
    expect(lookups).toBe(1);
    expect(miss.headers['content-encoding']).toBe('br');
    const html = text(miss);
    expect(html).toContain('Compression study');
    const bytes = Buffer.from(html, 'utf8');
    expect(miss.body.equals(compressNow(bytes, 'br', 'quick'))).toBe(true);

    const answers = await untilStatic(page, BR, miss.body);
    // Every answer came from the cache, and is the same page, under the same validator.
    expect(lookups).toBe(1);
    expect(answers.map(text)).toEqual(answers.map(() => html));
    expect(new Set(answers.map((answer) => answer.headers.etag))).toEqual(new Set([miss.headers.etag]));
    const kept = answers.at(-1);
    if (!kept) throw new Error('no answer');
    expect(kept.body.equals(compressNow(bytes, 'br', 'static'))).toBe(true);
    expect(kept.body.length).toBeLessThan(miss.body.length);
    // From then on, these bytes.
    const again = await getRaw(page, BR);
    expect(again.body.equals(kept.body)).toBe(true);

    // A browser holding the miss's bytes revalidates to a 304: a weak validator, the same page.
    expect(miss.headers.etag).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]{27}-br"$/);
    expect((await getRaw(page, { ...BR, 'if-none-match': String(miss.headers.etag) })).status).toBe(304);

    // A client taking gzip alone: its own representation, quick on its first use, then gzip 9.
    const gzipMiss = await getRaw(page, GZIP);
    expect(gzipMiss.body.equals(compressNow(bytes, 'gzip', 'quick'))).toBe(true);
    const gzipAnswers = [gzipMiss, ...(await untilStatic(page, GZIP, gzipMiss.body))];
    expect(gzipAnswers.map(text)).toEqual(gzipAnswers.map(() => html));
    expect(gzipAnswers.at(-1)?.body.equals(compressNow(bytes, 'gzip', 'static'))).toBe(true);
    expect(gzipMiss.headers.etag).not.toBe(miss.headers.etag);
    expect(lookups).toBe(1);
  });

  it('is rendered again after an edit of its post, sent quickly again, and kept again at the static level', async () => {
    const page = `/blog/${post.slug}`;
    const before = await getRaw(page, BR);
    const edited = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${post.id}`, { key, headers: { 'if-match': post.etag }, body: { title: 'Compression study, retitled' } });
    expect(edited.status).toBe(200);
    post.etag = edited.json.etag;

    lookups = 0;
    const miss = await getRaw(page, BR);
    expect(lookups).toBe(1);
    expect(miss.headers.etag).not.toBe(before.headers.etag);
    const html = text(miss);
    expect(html).toContain('Compression study, retitled');
    expect(miss.body.equals(compressNow(Buffer.from(html, 'utf8'), 'br', 'quick'))).toBe(true);
    const kept = (await untilStatic(page, BR, miss.body)).at(-1);
    expect(kept && text(kept)).toBe(html);
    expect(kept?.body.equals(compressNow(Buffer.from(html, 'utf8'), 'br', 'static'))).toBe(true);
    expect(lookups).toBe(1);
  });
});
