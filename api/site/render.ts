/**
 * Serves the React Router app through Koa: turns the Koa request into a Fetch Request, lets the site's
 * built server entry render it, and writes the Response back. HTML gets a CSP built from its own
 * inline scripts and `Cache-Control: no-cache` (revalidated through its ETag), or `private, no-cache` for
 * a page rendered for one visitor, or `no-store`. In production, rendered pages, feeds and sitemaps
 * (but those two kinds) are kept in memory until a change reaches a post or a list they were made from
 * (api/answer-cache.ts, decision 0031).
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Context, Middleware } from 'koa';
import type { ServerBuild } from 'react-router';
import type { SiteConfig } from '../../contract/site-config';
import type { BlogReader } from '../../contract/blog-reader';
import type { QuoteClient, QuoteIntake } from '../../contract/leads';
import type { StaffArea } from '../../contract/staff-area';
import { cspDirectives, inlineScriptHashes, serializeCsp } from './headers';
import { AnswerCache, type CachedAnswer, type MadeFrom, sendCached } from '../answer-cache';
import { findCategory } from '../../contract/categories';
import { authorListScope, CATEGORIES_SCOPE, categoryListScope, LIST_SCOPE, postScope, tagListScope } from '../store/post-scopes';
import { logRequestFailure } from '../http/errors';
import type { Logger } from '../logger';
import { isStoreRefusal, type StoreError } from '../store/store-error';
import { siteRequestHandler } from './request-handler';

export interface SiteRendererOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'production' | 'development';
  config: SiteConfig;
  csp: boolean;
  /** Published posts for the blog pages' loaders. */
  blog: BlogReader;
  /** The posts' changes: a cached page is kept until one reaches what it was made from. */
  changes: { revision(): number; changesSince(revision: number): readonly string[] | null };
  /** Where the quote form's requests go. */
  quotes: QuoteIntake;
  /** The staff area of a request outside /admin (nobody signed in; its work refuses). */
  anonymousStaff: (ctx: Context) => StaffArea;
  /** Where a page's errors are logged (the server's logger). */
  logger: Logger;
}

/** Who is asking: the address (the proxy's X-Forwarded-For only when trusted), the browser and its privacy signal. */
export function quoteClient(ctx: Context): QuoteClient {
  return { ip: ctx.ip, userAgent: ctx.get('User-Agent'), globalPrivacyControl: ctx.get('Sec-GPC').trim() === '1' };
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
  // A form already read by a guard (the staff area's CSRF check) is passed on as read.
  const read: unknown = ctx.state.formBody;
  const body = read instanceof Buffer ? new Uint8Array(read) : hasBody ? (Readable.toWeb(ctx.req) as ReadableStream<Uint8Array>) : undefined;
  return new Request(url, {
    // HEAD is rendered as GET, so it answers with the very headers a GET gets (Koa sends no body for HEAD).
    method: ctx.method === 'HEAD' ? 'GET' : ctx.method,
    headers,
    signal: controller.signal,
    ...(body ? { body, duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * The blog as a page's loaders read it, noting what they read: the posts shown, the lists asked for (a
 * list is named by its filter; a slug that led to no post by every list, which any post becoming public
 * there joins).
 */
export function recordingReader(blog: BlogReader, scopes: Set<string>): BlogReader {
  const shown = (post: { id: string } | null) => {
    scopes.add(post ? postScope(post.id) : LIST_SCOPE);
  };
  return {
    listPublished: async (list = {}) => {
      const page = await blog.listPublished(list);
      const filters = [
        list.category === undefined ? undefined : categoryListScope(findCategory(list.category)?.slug ?? list.category),
        list.tag === undefined ? undefined : tagListScope(list.tag),
        list.author === undefined ? undefined : authorListScope(list.author),
      ].filter((scope) => scope !== undefined);
      for (const scope of filters.length > 0 ? filters : [LIST_SCOPE]) scopes.add(scope);
      for (const post of page.posts) shown(post);
      return page;
    },
    getPublishedBySlug: async (slug) => {
      const post = await blog.getPublishedBySlug(slug);
      shown(post);
      return post;
    },
    lookupPublished: async (slug) => {
      const found = await blog.lookupPublished(slug);
      shown(found.kind === 'post' ? found.post : null);
      return found;
    },
    categoriesWithCounts: async () => {
      scopes.add(CATEGORIES_SCOPE);
      return blog.categoriesWithCounts();
    },
  };
}

export function siteRenderer(options: SiteRendererOptions): Middleware {
  const handle = siteRequestHandler(options.build, options.mode);
  // Development renders every time (modules change under it); production caches pages.
  const cache = options.mode === 'production' ? new AnswerCache(() => String(new Date().getUTCFullYear())) : undefined;
  let seen = options.changes.revision();
  /** Drops the kept answers the posts' changes since the last look reached. */
  const followChanges = (): void => {
    const now = options.changes.revision();
    if (now === seen || !cache) return;
    cache.invalidate(options.changes.changesSince(seen));
    seen = now;
  };
  return async (ctx) => {
    const cacheKey = ctx.method === 'GET' || ctx.method === 'HEAD' ? ctx.url : undefined;
    followChanges();
    // Read before rendering: a change that reaches the page while it renders keeps it out of the cache.
    const generation = cache?.current();
    const since = cache?.mark() ?? 0;
    const cached = cacheKey ? cache?.get(cacheKey, generation) : undefined;
    if (cached) {
      sendCached(ctx, cached);
      return;
    }
    // The same page for the same state being rendered for another request: its answer is this one's.
    const underWay = cache && cacheKey && generation !== undefined ? cache.rendering(cacheKey, generation) : undefined;
    if (underWay) {
      const shared = await underWay;
      if (shared) {
        sendCached(ctx, shared);
        return;
      }
      // Not an answer to share (an error, a page for one visitor): this request renders its own.
    }
    const finish = cache && cacheKey && generation !== undefined && !underWay ? cache.startRendering(cacheKey, generation) : undefined;
    try {
      await render(ctx, (kept) => finish?.(kept), generation, since);
    } finally {
      finish?.(undefined);
    }
  };

  async function render(ctx: Context, kept: (answer: CachedAnswer) => void, generation: string | undefined, since: number): Promise<void> {
    const cacheKey = ctx.method === 'GET' || ctx.method === 'HEAD' ? ctx.url : undefined;
    const staff = (ctx.state.staffArea as StaffArea | undefined) ?? options.anonymousStaff(ctx);
    // A loader or action that needed the store while it was out of reach (PostgreSQL restarting) or its
    // disk full: React Router would render its error boundary as a 500; the page is the site's own 503
    // or 507 instead (site/errors.ts).
    let unavailable: StoreError | undefined;
    const failed = (error: unknown): boolean => {
      if (!isStoreRefusal(error)) return false;
      unavailable ??= error;
      return true;
    };
    const logError = (error: unknown): void => {
      logRequestFailure(options.logger, `${ctx.method} ${ctx.path} failed while rendering (request ${String(ctx.state.requestId ?? '-')})`, error);
    };
    const scopes = new Set<string>();
    const made: MadeFrom = { scopes, since };
    const blog = cache ? recordingReader(options.blog, scopes) : options.blog;
    const response = await handle(toFetchRequest(ctx), { config: options.config, blog, quotes: options.quotes, client: quoteClient(ctx), staff, failed, logError });
    if (unavailable) {
      await response.body?.cancel();
      throw unavailable;
    }
    const cacheControl = `${response.headers.get('cache-control') ?? ''} ${ctx.response.get('Cache-Control')}`;
    // A page that must never be kept (it is this visitor's answer alone, e.g. a calculator's result).
    const noStore = cacheControl.includes('no-store');
    // A page rendered for one visitor (the quote form's one-time token, decision 0018): their browser
    // may keep it for Back, no other cache and not the page cache here.
    const personal = !noStore && /\bprivate\b/.test(cacheControl);
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') ctx.set(name, value);
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) ctx.set('Set-Cookie', cookies);

    // A download (the staff area's CSV export) is sent as it is made, never held whole, and never cached.
    if (response.body && (response.headers.get('content-disposition') ?? '').startsWith('attachment')) {
      ctx.body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
      return;
    }
    const isHtml = (response.headers.get('content-type') ?? '').startsWith('text/html');
    // Every other answer of the site is text: pages, feeds, sitemaps, robots.txt.
    const text = response.body ? await response.text() : '';
    if (isHtml) {
      if (options.csp && text) ctx.set('Content-Security-Policy', serializeCsp(cspDirectives(options.config, inlineScriptHashes(text))));
      ctx.set('Cache-Control', noStore ? 'no-store' : personal ? 'private, no-cache' : 'no-cache');
    }
    // Complete 200 answers without cookies are kept, pages and feeds alike (api/answer-cache.ts).
    if (cache && cacheKey && response.status === 200 && text && cookies.length === 0 && !noStore && !personal) {
      const headers: Array<[string, string]> = [];
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'set-cookie') headers.push([name, value]);
      });
      if (isHtml) {
        headers.push(['Cache-Control', 'no-cache']);
        const csp = ctx.response.get('Content-Security-Policy');
        if (csp) headers.push(['Content-Security-Policy', csp]);
      }
      followChanges();
      const { answer, kept: isKept } = cache.setFrom(cacheKey, { text, headers }, generation ?? cache.current(), made);
      if (isKept) kept(answer);
      sendCached(ctx, answer);
      return;
    }
    if (cache && cacheKey && response.status === 200 && (noStore || personal || cookies.length > 0)) cache.answeredPersonally(cacheKey);
    ctx.body = text;
  }
}
