/**
 * GET /api/openapi.json: the OpenAPI 3.1 document of the API (contract/openapi.ts), built and serialised
 * once, on the first request, then answered as the same bytes (ETag and 304 come from the site's
 * middleware, CORS from the API app's, like every other read).
 */
import Router from '@koa/router';
import packageJson from '../../../package.json' with { type: 'json' };
import { buildOpenApiDocument, OPENAPI_PATH } from '../../../contract/openapi';
import type { ApiState } from '../context';
import { ALL_METHODS, allowOnly } from '../methods';

export interface OpenApiRouteDeps {
  /** SITE_URL: the server the document names (paths start with /api). */
  serverUrl?: string;
}

/** The route's path inside the API app (mounted at /api). */
const ROUTE = OPENAPI_PATH.replace(/^\/api/, '');

export function openApiRoutes(deps: OpenApiRouteDeps = {}): Router<ApiState> {
  const router = new Router<ApiState>({ methods: [...ALL_METHODS] });
  let text: string | undefined;
  router.get(ROUTE, (ctx) => {
    text ??= JSON.stringify(buildOpenApiDocument({ version: packageJson.version, ...(deps.serverUrl ? { serverUrl: deps.serverUrl } : {}) }));
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = text;
  });
  router.all(ROUTE, allowOnly('GET', 'HEAD'));
  return router;
}
