/**
 * The blog API, mounted at /api/blog. Each route lists its steps in the order they run:
 * authenticate(permission) -> rate limit -> validate(input, handler); the handler calls a service and
 * answers through a presenter. Every path also declares the methods it allows (anything else: 405).
 *
 *   GET    /api/blog                       published posts, newest first (page, limit, category, tag,
 *                                          author); other statuses and ?mine=1 with a key
 *   POST   /api/blog                       create a post (key with blog:write, JSON body)
 *   POST   /api/blog/validate              the same checks as a create, no key needed, nothing saved
 *   GET    /api/blog/categories            the categories with their post counts
 *   GET    /api/blog/:idOrSlug             one post with its ETag (drafts, scheduled and trashed posts
 *                                          with a key that reads drafts; an old slug: 301)
 *   PATCH  /api/blog/:id                   change fields (JSON merge patch), If-Match required
 *   PUT    /api/blog/:id                   replace the post, If-Match required
 *   DELETE /api/blog/:id                   move to the trash (410 for readers; restorable 30 days)
 *   POST   /api/blog/:id/restore           bring back from the trash
 *   GET    /api/blog/:id/revisions         the kept earlier versions (the last 50)
 *   GET    /api/blog/:id/revisions/:n      one kept version, whole
 *   POST   /api/blog/:id/revisions/:n/revert   a new version with that one's content
 *   POST   /api/blog/:id/review           a compliance reviewer's decision on a post in review:
 *                                          approve, or return with a note (blog:admin, If-Match)
 *
 * Reading published posts needs no key; a key that is sent anyway must be valid. Changes need
 * blog:write and a post of the key's owner, or blog:admin. Only successful writes count towards the
 * write limit (failed ones have their own, larger one: http/rate-limit.ts).
 */
import { COMPLIANCE_RULES_HEADER, COMPLIANCE_RULES_VERSION } from '../../../contract/compliance';
import Router from '@koa/router';
import { REPLAYED_HEADER } from '../../../contract/blog';
import type { CategoriesResponse, ListPostsQuery, ListPostsResponse } from '../../../contract/blog-reader';
import { ApiError, validationError } from '../../../contract/errors';
import { readsDrafts } from '../../../contract/keys';
import { type GetPostByIdResponse, type IfMatch, parseIfMatch, postEtag, type PostMovedResponse, type PostWriteResponse, type RevisionResponse, type RevisionsResponse } from '../../../contract/post-lifecycle';
import { type Actor, keyActor } from '../../services/actors';
import { categoriesWithCounts, listPosts } from '../../services/blog-reader';
import { idempotencyScope, readIdempotencyKey } from '../../services/idempotency';
import type { KeyService } from '../../services/keys';
import type { ApprovalInput } from '../../services/approvals';
import type { PostService } from '../../services/post-service';
import { versionStory } from '../../services/post-history';
import { postLocation, presentCreated, presentPost, presentValidation } from '../../services/presenters';
import { AnswerCache, sendCached } from '../../answer-cache';
import type { PostRecord, PostRepository } from '../../store/store';
import { authenticate, BEARER_CHALLENGE, requirePermission } from '../auth';
import type { ApiContext, ApiState } from '../context';
import { readJsonBody } from '../json-body';
import { ALL_METHODS, allowOnly, noSuchEndpoint } from '../methods';
import { type RateLimit, requestRateLimit, type WriteLimits, writeRateLimit } from '../rate-limit';
import { type InputParser, noInput, listQuery, type PostBodyInput, postBody, validate } from '../validate';

export interface BlogRouteDeps {
  keys: KeyService;
  /** Every write: cleaned, gated, stored and recorded there (api/services/post-service.ts). */
  posts: PostService;
  /** Reads, and the post a path names. */
  store: PostRepository;
  writeLimits: WriteLimits;
  /** Validations a minute per key, or per IP without one. */
  validations: RateLimit;
  bodyLimitBytes: number;
}

interface CreateInput extends PostBodyInput {
  idempotencyKey: string | undefined;
}

/** The Idempotency-Key header is checked before the body is read. */
function createInput(bodyLimitBytes: number): InputParser<CreateInput> {
  const body = postBody(bodyLimitBytes);
  return async (ctx) => {
    const header = ctx.headers['idempotency-key'];
    const idempotencyKey = readIdempotencyKey(Array.isArray(header) ? header.join(',') : header);
    return { idempotencyKey, ...(await body(ctx)) };
  };
}

/** The actor of a request whose route authenticated with a key first. */
function actorOf(ctx: ApiContext<unknown>): Actor {
  const key = ctx.state.key;
  if (!key) throw new Error('unreachable: change routes authenticate first');
  return keyActor(key, ctx.ip);
}

function createPost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext<CreateInput>) => {
    const keyId = ctx.state.key?.id ?? null;
    const { idempotencyKey, fingerprint } = ctx.input;
    const idempotency = idempotencyKey !== undefined && keyId !== null ? { scope: idempotencyScope(keyId, idempotencyKey), fingerprint } : undefined;
    const { post, replayed, findings } = await deps.posts.create(ctx.input, actorOf(ctx), idempotency ? { idempotency } : {});
    ctx.status = 201;
    ctx.set('Location', postLocation(post.slug));
    ctx.set('ETag', postEtag(post.id, post.revision));
    if (replayed) ctx.set(REPLAYED_HEADER, 'true');
    ctx.set(COMPLIANCE_RULES_HEADER, COMPLIANCE_RULES_VERSION);
    ctx.body = presentCreated(post, findings);
  };
}

function validatePost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext<PostBodyInput>) => {
    const key = ctx.state.key;
    const checked = await deps.posts.validate(ctx.input, key ? keyActor(key, ctx.ip) : null);
    ctx.set('Cache-Control', 'no-store');
    ctx.set(COMPLIANCE_RULES_HEADER, COMPLIANCE_RULES_VERSION);
    ctx.body = presentValidation(checked.cleaned, checked.slug, checked.findings);
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The post a path names by id, by its slug, or by a slug it had before (`moved`). */
async function findPost(store: PostRepository, idOrSlug: string): Promise<{ post: PostRecord; moved: boolean } | null> {
  if (UUID.test(idOrSlug)) {
    const post = await store.getById(idOrSlug.toLowerCase());
    return post ? { post, moved: false } : null;
  }
  const found = await store.lookupSlug(idOrSlug);
  if (!found) return null;
  const post = await store.getById(found.post.id);
  return post ? { post, moved: found.kind === 'previous' } : null;
}

function notFound(idOrSlug: string): ApiError {
  return new ApiError('post_not_found', { message: `No post has the ${UUID.test(idOrSlug) ? 'id' : 'slug'} "${idOrSlug}".` });
}

/** The post id a change names (an id, or a current or earlier slug); 404 when none. */
async function postIdFor(store: PostRepository, idOrSlug: string): Promise<string> {
  const found = await findPost(store, idOrSlug);
  if (!found) throw notFound(idOrSlug);
  return found.post.id;
}

function ifMatchOf(ctx: ApiContext<unknown>): IfMatch | undefined {
  const header = ctx.get('If-Match');
  return header === '' ? undefined : parseIfMatch(header);
}

function param(ctx: ApiContext<unknown>, name: string): string {
  return ctx.params?.[name] ?? '';
}

function revisionNumber(ctx: ApiContext<unknown>): number {
  const text = param(ctx, 'n');
  if (!/^\d{1,9}$/.test(text)) throw new ApiError('revision_not_found', { message: `"${text}" is not a revision number: revisions are whole numbers (GET /api/blog/${param(ctx, 'id')}/revisions lists them).` });
  return Number(text);
}

function sendWrite(ctx: ApiContext<unknown>, answer: PostWriteResponse): void {
  ctx.set('ETag', answer.etag);
  ctx.set(COMPLIANCE_RULES_HEADER, COMPLIANCE_RULES_VERSION);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = answer;
}

function updatePost(deps: BlogRouteDeps, mode: 'merge' | 'replace') {
  return async (ctx: ApiContext<unknown>) => {
    const id = await postIdFor(deps.store, param(ctx, 'id'));
    sendWrite(ctx, await deps.posts.update(id, ctx.input, mode, ifMatchOf(ctx), actorOf(ctx)));
  };
}

function deletePost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const id = await postIdFor(deps.store, param(ctx, 'id'));
    sendWrite(ctx, await deps.posts.trash(id, ifMatchOf(ctx), actorOf(ctx)));
  };
}

function restorePost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const id = await postIdFor(deps.store, param(ctx, 'id'));
    sendWrite(ctx, await deps.posts.restore(id, actorOf(ctx)));
  };
}

function revertPost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const id = await postIdFor(deps.store, param(ctx, 'id'));
    sendWrite(ctx, await deps.posts.revert(id, revisionNumber(ctx), ifMatchOf(ctx), actorOf(ctx)));
  };
}

const REVIEW_DECISIONS = ['approve', 'return'] as const;

/**
 * The body of POST /api/blog/:id/review: `{ decision: 'approve' }` (with an optional `approval_code` and
 * `approval_expires`, and a `reason` when high findings its author did not accept remain) or
 * `{ decision: 'return', note }`.
 */
function reviewDecision(body: unknown): { decision: (typeof REVIEW_DECISIONS)[number]; note: string; reason: string | undefined; approval: ApprovalInput } {
  const record = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const decision = REVIEW_DECISIONS.find((known) => known === record.decision);
  const note = typeof record.note === 'string' ? record.note.trim() : '';
  if (!decision) throw new ApiError('bad_request', { message: 'Send {"decision": "approve"}, or {"decision": "return", "note": "what the author should change"}.' });
  if (decision === 'return' && (note.length < 10 || note.length > 2000)) {
    throw validationError([{ field: 'note', problem: note ? 'invalid' : 'missing', message: 'note must say in 10 to 2000 characters what the author should change (the author reads it)' }]);
  }
  // An approval's code and expiry (decision 0028): optional, checked by the service (a 400 saying what to give).
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  for (const field of ['approval_code', 'approval_expires'] as const) {
    if (record[field] !== undefined && record[field] !== null && typeof record[field] !== 'string') {
      throw validationError([{ field, problem: 'invalid', message: `${field} must be a string (${field === 'approval_code' ? 'e.g. "ADV-2026-0042"' : 'a date, e.g. "2027-06-30"'}), or left out` }]);
    }
  }
  // Why a post with high findings its author did not accept may be published anyway (checked by the service).
  if (record.reason !== undefined && record.reason !== null && typeof record.reason !== 'string') {
    throw validationError([{ field: 'reason', problem: 'invalid', message: 'reason must be a string saying why the post may be published despite its high findings, or left out' }]);
  }
  return { decision, note, reason: text(record.reason), approval: { code: text(record.approval_code), expires: text(record.approval_expires) } };
}

function reviewPost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext<unknown>) => {
    const key = ctx.state.key;
    if (!key) throw new Error('unreachable: the review route authenticates first');
    requirePermission(key, 'blog:admin');
    const id = await postIdFor(deps.store, param(ctx, 'id'));
    const { decision, note, reason, approval } = reviewDecision(ctx.input);
    const ifMatch = ifMatchOf(ctx);
    if (!ifMatch) throw new ApiError('precondition_required', { hints: ['Read the post with GET /api/blog/:id and send its ETag as If-Match, so you decide on the version you read.'] });
    const revision = ifMatch.kind === 'etags' ? (ifMatch.etags[0]?.revision ?? -1) : ((await deps.store.getById(id))?.revision ?? -1);
    const actor = actorOf(ctx);
    sendWrite(ctx, decision === 'approve' ? await deps.posts.approve(id, revision, actor, reason, approval) : await deps.posts.sendBack(id, revision, note, actor));
  };
}

/** A post whose history a key asks for: the key must read drafts (revisions hold unpublished text). */
async function readablePost(deps: BlogRouteDeps, ctx: ApiContext): Promise<PostRecord> {
  const key = ctx.state.key;
  if (!key) throw new ApiError('missing_api_key', { message: 'Revisions are read with an API key holding blog:read or blog:write.', headers: { 'WWW-Authenticate': BEARER_CHALLENGE } });
  if (!readsDrafts(key.permissions)) requirePermission(key, 'blog:read');
  const found = await findPost(deps.store, param(ctx, 'id'));
  if (!found) throw notFound(param(ctx, 'id'));
  return found.post;
}

function listRevisions(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const post = await readablePost(deps, ctx);
    const revisions = await deps.store.revisions(post.id);
    const body: RevisionsResponse = {
      success: true,
      post: { id: post.id, slug: post.slug, revision: post.revision },
      current: { revision: post.revision, title: post.title, status: post.status, ...versionStory(post, revisions[0]) },
      revisions: revisions.map((kept, index) => ({
        revision: kept.record.revision,
        replaced_at: kept.replacedAt,
        saved_by: kept.record.updatedByKeyId ?? kept.record.createdByKeyId,
        title: kept.record.title,
        status: kept.record.status,
        changed: kept.changed,
        ...versionStory(kept.record, revisions[index + 1]),
      })),
    };
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body;
  };
}

function getRevision(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const post = await readablePost(deps, ctx);
    const n = revisionNumber(ctx);
    const kept = (await deps.store.revisions(post.id)).find((stored) => stored.record.revision === n);
    if (!kept) throw new ApiError('revision_not_found', { message: `Post ${post.id} has no kept revision ${n} (it is at revision ${post.revision}).` });
    ctx.set('Cache-Control', 'private, no-store');
    const body: RevisionResponse = { success: true, revision: n, replaced_at: kept.replacedAt, post: presentPost({ ...kept.record, warnings: [], idempotency: null }, true) };
    ctx.body = body;
  };
}

function listPostsHandler(deps: BlogRouteDeps) {
  // Pages of published posts are the same for every caller until a post changes: kept, serialised
  // and compressed once (docs/decisions/0004-answer-cache.md).
  const published = new AnswerCache(() => String(deps.store.revision()));
  return async (ctx: ApiContext<ListPostsQuery>) => {
    const { mine, status, ...query } = ctx.input;
    if (mine || (status !== undefined && status !== 'published')) {
      const key = ctx.state.key;
      const what = mine ? 'Listing your own posts (?mine=1)' : `Listing ${status} posts`;
      if (!key) throw new ApiError('missing_api_key', { message: `${what} needs an API key holding blog:read or blog:write.`, headers: { 'WWW-Authenticate': BEARER_CHALLENGE } });
      if (!readsDrafts(key.permissions)) requirePermission(key, 'blog:read');
      const body: ListPostsResponse = { success: true, ...(await listPosts(deps.store, { ...query, status: status ?? (mine ? 'any' : 'published'), ...(mine ? { owner: key.owner } : {}) })) };
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = body;
      return;
    }
    const key = JSON.stringify(query);
    const generation = published.current();
    let answer = published.get(key, generation);
    if (!answer) {
      const body: ListPostsResponse = { success: true, ...(await listPosts(deps.store, { ...query, status: 'published' })) };
      answer = published.set(key, { text: JSON.stringify(body), headers: [['Content-Type', 'application/json; charset=utf-8'], ['Cache-Control', 'no-cache']] }, generation);
    }
    sendCached(ctx, answer);
  };
}

function getPostHandler(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const idOrSlug = param(ctx, 'id');
    const key = ctx.state.key;
    const found = await findPost(deps.store, idOrSlug);
    // Without a key a draft, a scheduled post or a post in the trash is not there (the trash: 410).
    if (!found || (!key && found.post.status !== 'published')) {
      throw new ApiError('post_not_found', { message: `No published post has the ${UUID.test(idOrSlug) ? 'id' : 'slug'} "${idOrSlug}".` });
    }
    const { post } = found;
    const hidden = post.status !== 'published' || post.deletedAt !== null;
    if (hidden && key && !readsDrafts(key.permissions)) requirePermission(key, 'blog:read');
    if (post.deletedAt && !key) {
      throw new ApiError('post_gone', { message: `The post "${idOrSlug}" was deleted.` });
    }
    if (found.moved) {
      ctx.status = 301;
      ctx.set('Location', postLocation(post.slug));
      const body: PostMovedResponse = { success: true, message: `This post moved: its slug is now "${post.slug}".`, location: postLocation(post.slug) };
      ctx.body = body;
      return;
    }
    ctx.set('Cache-Control', hidden ? 'private, no-store' : 'no-cache');
    const etag = postEtag(post.id, post.revision);
    ctx.set('ETag', etag);
    const body: GetPostByIdResponse = { success: true, post: presentPost(post, key !== undefined), etag };
    ctx.body = body;
  };
}

function listCategories(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    ctx.set('Cache-Control', 'no-cache');
    const body: CategoriesResponse = { success: true, categories: await categoriesWithCounts(deps.store) };
    ctx.body = body;
  };
}

export function blogRoutes(deps: BlogRouteDeps): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/blog', methods: [...ALL_METHODS] });
  const anyKey = authenticate(deps.keys, { optional: true });

  router.get('/', anyKey, validate(listQuery, listPostsHandler(deps)));
  router.post(
    '/',
    authenticate(deps.keys, { permission: 'blog:write' }),
    writeRateLimit(deps.writeLimits),
    validate(createInput(deps.bodyLimitBytes), createPost(deps)),
  );
  router.all('/', allowOnly('GET', 'HEAD', 'POST'));

  router.post(
    '/validate',
    authenticate(deps.keys, { permission: 'blog:write', optional: true }),
    requestRateLimit(deps.validations, 'validations'),
    validate(postBody(deps.bodyLimitBytes), validatePost(deps)),
  );
  router.all('/validate', allowOnly('POST'));

  router.get('/categories', anyKey, validate(noInput, listCategories(deps)));
  router.all('/categories', allowOnly('GET', 'HEAD'));

  const writer = authenticate(deps.keys, { permission: 'blog:write' });
  const jsonBody: InputParser<unknown> = async (ctx) => (await readJsonBody(ctx, deps.bodyLimitBytes)).value;
  const limited = writeRateLimit(deps.writeLimits);

  router.get('/:id', anyKey, validate(noInput, getPostHandler(deps)));
  router.patch('/:id', writer, limited, validate(jsonBody, updatePost(deps, 'merge')));
  router.put('/:id', writer, limited, validate(jsonBody, updatePost(deps, 'replace')));
  router.delete('/:id', writer, limited, validate(noInput, deletePost(deps)));
  router.all('/:id', allowOnly('GET', 'HEAD', 'PATCH', 'PUT', 'DELETE'));

  router.post('/:id/restore', writer, limited, validate(noInput, restorePost(deps)));
  router.all('/:id/restore', allowOnly('POST'));

  router.get('/:id/revisions', anyKey, validate(noInput, listRevisions(deps)));
  router.all('/:id/revisions', allowOnly('GET', 'HEAD'));
  router.get('/:id/revisions/:n', anyKey, validate(noInput, getRevision(deps)));
  router.all('/:id/revisions/:n', allowOnly('GET', 'HEAD'));
  router.post('/:id/revisions/:n/revert', writer, limited, validate(noInput, revertPost(deps)));
  router.all('/:id/revisions/:n/revert', allowOnly('POST'));
  router.post('/:id/review', writer, limited, validate(jsonBody, reviewPost(deps)));
  router.all('/:id/review', allowOnly('POST'));

  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
