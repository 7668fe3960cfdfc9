/** GET /api/health for monitors: up, how long, and how many posts the store holds. */
import Router from '@koa/router';
import type { HealthResponse } from '../../contract/blog-reader';
import type { ApiState } from '../middleware/api-state';
import { allowOnly, noSuchEndpoint } from '../middleware/methods';
import type { PostStore } from '../store/post-store';

export function healthRoutes(deps: { store: PostStore }): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/api/health' });
  router.get('/', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const body: HealthResponse = {
      success: true,
      status: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
      posts: deps.store.counts(),
    };
    ctx.body = body;
  });
  router.all('/', allowOnly('GET', 'HEAD'));
  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
