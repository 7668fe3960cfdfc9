/** The end of every API path's chain: methods it does not have, and paths that do not exist. */
import { ApiError } from '../../contract/errors';
import { type ApiMiddleware, requestPath } from './context';

/** Answers the methods a path does not have: 204 with Allow for OPTIONS, 405 with Allow otherwise. */
export function allowOnly(...methods: string[]): ApiMiddleware {
  const allowed = [...methods, 'OPTIONS'];
  return (ctx) => {
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowed.join(', '));
      ctx.status = 204;
      return;
    }
    throw new ApiError('method_not_allowed', {
      message: `${ctx.method} is not allowed on ${requestPath(ctx)}; it accepts ${methods.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
      extra: { allow: allowed },
    });
  };
}

export const noSuchEndpoint: ApiMiddleware = (ctx) => {
  throw new ApiError('not_found', { message: `There is no API endpoint at ${requestPath(ctx)}.` });
};
