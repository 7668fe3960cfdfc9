/**
 * JSON answers serialised once. Koa serialises an object body only as it sends it, and the middleware
 * that look at the body before that each serialise it on their own: koa-compress to compare its size
 * with the threshold, @koa/etag to hash it. That made three JSON.stringify calls for one answer (two
 * for a write, whose answer has no ETag). Run inside them, this turns an object body into its JSON
 * text once; Koa, the compressor and the ETag then all use that text.
 */
import { Stream } from 'node:stream';
import type { Middleware } from 'koa';

/** True for a body Koa would send as JSON (its body setter sends strings, bytes and streams as they are). */
function isJsonValue(body: unknown): body is object {
  if (typeof body !== 'object' || body === null) return false;
  return !(Buffer.isBuffer(body) || body instanceof Stream || body instanceof ReadableStream || body instanceof Blob || body instanceof Response);
}

export function jsonText(): Middleware {
  return (ctx, next) =>
    next().then(() => {
      const body: unknown = ctx.body;
      // The Content-Type Koa gave the value stays: a string body set after it keeps it.
      if (isJsonValue(body)) ctx.body = JSON.stringify(body);
    });
}
