/**
 * MediaService and the byte checks before it (media-bytes.ts), without a server: what a type is taken
 * as, where each format ends (anything after it is a polyglot, whatever it is), markup anywhere, the
 * widths and fallback made, a record presented, and uploads on a SQLite store in a temporary folder: the
 * same bytes stored once, owners merged, usage found in content and in cover images, delete refused
 * for another owner or a medium in use.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../contract/errors';
import { openSqliteStore } from '../store/sql/sql-store';
import { mediaRecord, newPost } from '../../tests/support/store-contract';
import type { Store } from '../store/store';
import { bytesAfterEnd, detectType, markupIn, polyglotProblem } from './media-bytes';
import { fallbackType, MediaService, mediaIdOf, presentMedia, variantWidths } from './media';

let png: Buffer;
let gif: Buffer;
let jpeg: Buffer;
let webp: Buffer;
let avif: Buffer;

beforeAll(async () => {
  const base = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 120, b: 200 } } });
  [png, gif, jpeg, webp, avif] = await Promise.all([base().png().toBuffer(), base().gif().toBuffer(), base().jpeg().toBuffer(), base().webp().toBuffer(), base().avif({ effort: 0 }).toBuffer()]);
});

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (raw: unknown) => raw,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('the bytes of an upload', () => {
  it('takes each format from its bytes, and names what anything else is', async () => {
    expect(await detectType(png)).toEqual({ ok: true, type: 'image/png' });
    expect(await detectType(gif)).toEqual({ ok: true, type: 'image/gif' });
    expect(await detectType(jpeg)).toEqual({ ok: true, type: 'image/jpeg' });
    expect(await detectType(webp)).toEqual({ ok: true, type: 'image/webp' });
    expect(await detectType(avif)).toEqual({ ok: true, type: 'image/avif' });
    expect(await detectType(Buffer.from('Dear diary,\n'))).toEqual({ ok: false, found: 'text/plain' });
    expect(await detectType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toMatchObject({ ok: false });
    expect(await detectType(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj', 'latin1'))).toEqual({ ok: false, found: 'application/pdf' });
    expect(await detectType(Buffer.alloc(0))).toEqual({ ok: false, found: 'an empty body' });
    expect(await detectType(Buffer.from([0, 1, 2, 3, 250, 251, 252, 253]))).toEqual({ ok: false, found: 'no known type' });
  });

  it('finds the end of each format: nothing follows a clean image', () => {
    expect(bytesAfterEnd(png, 'image/png')).toBe(0);
    expect(bytesAfterEnd(gif, 'image/gif')).toBe(0);
    expect(bytesAfterEnd(jpeg, 'image/jpeg')).toBe(0);
    expect(bytesAfterEnd(webp, 'image/webp')).toBe(0);
    expect(bytesAfterEnd(avif, 'image/avif')).toBe(0);
    for (const [bytes, type] of [[png, 'image/png'], [gif, 'image/gif'], [jpeg, 'image/jpeg'], [webp, 'image/webp'], [avif, 'image/avif']] as const) {
      expect(polyglotProblem(bytes, type), type).toBeNull();
    }
    // A few bytes of padding after a JPEG's end are what some cameras write.
    expect(polyglotProblem(Buffer.concat([jpeg, Buffer.alloc(8)]), 'image/jpeg')).toBeNull();
  });

  it('refuses anything after the end of any format, whatever the bytes', () => {
    const images = [[png, 'image/png'], [gif, 'image/gif'], [webp, 'image/webp'], [avif, 'image/avif']] as const;
    fc.assert(
      fc.property(fc.constantFrom(...images), fc.uint8Array({ minLength: 1, maxLength: 200 }), ([image, type], tail) => {
        const problem = polyglotProblem(Buffer.concat([image, tail]), type);
        expect(problem).not.toBeNull();
      }),
      { numRuns: 500 },
    );
    expect(polyglotProblem(Buffer.concat([jpeg, Buffer.from('PK\x03\x04 a zip archive follows here, longer than any padding')]), 'image/jpeg')).toMatch(/follow the end of the JPEG image/);
  });

  it('finds HTML or script markup anywhere, in any case', () => {
    for (const markup of ['<script>', '<SCRIPT src=x>', '<html>', '<?php echo 1; ?>', '<svg onload=alert(1)>', '<iframe src=x>', '<!DOCTYPE html>']) {
      expect(markupIn(Buffer.from(`\x00\x01${markup}\x02`, 'latin1')), markup).not.toBeNull();
    }
    expect(markupIn(Buffer.from('<svgx> <scripts are fine in prose> <htmlish'))).toBeNull();
    const inside = Buffer.from(png);
    // Markup in the middle of the image (a text chunk, say) is refused too, though nothing follows the end.
    const withText = Buffer.concat([inside.subarray(0, 33), Buffer.from('<script>alert(1)</script>'), inside.subarray(33)]);
    expect(polyglotProblem(withText, 'image/png')).toMatch(/markup/);
  });
});

describe('what is made of an upload', () => {
  it('makes each standard width not wider than the picture, or its own width when narrower than all', () => {
    expect(variantWidths(3000)).toEqual([480, 960, 1600]);
    expect(variantWidths(1600)).toEqual([480, 960, 1600]);
    expect(variantWidths(1599)).toEqual([480, 960, 1599]);
    expect(variantWidths(640)).toEqual([480, 640]);
    expect(variantWidths(480)).toEqual([480]);
    expect(variantWidths(479)).toEqual([479]);
    expect(variantWidths(1)).toEqual([1]);
  });

  it('falls back to the original format for PNG, JPEG and GIF, else PNG with transparency and JPEG without', () => {
    expect(fallbackType('image/png', false)).toBe('image/png');
    expect(fallbackType('image/jpeg', true)).toBe('image/jpeg');
    expect(fallbackType('image/gif', true)).toBe('image/gif');
    expect(fallbackType('image/webp', true)).toBe('image/png');
    expect(fallbackType('image/webp', false)).toBe('image/jpeg');
    expect(fallbackType('image/avif', true)).toBe('image/png');
    expect(fallbackType('image/avif', false)).toBe('image/jpeg');
  });

  it('presents a record with its widest fallback as url, srcsets in order, and pasteable Markdown and HTML', () => {
    const id = 'b'.repeat(32);
    const record = mediaRecord(id, {
      width: 2000,
      height: 1000,
      variants: [
        { file: `${id}-960.webp`, width: 960, height: 480, type: 'image/webp', bytes: 10 },
        { file: `${id}-480.webp`, width: 480, height: 240, type: 'image/webp', bytes: 5 },
        { file: `${id}-480.png`, width: 480, height: 240, type: 'image/png', bytes: 7 },
        { file: `${id}-960.png`, width: 960, height: 480, type: 'image/png', bytes: 20 },
        { file: `${id}-480.avif`, width: 480, height: 240, type: 'image/avif', bytes: 3 },
      ],
    });
    const media = presentMedia(record, []);
    expect(media.url).toBe(`/media/${id}-960.png`);
    expect(media.srcset).toBe(`/media/${id}-480.webp 480w, /media/${id}-960.webp 960w`);
    expect(media.srcset_avif).toBe(`/media/${id}-480.avif 480w`);
    expect(media.stored_bytes).toBe(45);
    expect(media.markdown).toBe(`![Describe the picture](/media/${id}-960.png)`);
    expect(media.html).toBe(
      `<img src="/media/${id}-960.png" srcset="/media/${id}-480.webp 480w, /media/${id}-960.webp 960w" sizes="(min-width: 800px) 760px, 100vw" width="2000" height="1000" alt="Describe the picture">`,
    );
  });
});

describe('MediaService on a SQLite store', () => {
  let dir: string;
  let store: Store;
  let service: MediaService;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'iul-media-service-'));
    store = await openSqliteStore(dir);
    service = new MediaService(store, { maxBytes: 200_000, now: () => new Date('2026-11-01T10:00:00.000Z') });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an upload under the hash of its bytes once; the same bytes again add their owner', async () => {
    const first = await service.upload(png, { owner: 'alice', keyId: 'key_a' });
    expect(first.created).toBe(true);
    expect(first.record).toMatchObject({ id: mediaIdOf(png), type: 'image/png', width: 40, height: 30, owners: ['alice'], uploadedByKeyId: 'key_a' });
    expect(first.record.variants.map((variant) => `${variant.width} ${variant.type}`).sort()).toEqual(['40 image/avif', '40 image/png', '40 image/webp']);
    const again = await service.upload(png, { owner: 'bob', keyId: 'key_b' });
    expect(again).toMatchObject({ created: false, record: { id: first.record.id, owners: ['alice', 'bob'], uploadedByKeyId: 'key_a' } });
    expect((await service.list()).filter((record) => record.id === first.record.id)).toHaveLength(1);
  });

  it('works on as many uploads at once as it is set to, refuses one more with a 503 and Retry-After, and takes it once there is room', async () => {
    // One at work, none in line: a photo-sized picture (seconds of encoding) holds the only place.
    const oneAtATime = new MediaService(store, { maxBytes: 10_000_000, jobs: 1, queueLength: 0 });
    const noise = Buffer.alloc(1200 * 900 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2_654_435_761) >>> 24;
    const photo = await sharp(noise, { raw: { width: 1200, height: 900, channels: 3 } }).png().toBuffer();
    const working = oneAtATime.upload(photo, { owner: 'alice', keyId: null });
    await expect.poll(() => oneAtATime.work).toEqual({ active: 1, waiting: 0 });
    const busy = await rejection(oneAtATime.upload(jpeg, { owner: 'bob', keyId: null }));
    expect(busy.code).toBe('media_busy');
    expect(busy.status).toBe(503);
    expect(busy.headers['Retry-After']).toBe('10');
    expect(() => oneAtATime.refuseWhenBusy()).toThrow(busy.message);
    expect(busy.message).toBe('The server is busy re-encoding images (1 at work, 0 waiting: as many as it takes at once), so this one was not taken. Send it again in 10 seconds.');
    expect(await store.media.get(mediaIdOf(jpeg))).toBeNull();
    expect((await working).created).toBe(true);
    expect((await oneAtATime.upload(jpeg, { owner: 'bob', keyId: null })).created).toBe(true);
  });

  it('refuses an upload over its limit with the limit in the message', async () => {
    const error = await rejection(service.upload(Buffer.alloc(200_001), { owner: 'alice', keyId: null }));
    expect(error.code).toBe('media_too_large');
    expect(error.message).toContain('0.2 MB');
  });

  it('finds the posts that show a medium in their content or as cover image, the trash included', async () => {
    const stored = await service.upload(gif, { owner: 'alice', keyId: null });
    const id = stored.record.id;
    const inContent = await store.posts.create(newPost('Shows it', { status: 'draft', content: `<p><img src="/media/${id}-40.webp" alt="a"></p>` }), { slugBase: 'shows-it' });
    if (inContent.kind !== 'created') throw new Error('not created');
    const asCover = await store.posts.create(newPost('Covers with it', { status: 'draft' }), { slugBase: 'covers-with-it' });
    if (asCover.kind !== 'created') throw new Error('not created');
    const cover = { mediaId: id, alt: 'a', src: `/media/${id}-40.gif`, srcset: '', srcsetAvif: '', width: 40, height: 30 };
    const current = await store.posts.getById(asCover.post.id);
    if (!current) throw new Error('missing');
    await store.posts.save({ ...current, coverImage: cover, deletedAt: '2026-11-01T11:00:00.000Z' }, { expectedRevision: current.revision, changed: ['coverImage'] });
    const uses = await service.usage(id);
    expect(uses.map((use) => [use.title, use.status]).sort()).toEqual([
      ['Covers with it', 'trashed'],
      ['Shows it', 'draft'],
    ]);

    const notMine = await rejection(service.delete(id, { owner: 'mallory', admin: false }));
    expect(notMine.code).toBe('not_media_owner');
    expect(notMine.message).toContain('"alice"');
    const inUse = await rejection(service.delete(id, { owner: 'alice', admin: false }));
    expect(inUse.code).toBe('media_in_use');
    expect(inUse.message).toMatch(/"Shows it" \(draft\)/);
    expect(inUse.extra.used_by).toHaveLength(2);
    await store.posts.purge(inContent.post.id);
    await store.posts.purge(asCover.post.id);
    await service.delete(id, { owner: 'site', admin: true });
    expect(await service.get(id)).toBeNull();
    expect((await rejection(service.delete(id, { owner: 'alice', admin: false }))).code).toBe('media_not_found');
  });
});
