/**
 * The subset of Ghost's Admin API that writing apps use (iA Writer, Ulysses, the Obsidian Ghost
 * publishers), under /ghost/api/admin/ (and the versioned /ghost/api/v<n>/admin/, /ghost/api/canary/admin/
 * older clients call): a door to the same post service as the blog API and Micropub (decision 0033).
 *
 *   GET  /site/                   title, description, url, version: no key needed, as Ghost
 *   POST /posts/?source=html      create from html (mobiledoc and lexical refused, 422)
 *   GET  /posts/?filter=slug:<s>  the post of that slug, or an empty list (apps look up before updating)
 *   GET  /posts/:id/              read one post
 *   PUT  /posts/:id/              update; the body's updated_at must be the stored one (409 otherwise)
 *   POST /images/upload/          multipart `file` through the image pipeline: {images: [{url, ref}]}
 *
 * Each request with a key: `Authorization: Ghost <JWT>` checked (admin-key.ts) against the Ghost key its
 * `kid` names (the key service: unknown and revoked keys refused), the key's permission (blog:write to
 * write, a reading key to read), the write allowance shared with the other doors, the mapping in one
 * module (post-fields.ts), then PostService as the key. Errors in Ghost's shape:
 * `{"errors":[{"message","context","type","code"...}]}`. The request log records these paths as the
 * API's and Micropub's: the path names the door, /ghost/.
 */
import busboy from 'busboy';
import type { Middleware, ParameterizedContext } from 'koa';
import { ApiError } from '../../contract/errors';
import { type ApiKeySummary, type ApiPermission, permits, readsDrafts } from '../../contract/keys';
import { uploadIdOf } from '../../contract/media';
import { API_HEADERS } from '../http/headers';
import type { ApiState } from '../http/context';
import { isValidHost } from '../http/methods';
import { ownOrigin } from '../http/proxy-trust';
import { type WriteLimits, writeRateLimit } from '../http/rate-limit';
import { keyActor } from '../services/actors';
import { authorNameOf, checkedDoorPost } from '../services/door-posts';
import { heldMessage } from '../services/compliance-gate';
import { presentMedia } from '../services/media';
import { payloadOf } from '../services/post-versions';
import type { Services } from '../services/services';
import type { PostRecord } from '../store/store';
import { checkToken, ghostSecret, readToken } from './admin-key';
import { fieldsFromGhost, GhostFieldError, ghostPost, payloadFromGhost } from './post-fields';

/** The Ghost version this subset answers as (Content-Version, /site/'s version). */
export const GHOST_VERSION = '5.0';
const BODY_LIMIT_BYTES = 4 * 1_048_576;
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const ADMIN_PATH = /^\/ghost\/api\/(?:v\d+(?:\.\d+)?\/|canary\/)?admin(\/.*)?$/;

/** The paths this door answers. */
export function isGhostPath(path: string): boolean {
  return ADMIN_PATH.test(path);
}

type GhostContext = ParameterizedContext<ApiState>;

type GhostErrorType = 'BadRequestError' | 'UnauthorizedError' | 'NoPermissionError' | 'NotFoundError' | 'ValidationError' | 'UpdateCollisionError' | 'RequestEntityTooLargeError' | 'UnsupportedMediaTypeError' | 'TooManyRequestsError' | 'MethodNotAllowedError' | 'InternalServerError';

/** An answer in Ghost's error shape. */
export class GhostError extends Error {
  override readonly name = 'GhostError';
  constructor(
    readonly status: number,
    readonly type: GhostErrorType,
    message: string,
    readonly context: string | null,
    readonly code: string | null = null,
    readonly extra: { property?: string; details?: Record<string, unknown>; headers?: Record<string, string>; logCode?: NonNullable<ApiState['errorCode']> } = {},
  ) {
    super(message);
  }
}

export interface GhostDoorOptions {
  services: Services;
  writeLimits: WriteLimits;
}

function originOf(ctx: GhostContext): string {
  if (!isValidHost(ctx.host)) throw new GhostError(400, 'BadRequestError', 'The request has no valid Host header.', null);
  return ownOrigin(ctx);
}

async function readRaw(ctx: GhostContext, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new GhostError(413, 'RequestEntityTooLargeError', `Request is larger than the maximum file size the server allows (${limit} bytes).`, null);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** The `posts[0]` of a JSON body `{"posts": [{...}]}`. */
async function readPost(ctx: GhostContext): Promise<Record<string, unknown>> {
  const type = ctx.request.type;
  if (type !== 'application/json' && !type.endsWith('+json')) throw new GhostError(415, 'UnsupportedMediaTypeError', 'Unsupported Content-Type.', 'Send the body as application/json: {"posts": [{...}]}.');
  const raw = await readRaw(ctx, BODY_LIMIT_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new GhostError(400, 'BadRequestError', 'The body is not valid JSON.', 'Send {"posts": [{...}]} as JSON.');
  }
  const posts = typeof body === 'object' && body !== null ? (body as { posts?: unknown }).posts : undefined;
  const post: unknown = Array.isArray(posts) ? posts[0] : undefined;
  if (!Array.isArray(posts) || posts.length !== 1 || typeof post !== 'object' || post === null || Array.isArray(post)) {
    throw new GhostError(422, 'ValidationError', 'Validation error: no root key (\'posts\') provided.', 'Send exactly one post as {"posts": [{...}]}.', null, { property: 'posts' });
  }
  return post as Record<string, unknown>;
}

/** A multipart upload's `file` and `ref` field. */
function readUpload(ctx: GhostContext, fileLimit: number): Promise<{ bytes: Buffer | null; ref: string | null }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { fileSize: fileLimit, files: 1, fields: 20, fieldSize: 4096 } });
    } catch (error) {
      reject(new GhostError(400, 'BadRequestError', `The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}.`, null));
      return;
    }
    let bytes: Buffer | null = null;
    let ref: string | null = null;
    let failed = false;
    const fail = (error: GhostError) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(error);
    };
    parser.on('field', (name, value) => {
      if (name === 'ref') ref = value;
    });
    parser.on('file', (field, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new GhostError(413, 'RequestEntityTooLargeError', `Request is larger than the maximum file size the server allows (${fileLimit} bytes).`, 'Send a smaller image.')));
      stream.on('end', () => {
        if (field === 'file') bytes = Buffer.concat(chunks);
      });
    });
    parser.on('filesLimit', () => fail(new GhostError(422, 'ValidationError', 'Send one image per upload.', null)));
    parser.on('error', (error: unknown) => fail(new GhostError(400, 'BadRequestError', `The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}.`, null)));
    parser.on('close', () => {
      if (!failed) resolve({ bytes, ref });
    });
    ctx.req.pipe(parser);
  });
}

/** The door in the site server (api/app.ts), before the pages' guards. */
export function ghostDoor(options: GhostDoorOptions): Middleware<ApiState> {
  const { services } = options;
  const { keys, posts, media, store } = services;
  const limited = writeRateLimit(options.writeLimits);
  const { config, logger } = services.settings;
  const siteOrigin = config.siteUrl === '' ? '' : new URL(config.siteUrl).origin;

  async function authenticate(ctx: GhostContext, permission: ApiPermission): Promise<ApiKeySummary> {
    const header = ctx.get('Authorization');
    const token = /^Ghost\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!token) {
      throw new GhostError(401, 'UnauthorizedError', 'Authorization header format is "Authorization: Ghost [token]"', 'Sign a token with your Admin API key (blogpost keys create --ghost) and send it as Authorization: Ghost <token>.', 'INVALID_AUTH_HEADER', { logCode: header === '' ? 'missing_api_key' : 'malformed_api_key' });
    }
    const read = readToken(token);
    if (!read.ok) throw new GhostError(read.problem.status, read.problem.type, read.problem.message, read.problem.context, read.problem.code, { logCode: 'malformed_api_key' });
    const kid = read.kid.slice(0, 40);
    ctx.state.keyId = kid;
    const found = await keys.verifyGhost(kid);
    if (!found.ok) {
      if (found.reason === 'revoked') keys.recordFailure(kid, 'invalid_api_key');
      throw new GhostError(401, 'UnauthorizedError', found.reason === 'revoked' ? 'Admin API Key revoked' : 'Unknown Admin API Key', found.reason === 'revoked' ? 'This Admin API key was revoked: ask for a new one.' : 'No Admin API key has this id: check the key you pasted into the app.', 'UNKNOWN_ADMIN_API_KEY', { logCode: 'invalid_api_key' });
    }
    const problem = checkToken(read, ghostSecret(await store.audit.pseudonymKey(), kid), services.clock());
    if (problem) {
      keys.recordFailure(kid, 'invalid_api_key');
      throw new GhostError(problem.status, problem.type, problem.message, problem.context, problem.code, { logCode: 'invalid_api_key' });
    }
    ctx.state.key = found.key;
    const allowed = permission === 'blog:read' ? readsDrafts(found.key.permissions) : permits(found.key.permissions, permission);
    if (!allowed) {
      keys.recordFailure(found.key.id, 'insufficient_permissions');
      throw new GhostError(403, 'NoPermissionError', 'You do not have permission to perform this action', `This Admin API key lacks ${permission}: create one with it (blogpost keys create --ghost --permission ${permission}).`, null, { logCode: 'insufficient_permissions' });
    }
    return found.key;
  }

  function uploadOf(origin: string) {
    return (url: string): string | null => uploadIdOf(url, [origin, config.siteUrl]);
  }

  async function answerPost(ctx: GhostContext, post: PostRecord): Promise<Record<string, unknown>> {
    const origin = originOf(ctx);
    const cover = post.coverImage ? await store.media.get(post.coverImage.mediaId) : null;
    return ghostPost(post, `${origin}/blog/${encodeURIComponent(post.slug)}`, cover ? `${origin}${presentMedia(cover, []).url}` : null);
  }


  function checked(payload: Record<string, unknown>) {
    return checkedDoorPost(payload, GHOST_NAME_OF, (problems) => new GhostError(422, 'ValidationError', `Validation error: ${problems.join('; ')}.`, 'Fix the fields named and send the post again.'));
  }

  async function postById(id: string): Promise<PostRecord> {
    const post = id.length <= 100 ? await store.posts.getById(id) : undefined;
    if (!post || post.deletedAt) throw new GhostError(404, 'NotFoundError', 'Post not found.', `No post has the id ${id.slice(0, 100)}.`);
    return post;
  }

  /** A post the gate holds: stored, but told as Ghost's ValidationError so the writer sees why it is not public. */
  function held(post: PostRecord, message: string): GhostError {
    return new GhostError(422, 'ValidationError', message, `The post is saved (id ${post.id}) and waits for a staff member's review: do not send it again; edit it to change it.`, 'HELD_FOR_REVIEW', { details: { post_id: post.id, status: 'in_review' } });
  }

  async function createPost(ctx: GhostContext): Promise<void> {
    const key = await authenticate(ctx, 'blog:write');
    const fields = await readPost(ctx);
    const origin = originOf(ctx);
    await limited(ctx, async () => {
      const payload = payloadFromGhost(fields, { authorName: await authorNameOf(store.staff, key), now: services.clock(), uploadOf: uploadOf(origin) });
      const created = await posts.create(checked(payload), keyActor(key, ctx.ip));
      const post = await postById(created.post.id);
      if (post.status === 'in_review') throw held(post, heldMessage(post.review?.rules ?? []));
      ctx.status = 201;
      ctx.set('Location', `${origin}/ghost/api/admin/posts/${post.id}/`);
      ctx.body = { posts: [await answerPost(ctx, post)] };
    });
  }

  async function updatePost(ctx: GhostContext, id: string): Promise<void> {
    const key = await authenticate(ctx, 'blog:write');
    const fields = await readPost(ctx);
    const origin = originOf(ctx);
    await limited(ctx, async () => {
      const post = await postById(id);
      const sent = fields.updated_at;
      if (typeof sent !== 'string' || sent === '') throw new GhostError(422, 'ValidationError', 'Validation error: updated_at is required.', 'Send the updated_at of the post as you last read it.', null, { property: 'updated_at' });
      if (Date.parse(sent) !== Date.parse(post.updatedAt)) {
        throw new GhostError(409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.', `The post changed at ${post.updatedAt}; you sent updated_at ${sent.slice(0, 40)}. Read it again (GET /ghost/api/admin/posts/${post.id}/) and redo your change.`, 'UPDATE_COLLISION', { logCode: 'precondition_failed' });
      }
      const changed = fieldsFromGhost(fields, { authorName: post.author.name, now: services.clock(), uploadOf: uploadOf(origin) });
      const next: Record<string, unknown> = { ...payloadOf(post), ...changed };
      if (changed.status === 'draft' || changed.status === 'published') delete next.publish_at;
      if (changed.status !== undefined && changed.publish_at !== undefined) next.publish_at = changed.publish_at;
      checked(next);
      const ifMatch = { kind: 'etags' as const, etags: [{ idPrefix: post.id.split('-')[0] ?? post.id, revision: post.revision }] };
      const answer = await posts.update(post.id, next, 'replace', ifMatch, keyActor(key, ctx.ip));
      const stored = await postById(post.id);
      if (answer.post.status === 'in_review' && post.status !== 'in_review') throw held(stored, answer.message);
      ctx.body = { posts: [await answerPost(ctx, stored)] };
    });
  }

  async function uploadImage(ctx: GhostContext): Promise<void> {
    const key = await authenticate(ctx, 'blog:write');
    if (ctx.request.type !== 'multipart/form-data') throw new GhostError(415, 'UnsupportedMediaTypeError', 'Please select an image.', 'Send multipart/form-data with the image in a field named file.');
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > media.maxBytes + MULTIPART_OVERHEAD_BYTES) throw new GhostError(413, 'RequestEntityTooLargeError', `Request is larger than the maximum file size the server allows (${media.maxBytes} bytes).`, 'Send a smaller image.', null, { headers: { Connection: 'close' } });
    media.refuseWhenBusy();
    const { bytes, ref } = await readUpload(ctx, media.maxBytes);
    if (!bytes) throw new GhostError(422, 'ValidationError', 'Please select an image.', 'Send the image in a multipart field named file.', null, { property: 'file' });
    await limited(ctx, async () => {
      const outcome = await media.upload(bytes, { owner: key.owner, keyId: key.id });
      ctx.status = 201;
      ctx.body = { images: [{ url: `${originOf(ctx)}${presentMedia(outcome.record, []).url}`, ref }] };
    });
  }

  /**
   * GET /posts/?filter=slug:<slug>: the post of that slug, or none (publishing apps look a note's post up
   * by slug before they choose create or update). Other listings are not supported.
   */
  async function findBySlug(ctx: GhostContext): Promise<void> {
    await authenticate(ctx, 'blog:read');
    const filter = typeof ctx.query.filter === 'string' ? ctx.query.filter : '';
    const slug = /^slug:\s*'?([a-z0-9-]{1,200})'?$/i.exec(filter)?.[1]?.toLowerCase();
    if (!slug) throw new GhostError(422, 'ValidationError', 'Validation error: only filter=slug:<slug> is supported when listing posts.', 'Look one post up by its slug (GET /ghost/api/admin/posts/?filter=slug:my-post), or read it by id (GET /ghost/api/admin/posts/<id>/).', null, { property: 'filter' });
    const found = await store.posts.lookupSlug(slug);
    const post = found && found.post.slug === slug ? await store.posts.getById(found.post.id) : undefined;
    const list = post && !post.deletedAt ? [await answerPost(ctx, post)] : [];
    ctx.body = { posts: list, meta: { pagination: { page: 1, limit: 15, pages: 1, total: list.length, next: null, prev: null } } };
  }

  async function site(ctx: GhostContext): Promise<void> {
    const origin = siteOrigin || originOf(ctx);
    ctx.body = { site: { title: config.agencyName, description: config.productName, logo: null, icon: null, accent_color: null, locale: 'en', url: `${origin}/`, version: GHOST_VERSION } };
  }

  async function route(ctx: GhostContext, rest: string): Promise<void> {
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const allow = (allowed: string) => new GhostError(405, 'MethodNotAllowedError', `${ctx.method} is not supported here.`, `Use ${allowed}.`, null, { headers: { Allow: allowed } });
    if (rest === '/site/' || rest === '/site') {
      if (method !== 'GET') throw allow('GET');
      return site(ctx);
    }
    if (rest === '/posts/' || rest === '/posts') {
      if (method === 'GET') return findBySlug(ctx);
      if (method !== 'POST') throw allow('GET, POST');
      return createPost(ctx);
    }
    const one = /^\/posts\/([^/]+)\/?$/.exec(rest);
    if (one?.[1]) {
      if (method === 'GET') {
        await authenticate(ctx, 'blog:read');
        ctx.body = { posts: [await answerPost(ctx, await postById(one[1]))] };
        return;
      }
      if (method === 'PUT') return updatePost(ctx, one[1]);
      throw allow('GET, PUT');
    }
    if (rest === '/images/upload/' || rest === '/images/upload') {
      if (method !== 'POST') throw allow('POST');
      return uploadImage(ctx);
    }
    throw new GhostError(404, 'NotFoundError', 'Resource not found', 'This site answers only the Admin API writing apps use: /site/, /posts/ (create), /posts/<id>/ (read, update) and /images/upload/.');
  }

  return async (ctx, next) => {
    const matched = ADMIN_PATH.exec(ctx.path);
    if (!matched) return next();
    for (const [name, value] of API_HEADERS) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Version', `v${GHOST_VERSION}`);
    try {
      await route(ctx, matched[1] ?? '/');
    } catch (raw) {
      const error = asGhostError(raw);
      if (error.status >= 500) logger.error(`Ghost Admin API ${ctx.method} ${ctx.path} failed`, raw);
      ctx.state.errorCode = raw instanceof ApiError ? raw.code : (error.extra.logCode ?? (error.status >= 500 ? 'server_error' : 'bad_request'));
      ctx.status = error.status;
      if (error.extra.headers) ctx.set(error.extra.headers);
      ctx.body = {
        errors: [
          {
            message: error.message,
            context: error.context,
            type: error.type,
            details: error.extra.details ?? null,
            property: error.extra.property ?? null,
            help: null,
            code: error.code,
            id: ctx.state.requestId ?? null,
          },
        ],
      };
    }
  };
}

/** Our payload's field names as Ghost names them, for the errors. */
const GHOST_NAME_OF: Readonly<Record<string, string>> = {
  title: 'title',
  excerpt: 'custom_excerpt',
  content: 'html',
  category: 'tags',
  tags: 'tags',
  slug: 'slug',
  publish_at: 'published_at',
  status: 'status',
  cover_image: 'feature_image',
  cover_image_alt: 'feature_image_alt',
  'author.name': 'the key owner name',
};

/** Any error as Ghost tells it: the API's own (the gate's block, a slug taken, a busy server) kept in words. */
function asGhostError(raw: unknown): GhostError {
  if (raw instanceof GhostError) return raw;
  if (raw instanceof GhostFieldError) return new GhostError(422, 'ValidationError', raw.message, raw.context, null, { property: raw.property });
  if (raw instanceof ApiError) {
    const details = (raw.errors ?? []).map((problem) => `${GHOST_NAME_OF[problem.field] ?? problem.field}: ${problem.message}`);
    const context = [...details, ...raw.hints].join(' ') || null;
    if (raw.code === 'compliance_blocked') return new GhostError(422, 'ValidationError', raw.message, context ?? 'Change the text the finding names and send the post again.', 'COMPLIANCE_BLOCKED');
    if (raw.code === 'precondition_failed') return new GhostError(409, 'UpdateCollisionError', 'Saving failed! Someone else is editing this post.', 'Read the post again and redo your change.', 'UPDATE_COLLISION');
    if (raw.status === 401) return new GhostError(401, 'UnauthorizedError', raw.message, context);
    if (raw.status === 403) return new GhostError(403, 'NoPermissionError', raw.message, context);
    if (raw.status === 404 || raw.status === 410) return new GhostError(404, 'NotFoundError', raw.message, context);
    if (raw.status === 413) return new GhostError(413, 'RequestEntityTooLargeError', raw.message, context);
    if (raw.status === 415) return new GhostError(415, 'UnsupportedMediaTypeError', raw.message, context);
    if (raw.status === 429) return new GhostError(429, 'TooManyRequestsError', raw.message, context, null, { headers: raw.headers });
    if (raw.status >= 500) return new GhostError(raw.status, 'InternalServerError', raw.message, context, null, { headers: raw.headers });
    return new GhostError(422, 'ValidationError', raw.message, context);
  }
  return new GhostError(500, 'InternalServerError', 'The server failed to handle this request.', null);
}
