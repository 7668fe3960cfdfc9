/** jsonText inside koa-compress and @koa/etag, as app.ts mounts it, over real HTTP. */
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import etag from '@koa/etag';
import Koa from 'koa';
import compress from 'koa-compress';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonText } from './json-text';

const servers: Array<{ close: () => void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  vi.restoreAllMocks();
});

/** The raw answer (fetch would decompress it). */
function getRaw(url: string, headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

async function serve(body: () => unknown, status = 200): Promise<string> {
  const app = new Koa();
  app.use(compress({ threshold: 1024 }));
  app.use(etag());
  app.use(jsonText());
  app.use((ctx) => {
    ctx.status = status;
    ctx.body = body();
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('jsonText', () => {
  it('serialises an object answer once, for Koa, the compressor and the ETag alike', async () => {
    const answer = { success: true, post: { title: 'Ünïcode “quotes”', slug: 'a' } };
    const url = await serve(() => answer, 201);
    const stringify = vi.spyOn(JSON, 'stringify');
    const res = await fetch(url);
    const calls = stringify.mock.calls.filter(([value]) => value === answer).length;
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual(answer);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(res.headers.get('etag')).toMatch(/^W?\/?"/);
    expect(calls).toBe(1);
  });

  it('leaves a large JSON answer to the compressor, with the same ETag as uncompressed', async () => {
    const answer = { posts: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Post ${i}` })) };
    const url = await serve(() => answer);
    const plain = await getRaw(url, { 'Accept-Encoding': 'identity' });
    const plainText = plain.body.toString('utf8');
    const zipped = await getRaw(url, { 'Accept-Encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.body).toString('utf8')).toBe(plainText);
    expect(JSON.parse(plainText)).toEqual(answer);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
  });

  it('passes text, bytes and streams through as they are', async () => {
    const text = await fetch(await serve(() => '<p>page</p>'));
    expect(text.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await text.text()).toBe('<p>page</p>');
    const bytes = await fetch(await serve(() => Buffer.from('raw')));
    expect(bytes.headers.get('content-type')).toBe('application/octet-stream');
    expect(await bytes.text()).toBe('raw');
    const stream = await fetch(await serve(() => Readable.from(['a', 'b'])));
    expect(await stream.text()).toBe('ab');
  });
});
