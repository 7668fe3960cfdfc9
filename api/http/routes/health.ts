/** GET /api/health for monitors: up, how long, and how many posts the store holds. */
import Router from '@koa/router';
import type { HealthResponse } from '../../../contract/blog-reader';
import type { PostRepository } from '../../store/store';
import type { ApiState } from '../context';
import { ALL_METHODS, allowOnly, noSuchEndpoint } from '../methods';

export function healthRoutes(deps: { store: PostRepository }): Router<ApiState> {
  const router = new Router<ApiState>({ prefix: '/health', methods: [...ALL_METHODS] });
  router.get('/', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const body: HealthResponse = {
      success: true,
      status: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
      posts: await deps.store.counts(),
    };
    ctx.body = body;
  });
  router.all('/', allowOnly('GET', 'HEAD'));
  router.all('/{*rest}', noSuchEndpoint);
  return router;
}
