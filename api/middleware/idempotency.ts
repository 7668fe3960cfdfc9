/**
 * Idempotency-Key on create: a retry with the same key and the same body gets the first answer again
 * (and creates nothing); the same key with another body is a 422; keys are remembered for 24 hours per
 * API key. Without the header nothing changes. The store repeats the check inside its write queue, so
 * two identical requests racing each other still create one post.
 */
import { ApiError } from '../../contract/errors';
import { bodyFingerprint, idempotencyScope, readIdempotencyKey } from '../services/idempotency';
import type { PostService } from '../services/posts';
import { postLocation, presentCreated } from '../services/presenters';
import type { ApiMiddleware } from './api-state';

export const REPLAYED_HEADER = 'Idempotency-Replayed';

/** Needs ctx.state.apiKey and ctx.state.rawBody (run after auth and jsonBody). */
export function idempotency(posts: PostService): ApiMiddleware {
  return (ctx, next) => {
    const header = ctx.headers['idempotency-key'];
    const key = readIdempotencyKey(Array.isArray(header) ? header.join(',') : header);
    const apiKey = ctx.state.apiKey;
    if (key === undefined || !apiKey || !ctx.state.rawBody) return next();

    const scope = idempotencyScope(apiKey.id, key);
    const fingerprint = bodyFingerprint(ctx.state.rawBody);
    const earlier = posts.findIdempotent(scope);
    if (earlier) {
      if (earlier.idempotency?.fingerprint !== fingerprint) throw new ApiError('idempotency_key_mismatch');
      ctx.status = 201;
      ctx.set('Location', postLocation(earlier.slug));
      ctx.set(REPLAYED_HEADER, 'true');
      ctx.body = presentCreated(earlier);
      return Promise.resolve();
    }
    ctx.state.idempotency = { scope, fingerprint };
    return next();
  };
}
