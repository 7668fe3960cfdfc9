/**
 * The one place errors become responses. API paths answer JSON `{ success: false, message, code }`;
 * everything else a short HTML page. A 5xx never shows its stack or internal message.
 */
import type { Middleware } from 'koa';

export interface Logger {
  info: (message: string) => void;
  error: (message: string, error?: unknown) => void;
}

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  message?: string;
  code?: string;
}

function statusOf(error: HttpLikeError): number {
  const status = error.status ?? error.statusCode ?? 500;
  return status >= 400 && status <= 599 ? status : 500;
}

export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const error = (typeof raw === 'object' && raw !== null ? raw : { message: String(raw) }) as HttpLikeError;
      const status = statusOf(error);
      if (status >= 500) logger.error(`${ctx.method} ${ctx.path} failed`, raw);
      const message =
        status >= 500 ? 'Server error. Please try again later or contact support.' : (error.message ?? 'Bad request');
      ctx.status = status;
      if (ctx.path.startsWith('/api/')) {
        ctx.body = { success: false, message, code: status >= 500 ? 'server_error' : (error.code ?? 'bad_request') };
      } else {
        ctx.type = 'text/html; charset=utf-8';
        ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>${status >= 500 ? 'Something went wrong. Please reload or go back to the <a href="/">home page</a>.' : 'This request could not be handled.'}</p></body></html>`;
      }
    }
  };
}
