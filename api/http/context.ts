/** What the API middleware hand each other on `ctx.state`, in the order they run. */
import type { Middleware } from 'koa';
import type { ListPostsQuery } from '../../contract/blog-reader';
import type { ApiKeySummary } from '../../contract/keys';
import type { PreparedPost } from '../services/posts';

export interface ApiState {
  /** Set by auth: the verified key. */
  apiKey?: ApiKeySummary;
  /** Set by jsonBody: the exact bytes, their text and its JSON value (the text crosses to threads). */
  rawBody?: Uint8Array;
  bodyText?: string;
  body?: unknown;
  /** Set by idempotency when the request carries an Idempotency-Key. */
  idempotency?: { scope: string; fingerprint: string };
  /** Set by validatePost: the post ready to store, with its warnings. */
  prepared?: PreparedPost;
  /** Set by validateListQuery. */
  listQuery?: ListPostsQuery;
}

export type ApiMiddleware = Middleware<ApiState>;

/** The paths the JSON API answers (everything else under /api/ is a site page, e.g. /api/usage-examples). */
export function isApiPath(path: string): boolean {
  return /^\/api\/(?:blog|health)(?:\/|$)/.test(path);
}
