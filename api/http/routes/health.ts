/**
 * GET /api/health for monitors and load balancers: up, how long, and how many posts the store holds
 * (200); or, while the store cannot be read (its database restarting or out of reach, a damaged file),
 * 503 with status `degraded`, the reason in words and Retry-After, so the instance leaves the rotation
 * until it can serve again. Nothing is cached or restarted: the next check that reads the store says ok.
 */
import Router from '@koa/router';
import type { HealthDegradedResponse, HealthResponse } from '../../../contract/blog-reader';
import type { PostRepository } from '../../store/store';
import { isStoreUnavailable, type StoreError, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../store/store-error';
import type { ApiState } from '../context';
import { ALL_METHODS, allowOnly, noSuchEndpoint } from '../methods';

/** The reason a degraded answer gives: what an operator looks at first, without the database's address. */
export function degradedReason(error: StoreError): string {
  switch (error.problem) {
    case 'unavailable':
      return 'The database cannot be reached (it may be restarting): pages and API requests that need it answer 503 until it is back.';
    case 'damaged':
      return 'The database is damaged: restore it from a backup (the server log names the file).';
    default:
      return 'The store cannot be read: the server log says why.';
  }
}

export function healthRoutes(deps: { store: PostRepository }): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/health', methods: [...ALL_METHODS] });
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const uptimeSeconds = Math.round(process.uptime());
    let posts: HealthResponse['posts'];
    try {
      posts = await deps.store.counts();
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      const body: HealthDegradedResponse = { success: false, status: 'degraded', uptimeSeconds, code: 'storage_unavailable', reason: degradedReason(error) };
      ctx.status = 503;
      ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      ctx.body = body;
      return;
    }
    const body: HealthResponse = { success: true, status: 'ok', uptimeSeconds, posts };
    ctx.body = body;
  });
  router.all('/', allowOnly('GET', 'HEAD'));
  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
