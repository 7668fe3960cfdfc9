/**
 * The one place errors become responses. API paths answer JSON built from the error catalogue (the
 * ApiError's code, message and guidance tailored to the client's User-Agent); everything else a short
 * HTML page. A 5xx never shows its stack or internal message: it is logged with a request id, and the
 * answer carries that id for support.
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { identifyClientWithHints } from '../../contract/clients';
import { ApiError, errorBodyFor, errorCodeForStatus } from '../../contract/errors';
import { isApiPath } from './api-state';

export interface Logger {
  info: (message: string) => void;
  error: (message: string, error?: unknown) => void;
}

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
  headers?: unknown;
}

function statusOf(error: HttpLikeError): number {
  const status = typeof error.status === 'number' ? error.status : typeof error.statusCode === 'number' ? error.statusCode : 500;
  return status >= 400 && status <= 599 ? status : 500;
}

/** Any thrown value as an ApiError: ApiErrors as they are, http-errors by their status, the rest as 500. */
export function toApiError(raw: unknown): ApiError {
  if (raw instanceof ApiError) return raw;
  const error: HttpLikeError = typeof raw === 'object' && raw !== null ? raw : {};
  const status = statusOf(error);
  const code = errorCodeForStatus(status);
  const exposed = status < 500 && error.expose === true && typeof error.message === 'string';
  const headers =
    typeof error.headers === 'object' && error.headers !== null
      ? Object.fromEntries(Object.entries(error.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
  return new ApiError(code, { ...(exposed ? { message: String(error.message) } : {}), headers, cause: raw });
}

function htmlPage(status: number): string {
  const text =
    status >= 500
      ? 'Something went wrong. Please reload or go back to the <a href="/">home page</a>.'
      : 'This request could not be handled.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>${text}</p></body></html>`;
}

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const error = toApiError(raw);
      if (error.status >= 500) {
        const requestId = randomUUID();
        logger.error(`${ctx.method} ${ctx.path} failed (request ${requestId})`, raw);
        error.extra.requestId = requestId;
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      if (isApiPath(ctx.path)) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = errorBodyFor(error, identifyClientWithHints(ctx.get('User-Agent'), ctx.query).kind);
      } else {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = htmlPage(error.status);
      }
    }
  };
}
