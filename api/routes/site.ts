/**
 * Serves the React Router app through Koa: turns the Koa request into a Fetch Request, lets React
 * Router render it, and writes the Response back. HTML gets a CSP built from its own inline scripts
 * and `Cache-Control: no-cache` (revalidated through the ETag set further up the chain).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context, Middleware } from 'koa';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { SiteConfig } from '../../web/content/site-config';
import type { BlogReader } from '../contract/blog-reader';
import { cspDirectives, inlineScriptHashes, serializeCsp } from '../middleware/security-headers';

export interface SiteRendererOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  config: SiteConfig;
  csp: boolean;
  /** Published posts for the blog pages' loaders. */
  blog: BlogReader;
}

export function toFetchRequest(ctx: Context): Request {
  const url = new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(ctx.req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const controller = new AbortController();
  ctx.res.once('close', () => controller.abort());
  const hasBody = ctx.method !== 'GET' && ctx.method !== 'HEAD';
  return new Request(url, {
    method: ctx.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(ctx.req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
}

export function siteRenderer(options: SiteRendererOptions): Middleware {
  const handle = createRequestHandler(options.build, options.mode);
  return async (ctx) => {
    const response = await handle(toFetchRequest(ctx), { config: options.config, blog: options.blog });
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') ctx.set(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) ctx.set('Set-Cookie', cookies);

    if ((response.headers.get('content-type') ?? '').startsWith('text/html')) {
      const html = ctx.method === 'HEAD' ? '' : await response.text();
      if (options.csp && html) {
        ctx.set('Content-Security-Policy', serializeCsp(cspDirectives(options.config, inlineScriptHashes(html))));
      }
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = html;
      ctx.type = 'text/html; charset=utf-8';
      return;
    }
    ctx.body = response.body ? Readable.fromWeb(response.body as WebReadableStream) : null;
  };
}
