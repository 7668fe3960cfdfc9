/**
 * Errors outside the JSON API become a short HTML page. A 5xx never shows its stack: it is logged with
 * a request id. (Pages render their own not-found and error states; this catches what fails around them.)
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../logger';

function statusOf(raw: unknown): number {
  const status = typeof raw === 'object' && raw !== null ? (raw as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

function htmlPage(status: number): string {
  const text =
    status >= 500
      ? 'Something went wrong. Please reload or go back to the <a href="/">home page</a>.'
      : 'This request could not be handled.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>${text}</p></body></html>`;
}

export function pageErrorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const status = statusOf(raw);
      if (status >= 500) logger.error(`${ctx.method} ${ctx.path} failed (request ${randomUUID()})`, raw);
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = htmlPage(status);
    }
  };
}
