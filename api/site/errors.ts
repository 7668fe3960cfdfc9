/**
 * Errors outside the JSON API become a short HTML page that shows the request id, so a visitor can quote
 * it. A 5xx never shows its stack: it is logged with the request id. (Pages render their own not-found
 * and error states; this catches what fails around them.)
 */
import type { Middleware } from 'koa';
import { newRequestId } from '../http/request-id';
import type { Logger } from '../logger';

function statusOf(raw: unknown): number {
  const status = typeof raw === 'object' && raw !== null ? (raw as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/** `requestId` is sane (request-id.ts allows only letters, digits and . _ : -), so it needs no escaping. */
function htmlPage(status: number, requestId: string): string {
  const text =
    status >= 500
      ? 'Something went wrong. Please reload or go back to the <a href="/">home page</a>.'
      : 'This request could not be handled.';
  const reference = `<p>If you contact us about this, quote the request id <code>${requestId}</code>.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>${text}</p>${reference}</body></html>`;
}

export function pageErrorHandler(logger: Logger): Middleware<{ requestId?: string }> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const status = statusOf(raw);
      const requestId = ctx.state.requestId ?? newRequestId();
      if (status >= 500) logger.error(`${ctx.method} ${ctx.path} failed (request ${requestId})`, raw);
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = htmlPage(status, requestId);
    }
  };
}
