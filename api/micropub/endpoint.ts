/**
 * The Micropub endpoint (W3C Micropub): `/micropub` and its media endpoint `/micropub/media`, a door to
 * the same post service as the blog API (decision 0030). Each request, in order:
 *
 *   read      the body as JSON, form fields or multipart (its photo files kept in memory, within the
 *             upload limit), into one action (requests.ts)
 *   token     the site's API key as a Bearer token, in the Authorization header or the access_token
 *             field (not both); 401 unauthorized without a valid one
 *   scope     blog:write for create, update, delete, undelete and uploads; blog:read (any key that reads)
 *             for q=source; any valid key for the other queries; 403 insufficient_scope otherwise
 *   map       the h-entry's properties to our payload in one module (h-entry.ts)
 *   service   PostService.create / update / trash / restore, as the key (its owner owns the post)
 *   answer    201 + Location of the post's page, 202 when the gate holds it for review, 204 for other
 *             changes; errors as { error, error_description } with 400/401/403
 *
 * The API's ApiErrors (the cleaner's, the gate's, the store's) are told in Micropub's shape: the
 * request log (api/request-log/) names the path, /micropub, as the door.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { Middleware, ParameterizedContext } from 'koa';
import { ApiError } from '../../contract/errors';
import { type ApiKeySummary, type ApiPermission, permits, readsDrafts } from '../../contract/keys';
import { uploadIdOf } from '../../contract/media';
import { MICROPUB_MEDIA_PATH as MEDIA_ENDPOINT_PATH, MICROPUB_PATH, WRITING_APP_LINK_HEADER } from '../../contract/writing-apps';
import { postEtag } from '../../contract/post-lifecycle';
import { API_HEADERS } from '../http/headers';
import { type WriteLimits, writeRateLimit } from '../http/rate-limit';
import { isValidHost } from '../http/methods';
import { ownOrigin } from '../http/proxy-trust';
import type { ApiState } from '../http/context';
import { keyActor } from '../services/actors';
import { authorNameOf, checkedDoorPost } from '../services/door-posts';
import { heldMessage } from '../services/compliance-gate';
import { presentMedia } from '../services/media';
import { payloadOf } from '../services/post-versions';
import type { Services } from '../services/services';
import type { PostRecord } from '../store/store';
import { applyUpdate, entryFromPost, fieldsTouched, payloadFromEntry, siteCategories } from './h-entry';
import { invalidRequest, MicropubError, type Mf2Value, type MicropubAction, readFormRequest, readJsonRequest } from './requests';


/** Largest JSON or form body read. */
const BODY_LIMIT_BYTES = 1_048_576;
/** What a multipart body may add around its files (boundaries, part headers, the text fields). */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
/** Photo files one multipart create may carry. */
const MAX_PHOTO_FILES = 4;

/** The paths this door answers. */
export function isMicropubPath(path: string): boolean {
  return path === MICROPUB_PATH || path === MEDIA_ENDPOINT_PATH;
}

type MicropubContext = ParameterizedContext<ApiState>;

interface ReadBody {
  fields: [string, string][];
  json?: unknown;
  files: { field: string; bytes: Buffer }[];
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new MicropubError(413, 'invalid_request', `The body is larger than ${limit} bytes.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** A multipart body's text fields and files (each within `fileLimit`), or a 400 saying what is wrong. */
function readMultipart(req: IncomingMessage, fileLimit: number, maxFiles: number): Promise<ReadBody> {
  return new Promise<ReadBody>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: fileLimit, files: maxFiles, fields: 200, fieldSize: BODY_LIMIT_BYTES } });
    } catch (error) {
      reject(invalidRequest(`The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}.`));
      return;
    }
    const body: ReadBody = { fields: [], files: [] };
    let failed = false;
    const fail = (error: MicropubError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      reject(error);
    };
    parser.on('field', (name, value) => body.fields.push([name, value]));
    parser.on('file', (field, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new MicropubError(413, 'invalid_request', `A file is larger than ${fileLimit} bytes, the largest image taken.`)));
      stream.on('end', () => body.files.push({ field, bytes: Buffer.concat(chunks) }));
    });
    parser.on('filesLimit', () => fail(invalidRequest(`At most ${maxFiles} files are taken in one request.`)));
    parser.on('error', (error: unknown) => fail(invalidRequest(`The multipart body could not be read: ${error instanceof Error ? error.message : String(error)}.`)));
    parser.on('close', () => {
      if (!failed) resolve(body);
    });
    req.pipe(parser);
  });
}

async function readBody(ctx: MicropubContext, fileLimit: number, maxFiles: number): Promise<ReadBody> {
  const type = ctx.request.type;
  if (type === 'multipart/form-data') return readMultipart(ctx.req, fileLimit, maxFiles);
  const raw = await readRaw(ctx.req, BODY_LIMIT_BYTES);
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return { fields: [], json: JSON.parse(raw.toString('utf8')) as unknown, files: [] };
    } catch {
      throw invalidRequest('The body is not valid JSON.');
    }
  }
  if (type === 'application/x-www-form-urlencoded' || (type === '' && raw.length === 0)) {
    return { fields: [...new URLSearchParams(raw.toString('utf8'))], files: [] };
  }
  throw invalidRequest(`The body's Content-Type ${type.slice(0, 80) || '(none)'} is not one Micropub uses: send application/x-www-form-urlencoded, application/json or multipart/form-data.`);
}

/** The access token: the Authorization header's, or the body's access_token field (never both). */
function tokenOf(ctx: MicropubContext, body: ReadBody | null): string {
  const header = ctx.get('Authorization');
  const fromJson = body?.json !== undefined && typeof body.json === 'object' && body.json !== null ? (body.json as Record<string, unknown>).access_token : undefined;
  const fromBody = body?.fields.find(([name]) => name === 'access_token')?.[1] ?? (typeof fromJson === 'string' ? fromJson : undefined);
  if (header !== '' && fromBody !== undefined) throw invalidRequest('The access token was sent twice, in the Authorization header and in the body: send it once.');
  if (ctx.query.access_token !== undefined) throw invalidRequest('The access token was sent in the query string, where it ends up in logs: send it as Authorization: Bearer <token>.');
  if (fromBody !== undefined) return fromBody.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (header !== '' && !bearer) throw new MicropubError(401, 'unauthorized', 'The Authorization header must read "Bearer <token>".', { 'WWW-Authenticate': 'Bearer' });
  if (!bearer?.[1]) throw new MicropubError(401, 'unauthorized', 'No access token: send a site API key (or an IndieAuth token) as Authorization: Bearer <token>.', { 'WWW-Authenticate': 'Bearer' });
  return bearer[1];
}

/** The Micropub scope a permission stands for, as an error names it. */
const SCOPE_OF: Readonly<Record<ApiPermission, string>> = { 'blog:write': 'create update delete media', 'blog:read': 'read', 'blog:admin': 'create update delete media' };

export interface MicropubDoorOptions {
  services: Services;
  /** The write allowance per key, shared with the API's writes (api/http/rate-limit.ts). */
  writeLimits: WriteLimits;
}

/** The origin links and Locations are made from: the request's (behind a trusted proxy, the visitor's). */
function originOf(ctx: MicropubContext): string {
  if (!isValidHost(ctx.host)) throw invalidRequest('The request has no valid Host header.');
  return ownOrigin(ctx);
}

/**
 * The door in the site server (api/app.ts, before the pages' guards): Micropub's paths answered here,
 * in the site's own context (so the request log sees the key and the answer), everything else goes on.
 */
export function micropubDoor(options: MicropubDoorOptions): Middleware<ApiState> {
  const { services } = options;
  const { keys, posts, media, store } = services;
  const limited = writeRateLimit(options.writeLimits);
  const { config, logger } = services.settings;
  const siteOrigin = config.siteUrl === '' ? '' : new URL(config.siteUrl).origin;

  async function authenticate(ctx: MicropubContext, body: ReadBody | null, permission: ApiPermission | null): Promise<ApiKeySummary> {
    const token = tokenOf(ctx, body);
    const result = await keys.verify(token);
    if (!result.ok) {
      if (result.reason !== 'malformed') {
        ctx.state.keyId = result.publicId;
        keys.recordFailure(result.publicId, 'invalid_api_key');
      }
      throw new MicropubError(401, 'unauthorized', result.reason === 'revoked' ? 'This access token has been revoked.' : 'The access token is not valid: get a new one (an API key from /admin/api-keys, or sign in again through IndieAuth).', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    ctx.state.keyId = result.key.id;
    ctx.state.key = result.key;
    const allowed = permission === null || (permission === 'blog:read' ? readsDrafts(result.key.permissions) : permits(result.key.permissions, permission));
    if (!allowed && permission) {
      keys.recordFailure(result.key.id, 'insufficient_permissions');
      throw new MicropubError(403, 'insufficient_scope', `This token lacks the scope this request needs (${SCOPE_OF[permission]}; the API key permission ${permission}).`);
    }
    return result.key;
  }

  /** The media id of an upload of this site a URL names (by this origin or SITE_URL, a file or /media/<id>), else null. */
  function uploadOf(origin: string) {
    return (url: string): string | null => uploadIdOf(url, [origin, config.siteUrl]);
  }

  /** The URL of a post's cover image file (its widest fallback variant), for q=source. */
  async function coverUrlOf(origin: string, post: PostRecord): Promise<string | null> {
    if (!post.coverImage) return null;
    const record = await store.media.get(post.coverImage.mediaId);
    return record ? `${origin}${presentMedia(record, []).url}` : null;
  }

  /** A post's page. */
  function pageUrl(origin: string, slug: string): string {
    return `${origin}/blog/${encodeURIComponent(slug)}`;
  }

  /** The post a URL of this site names (its page, or an old address of it); 400 otherwise. */
  async function postAt(origin: string, url: string): Promise<PostRecord> {
    let parsed: URL;
    try {
      parsed = new URL(url, origin);
    } catch {
      throw invalidRequest(`"${url.slice(0, 200)}" is not a URL.`);
    }
    const sameSite = parsed.origin === origin || parsed.origin === siteOrigin;
    const slug = /^\/blog\/([^/]+)\/?$/.exec(parsed.pathname)?.[1];
    if (!sameSite || !slug) throw invalidRequest(`${url.slice(0, 200)} is not the address of a post of this site (${origin}/blog/<slug>).`);
    let decoded: string;
    try {
      decoded = decodeURIComponent(slug);
    } catch {
      throw invalidRequest(`${url.slice(0, 200)} is not the address of a post of this site: its slug is not valid percent-encoding.`);
    }
    const found = await store.posts.lookupSlug(decoded);
    const post = found ? await store.posts.getById(found.post.id) : null;
    if (!post) throw invalidRequest(`No post is at ${url.slice(0, 200)}.`);
    return post;
  }

  /** Uploads a photo through the image pipeline; its URL on this site. */
  async function uploadPhoto(origin: string, key: ApiKeySummary, bytes: Buffer): Promise<string> {
    media.refuseWhenBusy();
    const outcome = await media.upload(bytes, { owner: key.owner, keyId: key.id });
    return `${origin}${presentMedia(outcome.record, []).url}`;
  }


  function checked(payload: Record<string, unknown>) {
    return checkedDoorPost(payload, MICROPUB_NAME_OF, (problems) => invalidRequest(`The post cannot be stored: ${problems.join('; ')}.`));
  }

  async function create(ctx: MicropubContext, action: Extract<MicropubAction, { action: 'create' }>, key: ApiKeySummary, photos: string[]): Promise<void> {
    const origin = originOf(ctx);
    const properties: Record<string, Mf2Value[]> = { ...action.properties };
    if (photos.length > 0) properties.photo = [...(properties.photo ?? []), ...photos];
    const payload = payloadFromEntry(action.type, properties, { authorName: await authorNameOf(store.staff, key), now: services.clock(), uploadOf: uploadOf(origin) });
    const { post } = await posts.create(checked(payload), keyActor(key, ctx.ip));
    ctx.set('Location', pageUrl(origin, post.slug));
    if (post.status === 'in_review') {
      ctx.status = 202;
      ctx.body = { status: 'in_review', description: heldMessage(post.review?.rules ?? []) };
    } else ctx.status = 201;
  }

  async function update(ctx: MicropubContext, action: Extract<MicropubAction, { action: 'update' }>, key: ApiKeySummary): Promise<void> {
    const origin = originOf(ctx);
    const post = await postAt(origin, action.url);
    const current = entryFromPost(post, pageUrl(origin, post.slug), await coverUrlOf(origin, post));
    const { properties, touched } = applyUpdate(current, action);
    const mapped = payloadFromEntry('h-entry', properties, { authorName: post.author.name, now: services.clock(), uploadOf: uploadOf(origin) });
    const fields = fieldsTouched(touched);
    // The fields the update touches as the mapping makes them (absent there: absent here), the others as stored.
    const kept = Object.entries(payloadOf(post)).filter(([field]) => !fields.has(field));
    const changed = Object.entries(mapped).filter(([field]) => fields.has(field));
    const next: Record<string, unknown> = Object.fromEntries([...kept, ...changed]);
    const ifMatch = { kind: 'etags' as const, etags: [{ idPrefix: post.id.split('-')[0] ?? post.id, revision: post.revision }] };
    checked(next);
    const answer = await posts.update(post.id, next, 'replace', ifMatch, keyActor(key, ctx.ip));
    ctx.set('ETag', postEtag(post.id, answer.post.revision ?? post.revision));
    if (answer.post.status === 'in_review' && post.status !== 'in_review') {
      ctx.status = 202;
      ctx.body = { status: 'in_review', description: answer.message };
    } else ctx.status = 204;
  }

  async function trashOrRestore(ctx: MicropubContext, action: Extract<MicropubAction, { action: 'delete' | 'undelete' }>, key: ApiKeySummary): Promise<void> {
    const post = await postAt(originOf(ctx), action.url);
    const actor = keyActor(key, ctx.ip);
    if (action.action === 'delete') await posts.trash(post.id, undefined, actor);
    else if (post.deletedAt) await posts.restore(post.id, actor);
    ctx.status = 204;
  }

  async function query(ctx: MicropubContext): Promise<void> {
    const q = typeof ctx.query.q === 'string' ? ctx.query.q : '';
    const origin = originOf(ctx);
    if (q === 'source') {
      await authenticate(ctx, null, 'blog:read');
      const url = typeof ctx.query.url === 'string' ? ctx.query.url : '';
      if (url === '') throw invalidRequest('q=source needs url: the address of the post.');
      const post = await postAt(origin, url);
      const all = entryFromPost(post, pageUrl(origin, post.slug), await coverUrlOf(origin, post));
      const raw = ctx.query['properties[]'] ?? ctx.query.properties;
      const asked = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      ctx.body = asked.length === 0 ? { type: ['h-entry'], properties: all } : { properties: Object.fromEntries(asked.filter((name) => Object.hasOwn(all, name)).map((name) => [name, all[name]])) };
      return;
    }
    await authenticate(ctx, null, null);
    if (q === 'config') {
      ctx.body = {
        'media-endpoint': `${origin}${MEDIA_ENDPOINT_PATH}`,
        'syndicate-to': [],
        'post-types': [
          { type: 'article', name: 'Article' },
          { type: 'note', name: 'Note' },
          { type: 'photo', name: 'Photo' },
        ],
        categories: siteCategories(),
        q: ['config', 'source', 'syndicate-to', 'category'],
      };
    } else if (q === 'syndicate-to') ctx.body = { 'syndicate-to': [] };
    else if (q === 'category') {
      const filter = typeof ctx.query.filter === 'string' ? ctx.query.filter.toLowerCase() : '';
      ctx.body = { categories: siteCategories().filter((name) => name.toLowerCase().includes(filter)) };
    } else throw invalidRequest(q === '' ? 'A GET needs q: config, source, syndicate-to or category.' : `The query q=${q.slice(0, 40)} is not supported: use config, source, syndicate-to or category.`);
  }

  /**
   * The body and the key of a write. A token in the Authorization header is checked before the body is
   * read (no file of an unknown sender is held in memory); one in the body after, within the limits.
   */
  async function readAuthenticated(ctx: MicropubContext, maxFiles: number): Promise<{ body: ReadBody; key: ApiKeySummary }> {
    const multipart = ctx.request.type === 'multipart/form-data';
    const limit = multipart ? maxFiles * media.maxBytes + MULTIPART_OVERHEAD_BYTES : BODY_LIMIT_BYTES;
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limit) throw new MicropubError(413, 'invalid_request', `The body is larger than ${limit} bytes (at most ${maxFiles} image${maxFiles === 1 ? '' : 's'} of ${media.maxBytes} bytes).`, { Connection: 'close' });
    if (ctx.get('Authorization') !== '') {
      const key = await authenticate(ctx, null, 'blog:write');
      const body = await readBody(ctx, media.maxBytes, maxFiles);
      tokenOf(ctx, body);
      return { body, key };
    }
    const body = await readBody(ctx, media.maxBytes, maxFiles);
    return { body, key: await authenticate(ctx, body, 'blog:write') };
  }

  async function post(ctx: MicropubContext): Promise<void> {
    const { body, key } = await readAuthenticated(ctx, MAX_PHOTO_FILES);
    const action = body.json !== undefined ? readJsonRequest(body.json) : readFormRequest(body.fields);
    const stray = body.files.find((file) => file.field !== 'photo' && file.field !== 'photo[]');
    if (stray) throw invalidRequest(`The file field "${stray.field.slice(0, 40)}" is not taken: send photos as photo (or photo[]); video and audio are not taken here.`);
    if (action.action !== 'create' && body.files.length > 0) throw invalidRequest('Files are only taken with a create.');
    // Counted against the key's writes like the API's (a refused write gives its allowance back).
    await limited(ctx, async () => {
      if (action.action === 'create') {
        const photos: string[] = [];
        for (const file of body.files) photos.push(await uploadPhoto(originOf(ctx), key, file.bytes));
        await create(ctx, action, key, photos);
      } else if (action.action === 'update') await update(ctx, action, key);
      else await trashOrRestore(ctx, action, key);
    });
  }

  async function upload(ctx: MicropubContext): Promise<void> {
    if (ctx.request.type !== 'multipart/form-data') throw invalidRequest('The media endpoint takes multipart/form-data with the image in a field named file.');
    media.refuseWhenBusy();
    const { body, key } = await readAuthenticated(ctx, 1);
    const file = body.files.find((candidate) => candidate.field === 'file');
    if (!file) throw invalidRequest('The media endpoint takes the image in a multipart field named file.');
    await limited(ctx, async () => {
      ctx.set('Location', await uploadPhoto(originOf(ctx), key, file.bytes));
      ctx.status = 201;
    });
  }

  async function route(ctx: MicropubContext): Promise<void> {
    if (ctx.path === MEDIA_ENDPOINT_PATH) {
      if (ctx.method !== 'POST') throw new MicropubError(405, 'invalid_request', 'The media endpoint takes POST (multipart/form-data, the image in a field named file).', { Allow: 'POST' });
      return upload(ctx);
    }
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return query(ctx);
    if (ctx.method === 'POST') return post(ctx);
    throw new MicropubError(405, 'invalid_request', 'The Micropub endpoint takes GET (q=...) and POST.', { Allow: 'GET, HEAD, POST' });
  }

  return async (ctx, next) => {
    // The home page tells apps where the doors are in its headers too (Micropub 5.3, IndieAuth 4.1).
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) ctx.append('Link', WRITING_APP_LINK_HEADER);
    if (!isMicropubPath(ctx.path)) return next();
    for (const [name, value] of API_HEADERS) ctx.set(name, value);
    ctx.set('Cache-Control', 'no-store');
    try {
      await route(ctx);
    } catch (raw) {
      const error = asMicropubError(raw);
      if (error.status >= 500) logger.error(`Micropub ${ctx.method} ${ctx.path} failed`, raw);
      ctx.state.errorCode = raw instanceof ApiError ? raw.code : logCodeOf(error, ctx.get('Authorization') !== '' || ctx.state.keyId !== undefined);
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = { error: error.code, error_description: error.message };
    }
  };
}

/** Our payload's field names as Micropub names them, for the errors. */
const MICROPUB_NAME_OF: Readonly<Record<string, string>> = {
  title: 'name',
  excerpt: 'summary',
  content: 'content',
  category: 'category',
  tags: 'category',
  slug: 'mp-slug',
  publish_at: 'published',
  status: 'post-status',
  cover_image: 'photo',
  cover_image_alt: 'photo alt',
  'author.name': 'the token owner name',
};

/** The catalogue code the request log keeps for a Micropub error (blogpost logs and diagnose read it). */
function logCodeOf(error: MicropubError, tokenSent: boolean): NonNullable<ApiState['errorCode']> {
  if (error.code === 'unauthorized') return tokenSent ? 'invalid_api_key' : 'missing_api_key';
  if (error.code === 'insufficient_scope' || error.code === 'forbidden') return 'insufficient_permissions';
  return error.status >= 500 ? 'server_error' : 'bad_request';
}

/** Any error as Micropub tells it: the API's own (a post refused, the gate's block, a busy server) kept in words. */
function asMicropubError(raw: unknown): MicropubError {
  if (raw instanceof MicropubError) return raw;
  if (raw instanceof ApiError) {
    const details = (raw.errors ?? []).map((problem) => `${MICROPUB_NAME_OF[problem.field] ?? problem.field}: ${problem.message}`);
    const description = [raw.message, ...details, ...raw.hints].join(' ');
    if (raw.status === 401) return new MicropubError(401, 'unauthorized', description);
    if (raw.status === 403) return new MicropubError(403, 'forbidden', description);
    if (raw.status >= 500) return new MicropubError(raw.status, raw.status === 503 ? 'temporarily_unavailable' : 'server_error', description, raw.headers);
    if (raw.status === 413) return new MicropubError(413, 'invalid_request', description);
    if (raw.status === 429) return new MicropubError(429, 'too_many_requests', description, raw.headers);
    return new MicropubError(400, 'invalid_request', description);
  }
  return new MicropubError(500, 'server_error', 'The server failed to handle this request.');
}
