/**
 * Image uploads, mounted at /api/media (api/services/media.ts does the checking and re-encoding).
 * Each route lists its steps in the order they run, as the blog routes do:
 *
 *   POST   /api/media        upload an image (blog:write; the write rate limit): the raw bytes with an
 *                            image/* or application/octet-stream Content-Type, or multipart/form-data
 *                            with one file. 201 with Location, or 200 when the same bytes were stored.
 *   GET    /api/media        the images of the key's owner, newest first (blog:read or blog:write);
 *                            blog:admin sees every owner's, `?owner=` narrows to one
 *   GET    /api/media/:id    one image with the posts that use it
 *   DELETE /api/media/:id    delete an image no post uses (its uploader's key or blog:admin): 409
 *                            naming the posts that still do
 *
 * The body is read as a stream with the limit enforced while reading: a Content-Length over it is a
 * 413 before anything is read, and a body that grows past it stops being read there. The bytes are
 * never put in ctx.state, so the request log (api/request-log/) neither reads nor logs them.
 */
import type { IncomingMessage } from 'node:http';
import Router from '@koa/router';
import busboy from 'busboy';
import type { ParameterizedContext } from 'koa';
import { ApiError } from '../../../contract/errors';
import { type ApiKeySummary, permits } from '../../../contract/keys';
import { MEDIA_TYPES, type MediaListResponse, type MediaResponse } from '../../../contract/media';
import type { MediaDeletedResponse } from '../../../contract/media-schemas';
import type { KeyService } from '../../services/keys';
import { type MediaService, mediaTooLarge, presentMedia } from '../../services/media';
import { authenticate, requirePermission } from '../auth';
import type { ApiContext, ApiState } from '../context';
import { ALL_METHODS, allowOnly, noSuchEndpoint } from '../methods';
import { type WriteLimits, writeRateLimit } from '../rate-limit';
import { loggableType } from '../../request-log/redact';
import { type InputParser, noInput, unknownParameters, validate } from '../validate';

export interface MediaRouteDeps {
  keys: KeyService;
  media: MediaService;
  /** Shared with the blog's writes: an upload is a write. */
  writeLimits: WriteLimits;
}

/** What a multipart body may add around its file (boundaries, part headers, a few small fields). */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** What POST /api/media takes, as the request log names it for a 415. */
const UPLOAD_TYPES: readonly string[] = [...Object.keys(MEDIA_TYPES), 'application/octet-stream', 'multipart/form-data'];

/** How to send an image, for the 415 of a body that is not one. */
const HOW_TO_SEND =
  'Send the image file itself as the body with its type (Content-Type: image/jpeg, image/png, image/webp, image/avif or image/gif, or application/octet-stream), or as multipart/form-data with the file in a field named file.';

function notAnImageBody(received: string): ApiError {
  const what = received === '' ? 'no Content-Type' : `Content-Type ${received}`;
  const hints: string[] = [];
  if (received === 'application/x-www-form-urlencoded') {
    hints.push("curl -d or --data sends form text: use --data-binary @photo.jpg -H 'Content-Type: image/jpeg', or -F file=@photo.jpg.");
  }
  if (received === 'application/json' || received.endsWith('+json')) {
    hints.push('Images are not sent inside JSON (no base64 or data: URLs): upload the file first, then use its url or id in the post.');
  }
  return new ApiError('unsupported_image', {
    message: `The request had ${what}, which is not an image upload. ${HOW_TO_SEND}`,
    hints,
    extra: { receivedContentType: received === '' ? null : received },
    facts: { contentType: received === '' ? null : loggableType(received), accepted: UPLOAD_TYPES },
  });
}

/**
 * The raw body's bytes, refused (413) once they pass `limitBytes`: the rest is not read and the
 * answer closes the connection.
 */
function readRawBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      done();
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limitBytes) {
        req.pause();
        settle(() => reject(mediaTooLarge(limitBytes)));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    req.on('error', (error: Error) => settle(() => reject(error)));
    req.on('close', () => settle(() => reject(Object.assign(new Error('The client closed the request before sending all of its body.'), { code: 'ECONNRESET' }))));
  });
}

function badMultipart(detail: string): ApiError {
  return new ApiError('bad_request', { message: `The multipart/form-data body could not be read: ${detail}. ${HOW_TO_SEND}` });
}

/**
 * The one file of a multipart/form-data body (in whatever field; other text fields are ignored),
 * refused (413) once it passes `limitBytes` while it streams in; a 400 without a file or with more
 * than one.
 */
function readMultipartFile(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      done();
    };
    const fail = (error: unknown) =>
      settle(() => {
        req.unpipe(parser);
        req.pause();
        reject(error);
      });
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: limitBytes, files: 1, fields: 20, parts: 21, fieldSize: 64 * 1024 } });
    } catch (error) {
      reject(badMultipart(error instanceof Error ? error.message : String(error)));
      return;
    }
    let file: Buffer | null = null;
    let files = 0;
    parser.on('file', (_name, stream) => {
      files += 1;
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(mediaTooLarge(limitBytes)));
      stream.on('end', () => {
        if (!settled) file = Buffer.concat(chunks, size);
      });
    });
    parser.on('filesLimit', () => fail(badMultipart('it holds more than one file; upload one image per request')));
    parser.on('partsLimit', () => fail(badMultipart('it holds too many parts')));
    parser.on('error', (error: unknown) => fail(badMultipart(error instanceof Error ? error.message : String(error))));
    parser.on('close', () =>
      settle(() => {
        if (file === null) reject(badMultipart(files === 0 ? 'it holds no file (add the image as a file field named file)' : 'its file was cut short'));
        else resolve(file);
      }),
    );
    req.on('error', (error: Error) => fail(error));
    req.on('close', () => {
      if (!req.complete) fail(Object.assign(new Error('The client closed the request before sending all of its body.'), { code: 'ECONNRESET' }));
    });
    req.pipe(parser);
  });
}

/** The uploaded bytes, from a raw or a multipart body; refuses what is not an upload, or one the server is too busy for, before reading it. */
function uploadBody(media: Pick<MediaService, 'maxBytes' | 'refuseWhenBusy'>): InputParser<Buffer> {
  const limitBytes = media.maxBytes;
  return async (ctx) => {
    const type = ctx.request.type;
    const multipart = type === 'multipart/form-data';
    if (!multipart && type !== '' && !type.startsWith('image/') && type !== 'application/octet-stream') throw notAnImageBody(type);
    const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
    if (encoding !== 'identity') {
      throw new ApiError('unsupported_image', { message: `Compressed request bodies (${encoding}) are not taken: send the image file as it is (images are compressed already).` });
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes + (multipart ? MULTIPART_OVERHEAD_BYTES : 0)) throw mediaTooLarge(limitBytes, declared, declared <= 2 * limitBytes);
    media.refuseWhenBusy(!ctx.get('Content-Length'));
    return multipart ? readMultipartFile(ctx.req, limitBytes) : readRawBody(ctx.req, limitBytes);
  };
}

function keyOf(ctx: ParameterizedContext<ApiState>): ApiKeySummary {
  const key = ctx.state.key;
  if (!key) throw new Error('unreachable: media routes authenticate first');
  return key;
}

/** A 403 unless the key reads (blog:read or blog:write; blog:admin holds both). */
function requireReader(key: ApiKeySummary): void {
  if (!permits(key.permissions, 'blog:read') && !permits(key.permissions, 'blog:write')) requirePermission(key, 'blog:read');
}

function upload(deps: MediaRouteDeps) {
  return async (ctx: ApiContext<Buffer>) => {
    const key = keyOf(ctx);
    const outcome = await deps.media.upload(ctx.input, { owner: key.owner, keyId: key.id });
    const usedBy = outcome.created ? [] : await deps.media.usage(outcome.record.id);
    ctx.status = outcome.created ? 201 : 200;
    ctx.set('Location', `/api/media/${outcome.record.id}`);
    ctx.set('Cache-Control', 'no-store');
    const body: MediaResponse = presentMedia(outcome.record, usedBy);
    ctx.body = body;
  };
}

const LIST_PARAMETERS = ['owner'];

const listInput: InputParser<{ owner: string | undefined }> = (ctx) => {
  const unknown = Object.keys(ctx.query).filter((name) => !LIST_PARAMETERS.includes(name));
  if (unknown.length > 0) throw unknownParameters(unknown, LIST_PARAMETERS);
  const raw = ctx.query.owner;
  const owner = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return { owner: owner === '' ? undefined : owner };
};

function list(deps: MediaRouteDeps) {
  return async (ctx: ApiContext<{ owner: string | undefined }>) => {
    const key = keyOf(ctx);
    requireReader(key);
    const admin = key.permissions.includes('blog:admin');
    const asked = ctx.input.owner;
    const own = key.owner;
    if (!admin && asked !== undefined && asked !== own) {
      throw new ApiError('insufficient_permissions', {
        message: `This key lists only its owner's ("${own}") images; listing those of "${asked}" needs a key holding blog:admin.`,
        extra: { requiredPermission: 'blog:admin', keyPermissions: key.permissions },
      });
    }
    const records = await deps.media.list(admin ? asked : own);
    const usage = await deps.media.usageOf(records);
    ctx.set('Cache-Control', 'no-cache');
    const body: MediaListResponse = { media: records.map((record) => presentMedia(record, usage.get(record.id) ?? [])), total: records.length };
    ctx.body = body;
  };
}

function idOf(ctx: ApiContext<unknown>): string {
  return ctx.params?.id ?? '';
}

function getOne(deps: MediaRouteDeps) {
  return async (ctx: ApiContext) => {
    requireReader(keyOf(ctx));
    const record = await deps.media.require(idOf(ctx));
    ctx.set('Cache-Control', 'no-cache');
    const body: MediaResponse = presentMedia(record, await deps.media.usage(record.id));
    ctx.body = body;
  };
}

function remove(deps: MediaRouteDeps) {
  return async (ctx: ApiContext) => {
    const key = keyOf(ctx);
    const id = idOf(ctx);
    await deps.media.delete(id, { owner: key.owner, admin: key.permissions.includes('blog:admin') });
    ctx.set('Cache-Control', 'no-store');
    const body: MediaDeletedResponse = { deleted: id };
    ctx.body = body;
  };
}

export function mediaRoutes(deps: MediaRouteDeps): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/media', methods: [...ALL_METHODS] });
  const anyKey = authenticate(deps.keys);
  const writer = authenticate(deps.keys, { permission: 'blog:write' });
  const limited = writeRateLimit(deps.writeLimits);

  router.post('/', writer, limited, validate(uploadBody(deps.media), upload(deps)));
  router.get('/', anyKey, validate(listInput, list(deps)));
  router.all('/', allowOnly('GET', 'HEAD', 'POST'));

  router.get('/:id', anyKey, validate(noInput, getOne(deps)));
  router.delete('/:id', writer, limited, validate(noInput, remove(deps)));
  router.all('/:id', allowOnly('GET', 'HEAD', 'DELETE'));

  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
