/**
 * Errors outside the JSON API become a short HTML page that shows the request id, so a visitor can quote
 * it, and the phone number, so a visitor who came to talk to someone still can. A 5xx never shows its
 * stack: it is logged with the request id. A store out of reach (the database restarting) is a 503 with
 * Retry-After and a page that says so, never a 500. (Pages render their own not-found and error states;
 * this catches what fails around them, and what the site renderer hands up: api/site/render.ts.)
 */
import type { Middleware } from 'koa';
import { escapeMarkup } from '../../contract/markup';
import type { SiteConfig } from '../../contract/site-config';
import { logRequestFailure } from '../http/errors';
import { newRequestId } from '../http/request-id';
import type { Logger } from '../logger';
import { isStoreRefusal, storeRefusalStatus, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../store/store-error';

function statusOf(raw: unknown): number {
  if (isStoreRefusal(raw)) return storeRefusalStatus(raw);
  const status = typeof raw === 'object' && raw !== null ? (raw as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

/** The phone as a link: configuration, so escaped. */
function phoneLink(config: Pick<SiteConfig, 'phoneDisplay' | 'phoneE164'>): string {
  return `<a href="tel:${escapeMarkup(config.phoneE164)}">${escapeMarkup(config.phoneDisplay)}</a>`;
}

/** `requestId` is sane (request-id.ts allows only letters, digits and . _ : -), so it needs no escaping. */
function htmlPage(status: number, requestId: string, config: Pick<SiteConfig, 'phoneDisplay' | 'phoneE164'>, told?: string): string {
  const reference = `<p>If you contact us about this, quote the request id <code>${requestId}</code>.</p>`;
  if (status === 507) {
    const text = `What you sent could not be saved: the site's storage is full. Nothing saved before was lost. Please try again later, or call us at ${phoneLink(config)} and we will help right away.`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not saved</title></head><body><h1>Not saved</h1><p>${text}</p>${reference}</body></html>`;
  }
  if (status === 503) {
    const text = `This page cannot be shown right now: the site is briefly unavailable, and should be back within a minute. Please try again shortly, or call us at ${phoneLink(config)} and we will help right away.`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Back in a moment</title></head><body><h1>Back in a moment</h1><p>${text}</p>${reference}</body></html>`;
  }
  const text =
    status >= 500
      ? `Something went wrong. Please reload or go back to the <a href="/">home page</a>. If it keeps happening, call us at ${phoneLink(config)}.`
      : told
        ? `${escapeMarkup(told)} Go to the <a href="/">home page</a>.`
        : 'This request could not be handled.';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Unexpected Application Error!</title></head><body><h1>Unexpected Application Error!</h1><p>${text}</p>${reference}</body></html>`;
}

export function pageErrorHandler(logger: Logger, config: Pick<SiteConfig, 'phoneDisplay' | 'phoneE164'>): Middleware<{ requestId?: string }> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const status = statusOf(raw);
      const requestId = ctx.state.requestId ?? newRequestId();
      if (status >= 500) logRequestFailure(logger, `${ctx.method} ${ctx.path} failed (request ${requestId})`, raw);
      ctx.status = status;
      if (status === 503) ctx.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      if (status === 503 || status === 507) ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/html; charset=utf-8';
      // A client error raised with a message for the visitor (ctx.throw(400, '...'): `expose`) says it.
      const told = status < 500 && typeof raw === 'object' && raw !== null && (raw as { expose?: unknown }).expose === true ? String((raw as { message?: unknown }).message ?? '') : undefined;
      ctx.body = htmlPage(status, requestId, config, told || undefined);
    }
  };
}
