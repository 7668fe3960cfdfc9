/**
 * The context of the JSON API app. `ctx.state.key` is set by `authenticate` and is the only thing one
 * middleware hands the next; a route's parsed input is not state but the typed `ctx.input` that
 * `validate(input, handler)` gives its handler.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import type { ApiKeySummary } from '../../contract/keys';

export interface ApiState {
  /** The verified API key of the request, when it sent one. */
  key?: ApiKeySummary;
}

export type ApiMiddleware = Middleware<ApiState>;

export type ApiContext<Input = undefined> = ParameterizedContext<ApiState> & {
  /** The route's input, parsed and checked by validate(). */
  input: Input;
  /** The route parameters, when @koa/router matched some. */
  params?: Record<string, string | undefined>;
};

/** The request's path as the client sent it (the API app is mounted under /api and sees the rest). */
export function requestPath(ctx: ParameterizedContext<ApiState>): string {
  return ctx.originalUrl.split('?', 1)[0] ?? ctx.path;
}
