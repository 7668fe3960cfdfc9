/**
 * `validate(input, handler)`: the last step of every API route. The input parser reads and checks what
 * the route takes (a JSON body against the contract's schema, or the query string) and the handler gets
 * it as the typed `ctx.input`. Failures are 400s naming every field.
 */
import type { ParameterizedContext } from 'koa';
import { type CreatePostData, REQUIRED_POST_FIELDS, checkCreatePostBody } from '../../contract/blog';
import { closest, distance } from 'fastest-levenshtein';
import { LIST_QUERY_PARAMETERS, type ListPostsQuery, listPostsQuerySchema } from '../../contract/blog-reader';
import { ApiError, validationError } from '../../contract/errors';
import { detectForeignShape, foreignShapeMessage, mappingLines } from '../../contract/foreign-shapes';
import { fieldProblemsFrom } from '../../contract/field-problems';
import { bodyFingerprint } from '../services/idempotency';
import type { ApiContext, ApiMiddleware, ApiState } from './context';
import { readJsonBody } from './json-body';

/** Reads and checks a route's input from the request; throws the ApiError that answers a bad one. */
export type InputParser<Input> = (ctx: ParameterizedContext<ApiState>) => Input | Promise<Input>;

export function validate<Input>(parse: InputParser<Input>, handler: (ctx: ApiContext<Input>) => unknown): ApiMiddleware {
  return async (ctx) => {
    const input = await parse(ctx);
    const typed = Object.assign(ctx, { input });
    await handler(typed);
  };
}

/** A create-post body: checked against the contract's schema, not yet cleaned. */
export interface PostBodyInput {
  data: CreatePostData;
  /** Top-level fields the schema does not know (each becomes a warning). */
  ignoredFields: string[];
  /** The fingerprint of the exact bytes, for Idempotency-Key retries. */
  fingerprint: string;
}

export function postBody(limitBytes: number): InputParser<PostBodyInput> {
  return async (ctx) => {
    const body = await readJsonBody(ctx, limitBytes);
    const check = checkCreatePostBody(body.value);
    if (check.ok) return { data: check.data, ignoredFields: check.ignoredFields, fingerprint: bodyFingerprint(body.bytes) };
    if (check.reason === 'json_string') throw new ApiError('body_is_json_string');
    // A post written for WordPress or Ghost fails every required field at once; naming the platform
    // and the mapping is the one thing its author needs, so it replaces the list.
    const foreign = detectForeignShape(body.value);
    if (foreign) {
      ctx.state.bodyShape = foreign.platform;
      throw new ApiError('foreign_post_shape', {
        message: foreignShapeMessage(foreign),
        hints: mappingLines(foreign),
        extra: { platform: foreign.platform, mapping: foreign.mapping },
      });
    }
    const inQuery = REQUIRED_POST_FIELDS.filter((field) => ctx.query[field] !== undefined || ctx.query[field.replace('.', '_')] !== undefined);
    throw validationError(check.problems, inQuery.length > 0 ? [`${inQuery.join(', ')} arrived as query parameters: send them in the JSON body.`] : []);
  };
}

/** A 400 naming the query parameters an endpoint does not take, with the closest one it does. */
export function unknownParameters(names: readonly string[], allowed: readonly string[]): ApiError {
  const hints = names.map((name) => {
    if (name === 'api_key' || name === 'key') return `${name}: an API key goes in the Authorization header (Bearer <key>), never in the URL, where logs keep it.`;
    const near = closest(name.toLowerCase(), [...allowed]);
    return distance(name.toLowerCase(), near) <= 3 ? `${name}: did you mean ${near}?` : `${name}: not a parameter of this endpoint.`;
  });
  const list = names.map((name) => `"${name}"`).join(', ');
  return new ApiError('unknown_query_parameter', {
    message: `Unknown query parameter${names.length === 1 ? '' : 's'} ${list}: this endpoint takes ${allowed.join(', ')}.`,
    hints,
    extra: { unknown: names, allowed },
  });
}

/** The query string of GET /api/blog; a parameter it does not take is a 400 naming it. */
export const listQuery: InputParser<ListPostsQuery> = (ctx) => {
  const unknown = Object.keys(ctx.query).filter((name) => !LIST_QUERY_PARAMETERS.includes(name));
  if (unknown.length > 0) throw unknownParameters(unknown, LIST_QUERY_PARAMETERS);
  const single = Object.fromEntries(Object.entries(ctx.query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
  const parsed = listPostsQuerySchema.safeParse(single, { reportInput: true });
  if (!parsed.success) {
    throw validationError(fieldProblemsFrom(parsed.error.issues), [
      'page and limit are whole numbers from 1 (limit at most 100); status is draft, scheduled, published or trashed; mine is 1.',
    ]);
  }
  return parsed.data;
};

/** Routes that take nothing. */
export const noInput: InputParser<undefined> = () => undefined;
