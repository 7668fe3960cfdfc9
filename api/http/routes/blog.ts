/**
 * The blog API, mounted at /api/blog. Each route lists its steps in the order they run:
 * authenticate(permission) -> rate limit -> validate(input, handler); the handler calls a service and
 * answers through a presenter. Every path also declares the methods it allows (anything else: 405).
 *
 *   GET  /api/blog              published posts, newest first (page, limit, category, tag);
 *                               ?status=draft with a key holding blog:read
 *   POST /api/blog              create a post (key with blog:write, JSON body)
 *   POST /api/blog/validate     the same checks as a create, no key needed, nothing saved (its own
 *                               rate limit, per key or per IP)
 *   GET  /api/blog/categories   the categories with their post counts
 *   GET  /api/blog/:slug        one published post (drafts too with a blog:read key)
 *
 * Reading published posts needs no key; a key that is sent anyway must be valid. Only successful
 * creates count towards the write limit (failed ones have their own, larger one: http/rate-limit.ts).
 */
import Router from '@koa/router';
import { REPLAYED_HEADER } from '../../../contract/blog';
import type { CategoriesResponse, GetPostResponse, ListPostsQuery, ListPostsResponse } from '../../../contract/blog-reader';
import { ApiError, validationError } from '../../../contract/errors';
import { categoriesWithCounts, getPost, listPosts } from '../../services/blog-reader';
import { idempotencyScope, readIdempotencyKey } from '../../services/idempotency';
import type { KeyService } from '../../services/keys';
import { type CleanedPost, cleanPost, type PostService } from '../../services/posts';
import { postLocation, presentCreated, presentValidation } from '../../services/presenters';
import { AnswerCache, sendCached } from '../../answer-cache';
import type { PostRepository } from '../../store/store';
import { authenticate, BEARER_CHALLENGE, requirePermission } from '../auth';
import type { ApiContext, ApiState } from '../context';
import { ALL_METHODS, allowOnly, noSuchEndpoint } from '../methods';
import { type RateLimiter, requestRateLimit, type WriteLimits, writeRateLimit } from '../rate-limit';
import { type InputParser, noInput, listQuery, type PostBodyInput, postBody, validate } from '../validate';

export interface BlogRouteDeps {
  keys: KeyService;
  posts: PostService;
  store: PostRepository;
  writeLimits: WriteLimits;
  /** Validations a minute per key, or per IP without one. */
  validations: RateLimiter;
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

/** Cleans a checked body; a 400 listing what cleaning left wrong. */
function cleaned(input: PostBodyInput, keyId: string | null): CleanedPost {
  const outcome = cleanPost(input.data, input.ignoredFields, keyId);
  if (!outcome.ok) throw validationError(outcome.problems);
  return outcome.cleaned;
}

function createPost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext<CreateInput>) => {
    const keyId = ctx.state.key?.id ?? null;
    const { idempotencyKey, fingerprint } = ctx.input;
    const idempotency = idempotencyKey !== undefined && keyId !== null ? { scope: idempotencyScope(keyId, idempotencyKey), fingerprint } : undefined;
    const { post, replayed } = await deps.posts.create(cleaned(ctx.input, keyId), idempotency ? { idempotency } : {});
    ctx.status = 201;
    ctx.set('Location', postLocation(post.slug));
    if (replayed) ctx.set(REPLAYED_HEADER, 'true');
    ctx.body = presentCreated(post);
  };
}

function validatePost(deps: BlogRouteDeps) {
  return async (ctx: ApiContext<PostBodyInput>) => {
    const post = cleaned(ctx.input, ctx.state.key?.id ?? null);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentValidation(post, await deps.posts.previewSlug(post));
  };
}

function listPostsHandler(deps: BlogRouteDeps) {
  // Pages of published posts are the same for every caller until a post changes: kept, serialised
  // and compressed once (docs/decisions/0004-answer-cache.md).
  const published = new AnswerCache(() => String(deps.store.revision()));
  return async (ctx: ApiContext<ListPostsQuery>) => {
    if (ctx.input.status === 'draft') {
      if (!ctx.state.key) throw new ApiError('missing_api_key', { message: 'Listing drafts needs an API key holding blog:read.', headers: { 'WWW-Authenticate': BEARER_CHALLENGE } });
      requirePermission(ctx.state.key, 'blog:read');
      const body: ListPostsResponse = { success: true, ...(await listPosts(deps.store, { ...ctx.input, status: 'draft' })) };
      ctx.set('Cache-Control', 'private, no-store');
      ctx.body = body;
      return;
    }
    const key = JSON.stringify(ctx.input);
    let answer = published.get(key);
    if (!answer) {
      const body: ListPostsResponse = { success: true, ...(await listPosts(deps.store, { ...ctx.input, status: 'published' })) };
      answer = published.set(key, { text: JSON.stringify(body), headers: [['Content-Type', 'application/json; charset=utf-8'], ['Cache-Control', 'no-cache']] });
    }
    sendCached(ctx, answer);
  };
}

function getPostHandler(deps: BlogRouteDeps) {
  return async (ctx: ApiContext) => {
    const slug = ctx.params?.slug ?? '';
    const key = ctx.state.key;
    // Without a key a draft does not exist; a key must hold blog:read to see it.
    const post = await getPost(deps.store, slug, { includeDrafts: key !== undefined });
    if (!post) throw new ApiError('post_not_found', { message: `No published post has the slug "${slug}".` });
    if (post.status === 'draft' && key) requirePermission(key, 'blog:read');
    ctx.set('Cache-Control', post.status === 'published' ? 'no-cache' : 'private, no-store');
    const body: GetPostResponse = { success: true, post };
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

  router.get('/:slug', anyKey, validate(noInput, getPostHandler(deps)));
  router.all('/:slug', allowOnly('GET', 'HEAD'));

  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
