/**
 * `X-Request-Id` on every answer, pages and API alike: a sane incoming id (up to 128 of
 * `A-Z a-z 0-9 . _ : -`, so a proxy's or client's id can be followed through) is kept, anything else is
 * replaced by a new `req_` id. The id is `ctx.state.requestId` for everything below.
 */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isSaneRequestId(value: string): boolean {
  return SANE_REQUEST_ID.test(value);
}

export function newRequestId(): string {
  return `req_${randomUUID().replaceAll('-', '')}`;
}

export const requestId: Middleware<{ requestId?: string }> = (ctx, next) => {
  const incoming = ctx.get('X-Request-Id');
  const id = isSaneRequestId(incoming) ? incoming : newRequestId();
  ctx.state.requestId = id;
  ctx.set('X-Request-Id', id);
  return next();
};
