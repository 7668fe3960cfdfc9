/**
 * The blog API under /api/blog. Each route lists its middleware in the order they run, then its
 * handler; every path also declares the methods it allows, so anything else is a 405 with Allow.
 *
 *   GET  /api/blog              published posts, newest first (page, limit, category, tag);
 *                               ?status=draft with a key holding blog:read
 *   POST /api/blog              create a post (key with blog:write, JSON body)
 *   POST /api/blog/validate     the same checks as a create, no key needed, nothing saved
 *   GET  /api/blog/categories   the categories with their post counts
 *   GET  /api/blog/:slug        one published post (drafts too with a blog:read key)
 *
 * Reading published posts needs no key; a key that is sent anyway must be valid.
 */
import Router, { type RouterMiddleware } from '@koa/router';
import type { CategoriesResponse, GetPostResponse, ListPostsResponse } from '../../contract/blog-reader';
import { ApiError } from '../../contract/errors';
import type { ApiMiddleware, ApiState } from '../middleware/api-state';
import { authenticate, identifyApiKey, optionalApiKey, requireApiKey, requirePermission } from '../middleware/auth';
import { idempotency, REPLAYED_HEADER } from '../middleware/idempotency';
import { allowOnly, noSuchEndpoint } from '../middleware/methods';
import { jsonBody } from '../middleware/json-body';
import { type RateLimiter, rateLimit } from '../middleware/rate-limit';
import { validateListQuery, validatePost } from '../middleware/validate';
import type { KeyService } from '../services/keys';
import type { PostService } from '../services/posts';
import type { PostPreparer } from '../services/prepare-thread';
import { postLocation, presentCreated, presentValidation } from '../services/presenters';
import type { PostStore } from '../store/post-store';

export interface BlogRouteDeps {
  keys: KeyService;
  posts: PostService;
  /** Checks and cleans a create's body (on a thread while creates keep coming). */
  preparer: PostPreparer;
  store: PostStore;
  limiter: RateLimiter;
  bodyLimitBytes: number;
}

function createPost(deps: BlogRouteDeps): ApiMiddleware {
  return async (ctx) => {
    const prepared = ctx.state.prepared;
    if (!prepared) throw new Error('createPost runs after validatePost');
    const { post, replayed } = await deps.posts.create(prepared, ctx.state.idempotency);
    ctx.status = 201;
    ctx.set('Location', postLocation(post.slug));
    if (replayed) ctx.set(REPLAYED_HEADER, 'true');
    ctx.body = presentCreated(post);
  };
}

function validateOnly(deps: BlogRouteDeps): ApiMiddleware {
  return (ctx) => {
    const prepared = ctx.state.prepared;
    if (!prepared) throw new Error('validateOnly runs after validatePost');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentValidation(prepared, deps.posts.previewSlug(prepared));
  };
}

function listPosts(deps: BlogRouteDeps): ApiMiddleware {
  return async (ctx) => {
    const query = ctx.state.listQuery;
    if (!query) throw new Error('listPosts runs after validateListQuery');
    const drafts = query.status === 'draft';
    if (drafts) await authenticate(ctx, deps.keys, 'blog:read');
    const page = deps.store.list({ ...query, status: drafts ? 'draft' : 'published' });
    ctx.set('Cache-Control', drafts ? 'private, no-store' : 'no-cache');
    const body: ListPostsResponse = { success: true, ...page };
    ctx.body = body;
  };
}

function getPost(deps: BlogRouteDeps): RouterMiddleware<ApiState> {
  return async (ctx) => {
    const slug = ctx.params.slug ?? '';
    const key = ctx.state.apiKey;
    // Without a key a draft does not exist; a key must hold blog:read to see it.
    const post = await deps.store.getBySlug(slug, { includeDrafts: key !== undefined });
    if (!post) throw new ApiError('post_not_found', { message: `No published post has the slug "${slug}".` });
    if (post.status === 'draft' && key) requirePermission(key, 'blog:read');
    ctx.set('Cache-Control', post.status === 'published' ? 'no-cache' : 'private, no-store');
    const body: GetPostResponse = { success: true, post };
    ctx.body = body;
  };
}

function listCategories(deps: BlogRouteDeps): ApiMiddleware {
  return async (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    const body: CategoriesResponse = { success: true, categories: await deps.store.categoriesWithCounts() };
    ctx.body = body;
  };
}

export function blogRoutes(deps: BlogRouteDeps): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/api/blog' });
  const body = jsonBody({ limitBytes: deps.bodyLimitBytes });

  const identify = identifyApiKey(deps.keys);
  const prepare = validatePost(deps.preparer);

  router.get('/', identify, validateListQuery, listPosts(deps));
  router.post('/', requireApiKey(deps.keys, 'blog:write'), rateLimit(deps.limiter), body, idempotency(deps.posts), prepare, createPost(deps));
  router.all('/', allowOnly('GET', 'HEAD', 'POST'));

  router.post('/validate', optionalApiKey(deps.keys, 'blog:write'), body, prepare, validateOnly(deps));
  router.all('/validate', allowOnly('POST'));

  router.get('/categories', identify, listCategories(deps));
  router.all('/categories', allowOnly('GET', 'HEAD'));

  router.get('/:slug', identify, getPost(deps));
  router.all('/:slug', allowOnly('GET', 'HEAD'));

  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
