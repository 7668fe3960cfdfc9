/**
 * Pictures in posts through the API, over real HTTP: a cover image named by its media id, its
 * /media/ path or this site's URL comes back resolved (url, srcsets, size, alt) in every post answer;
 * anything else is a 400 on cover_image saying to upload it; PATCH null removes it and the revision
 * history lists and reverts it. An uploaded `<img>` in the content gets its size, srcset and loading
 * hints; an external one and a disallowed iframe are removed with warnings that say what to do.
 */
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { ListPostsResponse } from '../../contract/blog-reader';
import type { ApiErrorBody } from '../../contract/errors';
import { type CoverImageResponse, EMBEDDABLE_VIDEO_HOSTS, type MediaResponse, POST_IMAGE_SIZES } from '../../contract/media';
import type { GetPostByIdResponse, PostWriteResponse } from '../../contract/post-lifecycle';
import { startTestServer, type TestServer } from '../support/server';
import { call, validPost } from './support';

const SITE = 'https://blog.example.com';
const UPLOAD_HINT = 'upload it with POST /api/media (blogpost publish does this for local files)';
const ALT = 'A family reviewing a policy illustration at the kitchen table';

let server: TestServer;
let key: string;
let photo: MediaResponse;
let chart: MediaResponse;

/** A picture with some texture (a flat colour encodes to almost nothing). */
function picture(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 140 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } });
  return (format === 'jpeg' ? image.jpeg({ quality: 80 }) : image.png()).toBuffer();
}

async function upload(bytes: Buffer, type: string): Promise<MediaResponse> {
  const res = await call<MediaResponse>(server, 'POST', '/api/media', { key, body: bytes, headers: { 'content-type': type } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

async function create(overrides: Record<string, unknown>) {
  // A 201's body, or a 400's with its field problems.
  return call<CreatePostResponse & Pick<ApiErrorBody, 'errors'>>(server, 'POST', '/api/blog', { key, body: validPost({ title: `Post ${Math.random().toString(36).slice(2)}`, ...overrides }) });
}

/** The size of the variant an upload is shown at (its widest in the fallback format). */
function sizeOf(media: MediaResponse): { width: number; height: number } {
  const shown = media.variants.find((variant) => variant.url === media.url);
  return { width: shown?.width ?? 0, height: shown?.height ?? 0 };
}

/** The cover_image an answer should carry for `media`. */
function coverOf(media: MediaResponse, alt: string): CoverImageResponse {
  return { id: media.id, url: media.url, srcset: media.srcset, srcset_avif: media.srcset_avif, ...sizeOf(media), alt };
}

beforeAll(async () => {
  server = await startTestServer({ env: { SITE_URL: SITE }, api: { writesPerMinute: 0, validationsPerMinute: 0 } });
  key = await server.createKey('cover-author', ['blog:write'], 'cover-author');
  [photo, chart] = [await upload(await picture(1200, 800, 'jpeg'), 'image/jpeg'), await upload(await picture(1200, 800, 'png'), 'image/png')];
});
afterAll(() => server?.close());

describe('cover_image', () => {
  it.each([
    ['its media id', () => photo.id],
    ['its /media/ path', () => photo.variants[0]?.url ?? ''],
    ["this site's URL to it", () => `${SITE}${photo.url}`],
  ])('names an upload by %s, resolved in every answer', async (_how, reference) => {
    const res = await create({ status: 'published', cover_image: reference(), cover_image_alt: `  ${ALT} ` });
    expect(res.status, res.text).toBe(201);
    const cover = coverOf(photo, ALT);
    expect(res.json.post.cover_image).toEqual(cover);
    // 1200 pixels wide: variants at 480, 960 and its own 1200 (none wider than the original).
    expect(cover).toMatchObject({ url: `/media/${photo.id}-1200.jpg`, width: 1200, height: 800 });
    expect(cover.srcset).toBe(`/media/${photo.id}-480.webp 480w, /media/${photo.id}-960.webp 960w, /media/${photo.id}-1200.webp 1200w`);
    expect(res.json.warnings).toEqual([]);
    const read = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${res.json.post.id}`);
    expect(read.json.post.cover_image).toEqual(cover);
    const list = await call<ListPostsResponse>(server, 'GET', '/api/blog?limit=50');
    expect(list.json.posts.find((post) => post.id === res.json.post.id)?.cover_image).toEqual(cover);
  });

  it('is null in the answers of a post without one', async () => {
    const res = await create({});
    expect(res.json.post.cover_image).toBeNull();
    const read = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${res.json.post.id}`, { key });
    expect(read.json.post.cover_image).toBeNull();
  });

  it('without alt text is kept, with a warning naming it', async () => {
    const res = await create({ cover_image: photo.id });
    expect(res.status).toBe(201);
    expect(res.json.post.cover_image?.alt).toBe('');
    expect(res.json.warnings).toContain(`The cover image ${photo.id} has no alt text: send cover_image_alt describing it; a screen reader otherwise reads nothing`);
  });

  it.each([
    ['another host', `https://cdn.example.com/media/${'a'.repeat(32)}-960.jpg`, `cover_image "https://cdn.example.com/media/${'a'.repeat(32)}-960.jpg" is not an image uploaded to this site: ${UPLOAD_HINT}`],
    ['another path', `${SITE}/images/cover.jpg`, `cover_image must name an uploaded image (its media id, its /media/... path or this site's URL to it): ${UPLOAD_HINT}`],
    ['an unknown media id', 'f'.repeat(32), `cover_image: no uploaded image has the id ${'f'.repeat(32)}: ${UPLOAD_HINT}`],
  ])('naming %s is a 400 on cover_image saying to upload it', async (_what, reference, message) => {
    for (const path of ['/api/blog', '/api/blog/validate']) {
      const res = await call<ApiErrorBody>(server, 'POST', path, { key, body: validPost({ cover_image: reference }) });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('validation_failed');
      expect(res.json.errors).toEqual([{ field: 'cover_image', problem: 'invalid', message }]);
    }
  });

  it('is resolved by validate without saving anything', async () => {
    const res = await call<ValidatePostResponse>(server, 'POST', '/api/blog/validate', { key, body: validPost({ cover_image: chart.id, cover_image_alt: 'Chart' }) });
    expect(res.status, res.text).toBe(200);
    expect(res.json.post.cover_image).toEqual(coverOf(chart, 'Chart'));
  });

  it('is removed by PATCH null, listed as a change, and brought back by a revert', async () => {
    const created = await create({ cover_image: photo.id, cover_image_alt: ALT });
    const { id, etag } = created.json.post;
    const removed = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, { key, body: { cover_image: null }, headers: { 'if-match': etag } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.json.post.cover_image).toBeNull();
    expect(removed.json.changed).toEqual([{ field: 'cover_image', before: coverOf(photo, ALT), after: null }]);
    expect(removed.json.warnings).toEqual([]);

    const replaced = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, { key, body: { cover_image: chart.url, cover_image_alt: 'Chart' }, headers: { 'if-match': removed.json.etag } });
    expect(replaced.json.post.cover_image).toEqual(coverOf(chart, 'Chart'));
    // Another field changed: the cover stays as it is.
    const retitled = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${id}`, { key, body: { title: 'A New Title For The Covered Post' }, headers: { 'if-match': replaced.json.etag } });
    expect(retitled.json.changed.map((change) => change.field)).toEqual(['title']);
    expect(retitled.json.post.cover_image).toEqual(coverOf(chart, 'Chart'));

    const reverted = await call<PostWriteResponse>(server, 'POST', `/api/blog/${id}/revisions/1/revert`, { key, headers: { 'if-match': retitled.json.etag } });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.json.post.cover_image).toEqual(coverOf(photo, ALT));
    expect(reverted.json.changed.map((change) => change.field)).toContain('cover_image');
  });

  it('replaced without new alt text drops the old one (it described another picture)', async () => {
    const created = await create({ cover_image: photo.id, cover_image_alt: ALT });
    const res = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key, body: { cover_image: chart.id }, headers: { 'if-match': created.json.post.etag } });
    expect(res.json.post.cover_image).toEqual(coverOf(chart, ''));
    expect(res.json.warnings).toContain(`The cover image ${chart.id} has no alt text: send cover_image_alt describing it; a screen reader otherwise reads nothing`);
  });

  it('as any string is either an upload resolved or a 400, never a 500 or a foreign URL stored', async () => {
    const id = photo.id;
    const reference = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(id, id.toUpperCase(), `${id} `, `/media/${id}-480.webp`, `/media/${id}-99999.webp`, `${SITE}/media/${id}-960.jpg`, `http://blog.example.com/media/${id}-960.jpg`),
      fc.constantFrom(`https://evil.example/media/${id}-960.jpg`, `//evil.example/media/${id}-960.jpg`, `/media/../${id}-960.jpg`, `data:image/png;base64,AAAA`, `${SITE}/media/${id}-960.jpg?x=1`, `${SITE}/media/${id}-960.exe`),
      fc.tuple(fc.constantFrom(`${SITE}/media/`, '/media/', ''), fc.stringMatching(/^[0-9a-f]{0,34}(-[0-9]{1,6})?(\.[a-z]{3,4})?$/)).map(([prefix, tail]) => `${prefix}${tail}`),
    );
    await fc.assert(
      fc.asyncProperty(reference, async (cover) => {
        const res = await create({ cover_image: cover, cover_image_alt: 'x' });
        expect([201, 400], res.text).toContain(res.status);
        if (res.status === 201) {
          expect(res.json.post.cover_image).toEqual(coverOf(photo, 'x'));
        } else {
          expect(res.json.errors?.map((error) => error.field)).toContain('cover_image');
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('pictures in the content', () => {
  it('an upload gets its size, srcset and loading hints, and keeps its alt text', async () => {
    const content = `<p>Intro.</p><figure><img src="${SITE}/media/${photo.id}-480.webp" alt="The illustration"><figcaption>Year 10</figcaption></figure><p><img src="${chart.id}" alt="Chart"></p>`;
    const res = await create({ content });
    expect(res.status, res.text).toBe(201);
    expect(res.json.warnings).toEqual([]);
    const read = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${res.json.post.id}`, { key });
    const img = (media: MediaResponse, alt: string) =>
      `<img src="${media.url}" alt="${alt}" srcset="${media.srcset}" sizes="${POST_IMAGE_SIZES}" width="${sizeOf(media).width}" height="${sizeOf(media).height}" loading="lazy" decoding="async" />`;
    expect(read.json.post.content).toBe(`<p>Intro.</p><figure>${img(photo, 'The illustration')}<figcaption>Year 10</figcaption></figure><p>${img(chart, 'Chart')}</p>`);
  });

  it('an upload without alt text is kept, with a warning naming it', async () => {
    const res = await create({ content: `<p>Text.</p><img src="${photo.url}">` });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual([`The image ${photo.url} has no alt text: add alt text describing it; a screen reader otherwise reads nothing`]);
  });

  it('an image of no upload is a 400 on content naming it', async () => {
    const missing = `/media/${'e'.repeat(32)}-960.webp`;
    const res = await create({ content: `<p>Text.</p><img src="${missing}" alt="x">` });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ field: 'content', problem: 'invalid', message: `content has <img src="${missing}">, but no uploaded image has the id ${'e'.repeat(32)}: ${UPLOAD_HINT}` }]);
  });

  it('an external image and a disallowed iframe are removed, with what to do', async () => {
    const res = await create({ content: '<p>Text.</p><img src="https://example.com/chart.png" alt="Chart"><iframe src="https://vimeo.com/123"></iframe><iframe src="https://player.vimeo.com/video/1" title="Video"></iframe>' });
    expect(res.status).toBe(201);
    expect(res.json.warnings).toEqual([
      `Removed <img src="https://example.com/chart.png">: it is not an image uploaded to this site; ${UPLOAD_HINT}`,
      `Removed <iframe> from a host that is not allowed (vimeo.com): embed videos from ${EMBEDDABLE_VIDEO_HOSTS.join(', ')}`,
    ]);
    const read = await call<GetPostByIdResponse>(server, 'GET', `/api/blog/${res.json.post.id}`, { key });
    expect(read.json.post.content).toBe('<p>Text.</p><iframe src="https://player.vimeo.com/video/1" title="Video"></iframe>');
  });

  it('stays as it is when the post is changed again', async () => {
    const created = await create({ content: `<p>Text.</p><img src="${photo.id}" alt="Photo">` });
    const res = await call<PostWriteResponse>(server, 'PATCH', `/api/blog/${created.json.post.id}`, { key, body: { excerpt: 'A new excerpt.' }, headers: { 'if-match': created.json.post.etag } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.changed.map((change) => change.field)).toEqual(['excerpt']);
    expect(res.json.warnings).toEqual([]);
  });
});
