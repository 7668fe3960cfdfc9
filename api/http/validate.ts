/**
 * Input checks that put their parsed result on ctx.state: the create-post body (the contract's checks,
 * then the service's cleaning) and the list query. Failures are 400s naming every field.
 */
import { REQUIRED_POST_FIELDS } from '../../contract/blog';
import { listPostsQuerySchema } from '../../contract/blog-reader';
import { ApiError, validationError } from '../../contract/errors';
import { fieldProblemsFrom } from '../../contract/field-problems';
import type { PostPreparer } from '../services/prepare-thread';
import type { ApiMiddleware } from './api-state';

/** Needs ctx.state.bodyText and body (run after jsonBody); sets ctx.state.prepared. */
export function validatePost(preparer: PostPreparer): ApiMiddleware {
  return async (ctx, next) => {
    const text = ctx.state.bodyText;
    if (text === undefined) throw new Error('validatePost runs after jsonBody');
    const outcome = await preparer.prepare({ text, keyId: ctx.state.apiKey?.id ?? null }, ctx.state.body);
    if (!outcome.ok) {
      if (outcome.reason === 'json_string') throw new ApiError('body_is_json_string');
      const inQuery =
        outcome.stage === 'schema'
          ? REQUIRED_POST_FIELDS.filter((field) => ctx.query[field] !== undefined || ctx.query[field.replace('.', '_')] !== undefined)
          : [];
      throw validationError(
        outcome.problems,
        inQuery.length > 0 ? [`${inQuery.join(', ')} arrived as query parameters: send them in the JSON body.`] : [],
      );
    }
    ctx.state.prepared = outcome.prepared;
    await next();
  };
}

/** Sets ctx.state.listQuery from the query string of GET /api/blog. */
export const validateListQuery: ApiMiddleware = async (ctx, next) => {
  const single = Object.fromEntries(Object.entries(ctx.query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
  const parsed = listPostsQuerySchema.safeParse(single, { reportInput: true });
  if (!parsed.success) {
    throw validationError(fieldProblemsFrom(parsed.error.issues), ['page and limit are whole numbers from 1 (limit at most 100); status is draft or published.']);
  }
  ctx.state.listQuery = parsed.data;
  await next();
};
