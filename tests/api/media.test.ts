/**
 * Image uploads over real HTTP (POST/GET/DELETE /api/media, and the files at /media/): each format
 * taken (PNG, JPEG, WebP, AVIF, GIF, generated here with sharp) is stored at the right widths and
 * types, served immutable and nosniff; EXIF and GPS data are gone from every variant; a renamed text
 * file, a JSON body, a polyglot, a pixel bomb and an upload over MEDIA_MAX_BYTES are refused with
 * what they are; the same bytes are stored once; multipart works; keys see their owner's images,
 * delete only unused ones (409 naming the post otherwise), and a blog:read key cannot upload.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readServerEnv } from '../../api/server-env';
import type { ApiErrorBody } from '../../contract/errors';
import type { MediaListResponse, MediaResponse } from '../../contract/media';
import { startTestServer, type TestServer } from '../support/server';
import { pngBomb } from '../support/png-bomb';
import { rawRequest } from './raw-request';
import { call, type CallResult, validPost } from './support';

const LIMIT_BYTES = 8 * 1024 * 1024;

let server: TestServer;
let writer: string;
let otherWriter: string;
let reader: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0, mediaMaxBytes: LIMIT_BYTES } });
  writer = await server.createKey('media writer', ['blog:write'], 'alice');
  otherWriter = await server.createKey('other writer', ['blog:write'], 'bob');
  reader = await server.createKey('media reader', ['blog:read'], 'alice');
  admin = await server.createKey('media admin', ['blog:admin'], 'site');
});
afterAll(() => server.close());

/** A photo-like picture: smooth colour gradients with a little noise (quick to encode, not trivially small). */
function picture(width: number, height: number, channels: 3 | 4 = 3): Sharp {
  const pixels = Buffer.alloc(width * height * channels);
  let seed = width * 31 + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      const noise = (seed % 7) - 3;
      const at = (y * width + x) * channels;
      pixels[at] = Math.max(0, Math.min(255, 120 + 90 * Math.sin(x / 90) + noise));
      pixels[at + 1] = Math.max(0, Math.min(255, 110 + 80 * Math.cos(y / 70) + noise));
      pixels[at + 2] = Math.max(0, Math.min(255, ((x + y) * 255) / (width + height) + noise));
      if (channels === 4) pixels[at + 3] = x < width / 2 ? 255 : 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

/** A 3-frame animated GIF. */
async function animatedGif(width: number, height: number): Promise<Buffer> {
  const frames = await Promise.all([0, 1, 2].map((frame) => picture(width, height).modulate({ hue: frame * 90 }).raw().toBuffer()));
  return sharp(Buffer.concat(frames), { raw: { width, height: height * 3, channels: 3, pageHeight: height } })
    .gif({ loop: 0, delay: [120, 120, 120] })
    .toBuffer();
}

function upload(bytes: Uint8Array, options: { key?: string; type?: string; headers?: Record<string, string> } = {}): Promise<CallResult<MediaResponse & ApiErrorBody>> {
  return call<MediaResponse & ApiErrorBody>(server, 'POST', '/api/media', {
    key: options.key ?? writer,
    body: bytes,
    headers: { 'content-type': options.type ?? 'application/octet-stream', ...options.headers },
  });
}

async function fetchVariant(url: string): Promise<{ response: Response; bytes: Buffer }> {
  const response = await fetch(`${server.url}${url}`);
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const FORMAT_OF: Record<string, string> = { 'image/webp': 'webp', 'image/avif': 'heif', 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif' };

/** Fetches every variant and checks it is what the answer says: type, size, headers. */
async function expectVariantsServed(media: MediaResponse): Promise<void> {
  for (const variant of media.variants) {
    const { response, bytes } = await fetchVariant(variant.url);
    expect(response.status, variant.url).toBe(200);
    expect(response.headers.get('content-type')).toBe(variant.type);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(bytes.length).toBe(variant.bytes);
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe(FORMAT_OF[variant.type]);
    expect(meta.width).toBe(variant.width);
    expect(meta.height).toBe(variant.height);
  }
}

function typesAt(media: MediaResponse, width: number): string[] {
  return media.variants.filter((variant) => variant.width === width).map((variant) => variant.type).sort();
}

describe('POST /api/media: each format', () => {
  it('stores a PNG at 480, 960 and 1600 wide as WebP, AVIF and PNG, and serves each immutable and nosniff', async () => {
    const bytes = await picture(1700, 1000).png().toBuffer();
    const res = await upload(bytes, { type: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/media/${res.json.id}`);
    expect(res.json).toMatchObject({ type: 'image/png', width: 1700, height: 1000, bytes: bytes.length, owners: ['alice'], used_by: [] });
    expect(res.json.id).toMatch(/^[0-9a-f]{32}$/);
    expect([...new Set(res.json.variants.map((variant) => variant.width))]).toEqual([480, 960, 1600]);
    for (const width of [480, 960, 1600]) expect(typesAt(res.json, width)).toEqual(['image/avif', 'image/png', 'image/webp']);
    expect(res.json.variants.find((variant) => variant.width === 960)?.height).toBe(565);
    expect(res.json.url).toBe(`/media/${res.json.id}-1600.png`);
    expect(res.json.srcset).toBe(`/media/${res.json.id}-480.webp 480w, /media/${res.json.id}-960.webp 960w, /media/${res.json.id}-1600.webp 1600w`);
    expect(res.json.srcset_avif).toContain(`/media/${res.json.id}-1600.avif 1600w`);
    expect(res.json.stored_bytes).toBe(res.json.variants.reduce((sum, variant) => sum + variant.bytes, 0));
    expect(res.json.markdown).toBe(`![Describe the picture](/media/${res.json.id}-1600.png)`);
    expect(res.json.html).toContain(`src="/media/${res.json.id}-1600.png"`);
    expect(res.json.html).toContain('width="1700" height="1000"');
    expect(res.json.html).toContain('alt="Describe the picture"');
    await expectVariantsServed(res.json);
  });

  it('stores a JPEG with a JPEG fallback', async () => {
    const res = await upload(await picture(1200, 800).jpeg({ quality: 90 }).toBuffer(), { type: 'image/jpeg' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ type: 'image/jpeg', width: 1200, height: 800 });
    // 1200 wide: kept at 480, 960 and its own 1200 (never wider than the original).
    for (const width of [480, 960, 1200]) expect(typesAt(res.json, width)).toEqual(['image/avif', 'image/jpeg', 'image/webp']);
    expect(res.json.url).toBe(`/media/${res.json.id}-1200.jpg`);
    await expectVariantsServed(res.json);
  });

  it('stores a WebP with transparency with a PNG fallback, and an AVIF without with a JPEG one', async () => {
    const webp = await upload(await picture(1000, 600, 4).webp().toBuffer(), { type: 'image/webp' });
    expect(webp.status).toBe(201);
    expect(webp.json.type).toBe('image/webp');
    expect(typesAt(webp.json, 960)).toEqual(['image/avif', 'image/png', 'image/webp']);
    expect((await sharp((await fetchVariant(webp.json.url)).bytes).metadata()).hasAlpha).toBe(true);
    await expectVariantsServed(webp.json);

    const avif = await upload(await picture(700, 500).avif({ effort: 0 }).toBuffer(), { type: 'image/avif' });
    expect(avif.status).toBe(201);
    expect(avif.json).toMatchObject({ type: 'image/avif', width: 700, height: 500 });
    expect(typesAt(avif.json, 480)).toEqual(['image/avif', 'image/jpeg', 'image/webp']);
    await expectVariantsServed(avif.json);
  });

  it('keeps a GIF animated in WebP and GIF, makes no AVIF of it, and keeps a small picture at its own width', async () => {
    const res = await upload(await animatedGif(320, 200), { type: 'image/gif' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ type: 'image/gif', width: 320, height: 200, srcset_avif: '' });
    expect(typesAt(res.json, 320)).toEqual(['image/gif', 'image/webp']);
    for (const variant of res.json.variants) {
      const meta = await sharp((await fetchVariant(variant.url)).bytes, { animated: true }).metadata();
      expect(meta.pages, variant.url).toBe(3);
      expect(meta.pageHeight).toBe(200);
    }
  });

  it('applies the EXIF orientation and keeps no EXIF or GPS data in any variant', async () => {
    const bytes = await picture(1200, 800)
      .jpeg()
      .withExif({ IFD0: { Make: 'SecretCam', Model: 'X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const original = await sharp(bytes).metadata();
    expect(original.orientation).toBe(6);
    expect(original.exif?.includes('SecretCam')).toBe(true);
    const res = await upload(bytes, { type: 'image/jpeg' });
    expect(res.status).toBe(201);
    // Turned a quarter: 800 wide, 1200 high.
    expect(res.json).toMatchObject({ width: 800, height: 1200 });
    expect(res.json.variants.map((variant) => `${variant.width}x${variant.height}`).sort()).toEqual(['480x720', '480x720', '480x720', '800x1200', '800x1200', '800x1200']);
    for (const variant of res.json.variants) {
      const { bytes: served } = await fetchVariant(variant.url);
      const meta = await sharp(served).metadata();
      expect(meta.exif, variant.url).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(served.includes('SecretCam')).toBe(false);
    }
  });

  it('takes a multipart/form-data upload with the file in a field', async () => {
    const form = new FormData();
    form.append('title', 'ignored');
    form.append('file', new Blob([await picture(500, 300).png().toBuffer()], { type: 'image/png' }), 'chart.png');
    const response = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${writer}` }, body: form });
    expect(response.status).toBe(201);
    const body = (await response.json()) as MediaResponse;
    expect(body).toMatchObject({ type: 'image/png', width: 500, height: 300 });
    await expectVariantsServed(body);
  });
});

describe('POST /api/media: what is refused', () => {
  it('refuses a text file renamed .png and sent as image/png with a 415 saying it is text', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Quarterly notes\nnothing to see here\n'], { type: 'image/png' }), 'notes.png');
    const response = await fetch(`${server.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${writer}` }, body: form });
    expect(response.status).toBe(415);
    const body = (await response.json()) as ApiErrorBody;
    expect(body.code).toBe('unsupported_image');
    expect(body.message).toContain('text/plain');
    const raw = await upload(Buffer.from('Quarterly notes\n'), { type: 'image/png' });
    expect(raw.status).toBe(415);
    expect(raw.json.message).toMatch(/text\/plain.*read from its bytes/);
  });

  it('answers a JSON or text body with a 415 explaining how to send a file', async () => {
    const json = await call<ApiErrorBody>(server, 'POST', '/api/media', { key: writer, body: { image: 'data:image/png;base64,AAAA' } });
    expect(json.status).toBe(415);
    expect(json.json.code).toBe('unsupported_image');
    expect(json.json.message).toMatch(/Content-Type application\/json.*multipart\/form-data/);
    const text = await call<ApiErrorBody>(server, 'POST', '/api/media', { key: writer, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  it('refuses a polyglot (a valid GIF or JPEG with a script after it) with a 422', async () => {
    const gif = Buffer.concat([await picture(60, 40).gif().toBuffer(), Buffer.from('<script>alert(document.cookie)</script>')]);
    const gifRes = await upload(gif, { type: 'image/gif' });
    expect(gifRes.status).toBe(422);
    expect(gifRes.json.code).toBe('image_unreadable');
    expect(gifRes.json.message).toMatch(/follow the end of the GIF image/);
    const jpeg = Buffer.concat([await picture(60, 40).jpeg().toBuffer(), Buffer.from('<html><body><script>alert(1)</script></body></html>')]);
    const jpegRes = await upload(jpeg, { type: 'image/jpeg' });
    expect(jpegRes.status).toBe(422);
    expect(jpegRes.json.message).toMatch(/JPEG/);
    const list = await call<MediaListResponse>(server, 'GET', '/api/media', { key: admin });
    expect(list.json.media.some((media) => media.bytes === gif.length || media.bytes === jpeg.length)).toBe(false);
  });

  it('refuses a pixel bomb (12000 x 12000, small in bytes) before decoding it', async () => {
    const bomb = pngBomb(12_000);
    expect(bomb.length).toBeLessThan(100_000);
    expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 12_000, height: 12_000 });
    const res = await upload(bomb, { type: 'image/png' });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('image_too_many_pixels');
    expect(res.json.message).toContain('12000 x 12000');
  });

  it('refuses a damaged image with a 422 saying it cannot be decoded', async () => {
    const whole = await picture(400, 300).png().toBuffer();
    const res = await upload(whole.subarray(0, Math.floor(whole.length / 2)), { type: 'image/png' });
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('image_unreadable');
  });

  it('answers 413 over MEDIA_MAX_BYTES, from Content-Length and while reading a chunked body', async () => {
    const big = Buffer.alloc(LIMIT_BYTES + 1, 0xff);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const declared = await upload(big, { type: 'image/jpeg' });
    expect(declared.status).toBe(413);
    expect(declared.json.code).toBe('media_too_large');
    expect(declared.json.message).toContain('8 MB');
    const chunks = [big.subarray(0, LIMIT_BYTES / 2), big.subarray(LIMIT_BYTES / 2)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await fetch(`${server.url}/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'image/jpeg' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ApiErrorBody).code).toBe('media_too_large');
  });

  it('needs blog:write to upload (a blog:read key is 403) and answers other methods with 405', async () => {
    const bytes = await picture(100, 80).png().toBuffer();
    const res = await upload(bytes, { key: reader, type: 'image/png' });
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('insufficient_permissions');
    const none = await call(server, 'POST', '/api/media', { body: bytes, headers: { 'content-type': 'image/png' } });
    expect(none.status).toBe(401);
    const put = await call(server, 'PUT', '/api/media', { key: writer });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('never logs an upload\'s bytes in the request log', async () => {
    const bytes = Buffer.concat([await picture(60, 40).gif().toBuffer(), Buffer.from('<script>LOGGED-MARKER</script>')]);
    const res = await upload(bytes, { type: 'image/gif' });
    expect(res.status).toBe(422);
    const file = path.join(server.dataDir, 'logs', `requests-${new Date().toISOString().slice(0, 10)}.jsonl`);
    const line = await vi.waitFor(
      () => {
        const found = readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text) as Record<string, unknown>)
          .find((entry) => entry.requestId === res.headers.get('x-request-id'));
        if (!found) throw new Error('not written yet');
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(line).toMatchObject({ method: 'POST', path: '/api/media', status: 422, bodyBytes: bytes.length });
    expect(line).not.toHaveProperty('body');
    expect(readFileSync(file, 'utf8')).not.toContain('LOGGED-MARKER');
  });
});

describe('the same picture, lists and deletes', () => {
  it('stores the same bytes once: 201, then 200 with the owners merged', async () => {
    const bytes = await picture(520, 400).jpeg().toBuffer();
    const first = await upload(bytes, { type: 'image/jpeg' });
    expect(first.status).toBe(201);
    const again = await upload(bytes, { type: 'image/jpeg' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(again.headers.get('location')).toBe(`/api/media/${first.json.id}`);
    const other = await upload(bytes, { key: otherWriter, type: 'image/jpeg' });
    expect(other.status).toBe(200);
    expect(other.json.owners).toEqual(['alice', 'bob']);
    const all = await call<MediaListResponse>(server, 'GET', '/api/media', { key: admin });
    expect(all.json.media.filter((media) => media.id === first.json.id)).toHaveLength(1);
  });

  it('lists the key owner\'s media only; blog:admin sees all, ?owner= narrows', async () => {
    const bobsOwn = await upload(await picture(300, 200).png().toBuffer(), { key: otherWriter, type: 'image/png' });
    expect(bobsOwn.status).toBe(201);
    const alice = await call<MediaListResponse>(server, 'GET', '/api/media', { key: writer });
    expect(alice.status).toBe(200);
    expect(alice.json.total).toBe(alice.json.media.length);
    expect(alice.json.media.every((media) => media.owners.includes('alice'))).toBe(true);
    expect(alice.json.media.some((media) => media.id === bobsOwn.json.id)).toBe(false);
    const times = alice.json.media.map((media) => media.uploaded_at);
    expect([...times].sort().reverse()).toEqual(times);
    const readerList = await call<MediaListResponse>(server, 'GET', '/api/media', { key: reader });
    expect(readerList.json.media.map((media) => media.id)).toEqual(alice.json.media.map((media) => media.id));
    const everyone = await call<MediaListResponse>(server, 'GET', '/api/media', { key: admin });
    expect(everyone.json.media.some((media) => media.id === bobsOwn.json.id)).toBe(true);
    const bobs = await call<MediaListResponse>(server, 'GET', '/api/media?owner=bob', { key: admin });
    expect(bobs.json.media.every((media) => media.owners.includes('bob'))).toBe(true);
    expect((await call(server, 'GET', '/api/media?owner=bob', { key: writer })).status).toBe(403);
    expect((await call(server, 'GET', '/api/media?sort=new', { key: writer })).status).toBe(400);
  });

  it('deletes an unused image: its files are then 404, and so is its id', async () => {
    const res = await upload(await picture(640, 480).jpeg().toBuffer(), { type: 'image/jpeg' });
    expect(res.status).toBe(201);
    expect((await call(server, 'DELETE', `/api/media/${res.json.id}`, { key: otherWriter })).status).toBe(403);
    const deleted = await call(server, 'DELETE', `/api/media/${res.json.id}`, { key: writer });
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ deleted: res.json.id });
    for (const variant of res.json.variants) expect((await fetchVariant(variant.url)).response.status).toBe(404);
    const gone = await call<ApiErrorBody>(server, 'GET', `/api/media/${res.json.id}`, { key: writer });
    expect(gone.status).toBe(404);
    expect(gone.json.code).toBe('media_not_found');
    expect((await call(server, 'DELETE', `/api/media/${res.json.id}`, { key: writer })).status).toBe(404);
  });

  it('refuses to delete an image a post shows (409 naming the post) and keeps serving it', async () => {
    const res = await upload(await picture(800, 500).jpeg().toBuffer(), { type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const title = 'A post with a chart of index credits';
    const post = await call(server, 'POST', '/api/blog', {
      key: writer,
      body: validPost({ title, content: `<p>See the chart.</p><p><img src="/media/${res.json.id}-480.webp" alt="x"></p>` }),
    });
    expect(post.status).toBe(201);
    const refused = await call<ApiErrorBody & { used_by: MediaResponse['used_by'] }>(server, 'DELETE', `/api/media/${res.json.id}`, { key: writer });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('media_in_use');
    expect(refused.json.message).toContain(title);
    expect(refused.json.used_by).toEqual([expect.objectContaining({ title })]);
    const one = await call<MediaResponse>(server, 'GET', `/api/media/${res.json.id}`, { key: reader });
    expect(one.json.used_by.map((use) => use.title)).toEqual([title]);
    for (const variant of res.json.variants) expect((await fetchVariant(variant.url)).response.status).toBe(200);
  });

  it('answers a bad or unknown /media/ name with a plain 404, and a repeat request with 304', async () => {
    for (const name of ['nothing.png', `${'0'.repeat(32)}-480.webp`, '..%2Fblog.json', `${'a'.repeat(32)}-480.exe`]) {
      const { response } = await fetchVariant(`/media/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const res = await upload(await picture(200, 150).png().toBuffer(), { type: 'image/png' });
    const first = await fetch(`${server.url}${res.json.url}`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const head = await fetch(`${server.url}${res.json.url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/png');
    // Raw HTTP: fetch adds Cache-Control: no-cache to a request with If-None-Match.
    const again = await rawRequest(server.url, `GET ${res.json.url} HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`);
    expect(again.status).toBe(304);
  });
});

describe('MEDIA_MAX_BYTES', () => {
  it('defaults to 10 MB, takes a whole number of bytes, and stops the start with a clear message otherwise', () => {
    expect(readServerEnv({}).mediaMaxBytes).toBe(10 * 1024 * 1024);
    expect(readServerEnv({ MEDIA_MAX_BYTES: '2097152' }).mediaMaxBytes).toBe(2_097_152);
    for (const bad of ['10MB', '-1', '0', '1.5', String(200 * 1024 * 1024)]) {
      expect(() => readServerEnv({ MEDIA_MAX_BYTES: bad })).toThrow(/MEDIA_MAX_BYTES must be a whole number of bytes/);
    }
  });
});

describe('a server busy re-encoding', () => {
  let busyServer: TestServer;
  let key: string;
  beforeAll(async () => {
    // One upload at work and none in line: a second is refused at once.
    busyServer = await startTestServer({ api: { writesPerMinute: 0, mediaWork: { jobs: 1, queueLength: 0 } } });
    key = await busyServer.createKey('busy writer', ['blog:write', 'blog:read'], 'alice');
  });
  afterAll(() => busyServer.close());

  /** One request on `agent`: its status, headers, body, and whether it went over a connection used before. */
  function send(agent: http.Agent, method: string, pathname: string, body?: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${busyServer.url}${pathname}`, { method, agent, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'image/jpeg', 'content-length': body.length } : {}) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8'), reused: request.reusedSocket }));
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  it('answers an upload it has no room for with 503 and Retry-After, reads its body away and keeps the connection for the next request', async () => {
    const photo = await picture(2400, 1800).jpeg({ quality: 95 }).toBuffer();
    const working = fetch(`${busyServer.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/jpeg' }, body: new Uint8Array(photo) });
    // Busy once the photo's body is read and its re-encoding (seconds) has begun: a one-byte upload is
    // answered 415 (not an image) until then, 503 from then on.
    await expect.poll(async () => (await fetch(`${busyServer.url}/api/media`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' }, body: 'x' })).status, { timeout: 20_000 }).toBe(503);

    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Two megabytes the server does not want: the answer arrives whole (a server closing with them
      // unread would reset the connection under it), and the connection carries the next request.
      const refused = await send(agent, 'POST', '/api/media', Buffer.alloc(2 * 1024 * 1024, 7));
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('10');
      expect(refused.headers.connection).not.toBe('close');
      expect((JSON.parse(refused.body) as ApiErrorBody).code).toBe('media_busy');
      const next = await send(agent, 'GET', '/api/media');
      expect(next.status).toBe(200);
      expect(next.reused).toBe(true);
    } finally {
      agent.destroy();
    }
    expect((await working).status).toBe(201);
  });
});
