/**
 * Serves the React Router app through Koa: turns the Koa request into a Fetch Request, lets the site's
 * built server entry render it, and writes the Response back. HTML gets a CSP built from its own
 * inline scripts and `Cache-Control: no-cache` (revalidated through its ETag). In production, rendered
 * pages are kept in memory until a post changes (page-cache.ts).
 */
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { SiteConfig } from '../../contract/site-config';
import type { BlogReader } from '../../contract/blog-reader';
import { cspDirectives, inlineScriptHashes, serializeCsp } from './headers';
import { type CachedPage, type ContentCoding, PageCache } from './page-cache';

export interface SiteRendererOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  config: SiteConfig;
  csp: boolean;
  /** Published posts for the blog pages' loaders. */
  blog: BlogReader;
  /** Moves whenever a post changes (rendered pages are cached until it does). */
  revision: () => number;
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

/** The coding to send a cached page in: brotli when the client takes it, else gzip, else none. */
function preferredCoding(ctx: Context): ContentCoding | undefined {
  if (ctx.acceptsEncodings('br') === 'br') return 'br';
  if (ctx.acceptsEncodings('gzip') === 'gzip') return 'gzip';
  return undefined;
}

function applyCached(ctx: Context, page: CachedPage): void {
  ctx.status = 200;
  for (const [name, value] of page.headers) ctx.set(name, value);
  const coding = preferredCoding(ctx);
  const variant = coding ? page.compressed(coding) : page;
  ctx.set('ETag', variant.etag);
  ctx.vary('Accept-Encoding');
  if (coding) {
    ctx.compress = false; // already compressed, once
    ctx.set('Content-Encoding', coding);
  }
  ctx.body = variant.body;
  ctx.type = 'text/html; charset=utf-8';
}

export function siteRenderer(options: SiteRendererOptions): Middleware {
  const handle = createRequestHandler(options.build, options.mode);
  // Development renders every time (modules change under it); production caches pages.
  const cache =
    options.mode === 'production'
      ? new PageCache(() => `${options.revision()}:${new Date().getUTCFullYear()}`)
      : undefined;
  return async (ctx) => {
    const cacheKey = ctx.method === 'GET' ? ctx.url : undefined;
    const cached = cacheKey ? cache?.get(cacheKey) : undefined;
    if (cached) {
      applyCached(ctx, cached);
      return;
    }
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
      if (cache && cacheKey && response.status === 200 && html && cookies.length === 0) {
        const headers: Array<[string, string]> = [];
        response.headers.forEach((value, name) => {
          if (name !== 'content-length' && name !== 'set-cookie') headers.push([name, value]);
        });
        headers.push(['Cache-Control', 'no-cache']);
        const csp = ctx.response.get('Content-Security-Policy');
        if (csp) headers.push(['Content-Security-Policy', csp]);
        applyCached(ctx, cache.set(cacheKey, { html, headers }));
        return;
      }
      ctx.body = html;
      ctx.type = 'text/html; charset=utf-8';
      return;
    }
    // Feeds, the sitemap and robots.txt: buffered, so that their ETag is computed and a repeat
    // request with If-None-Match is answered 304 like a page.
    ctx.body = response.body && ctx.method !== 'HEAD' ? Buffer.from(await response.arrayBuffer()) : null;
  };
}
