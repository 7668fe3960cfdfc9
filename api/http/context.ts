/**
 * The context of the JSON API app. The site server's `requestId` middleware sets `ctx.state.requestId`
 * (the API app is mounted with koa-mount and shares ctx.state); `authenticate` sets `ctx.state.key` and
 * `ctx.state.keyId`; the error handler sets `ctx.state.errorCode` for the request log. A route's parsed
 * input is not state but the typed `ctx.input` that `validate(input, handler)` gives its handler.
 */
import type { Middleware, ParameterizedContext } from 'koa';
import type { ErrorCode } from '../../contract/errors';
import type { KeyMistake } from '../../contract/key-mistakes';
import type { ApiKeySummary } from '../../contract/keys';

export interface ApiState {
  /** The request's id, answered in the X-Request-Id header and every error body. */
  requestId?: string;
  /** The verified API key of the request, when it sent one. */
  key?: ApiKeySummary;
  /** The public id of the key the request named (well-formed, verified or not): never the secret. */
  keyId?: string;
  /** How the key was sent wrong (a line break, quotes...), when auth recognised the mistake; never the key. */
  keyMistake?: KeyMistake;
  /** The other platform a refused body was shaped for (WordPress, Ghost...), when one was recognised. */
  bodyShape?: string;
  /** The catalogue code the request was answered with, when it failed. */
  errorCode?: ErrorCode;
  /** The failed answer's facts for the request log (the limit that applied, a conflict's revisions): ApiError.facts. */
  errorFacts?: Record<string, unknown>;
  /** The JSON body as read (json-body.ts): its first bytes and its size, for the request log. */
  bodyRead?: { sample: Uint8Array; size: number };
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
