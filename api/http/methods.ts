/**
 * Methods and paths the server does not have: the end of every API path's chain (405 with Allow, 404
 * with the closest endpoint), the request-level checks every path runs first (a Host header that is
 * not a host), and the methods the site's pages answer.
 */
import { METHODS } from 'node:http';
import { closest } from 'fastest-levenshtein';
import type { Middleware } from 'koa';
import { ApiError } from '../../contract/errors';
import { type ApiMiddleware, requestPath } from './context';
import { readForm, readsAsForm } from './form-body';
import { ownOrigin } from './proxy-trust';

/** Every method Node's parser accepts: the API's routers match them all, so each path answers its own 405. */
export const ALL_METHODS: readonly string[] = METHODS;

/** The API's endpoints, for the "did you mean" of a 404 (the blog's `/api/blog/:slug` is under /api/blog). */
export const API_ENDPOINTS: readonly string[] = ['/api/blog', '/api/blog/validate', '/api/blog/categories', '/api/media', '/api/health', '/api/openapi.json'];

/** Answers the methods a path does not have: 204 with Allow for OPTIONS, 405 with Allow otherwise. */
export function allowOnly(...methods: string[]): ApiMiddleware {
  const allowed = [...methods, 'OPTIONS'];
  return (ctx) => {
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowed.join(', '));
      ctx.status = 204;
      return;
    }
    throw new ApiError('method_not_allowed', {
      message: `${ctx.method} is not allowed on ${requestPath(ctx)}; it accepts ${methods.join(', ')}.`,
      headers: { Allow: allowed.join(', ') },
      extra: { allow: allowed },
    });
  };
}

/** The endpoint a mistyped path most likely meant: the longest one it extends, else the nearest by edit distance. */
export function closestEndpoint(path: string): string {
  const lower = path.toLowerCase().replace(/\/+$/, '');
  const extended = API_ENDPOINTS.filter((endpoint) => lower.startsWith(`${endpoint}/`)).sort((a, b) => b.length - a.length)[0];
  return extended ?? closest(lower, [...API_ENDPOINTS]);
}

export const noSuchEndpoint: ApiMiddleware = (ctx) => {
  const path = requestPath(ctx);
  const suggestion = closestEndpoint(path);
  throw new ApiError('not_found', {
    message: `There is no API endpoint at ${path}. Did you mean ${suggestion}?`,
    extra: { didYouMean: suggestion },
  });
};

/** True when `host` (a Host header, with its port) is a host name, IPv4 or bracketed IPv6 address a URL can hold. */
export function isValidHost(host: string): boolean {
  if (!/^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(?::[0-9]{1,5})?$/.test(host)) return false;
  try {
    return new URL(`http://${host}/`).hostname !== '';
  } catch {
    return false;
  }
}

const HOST_PROBLEM = 'The Host header is missing or not a valid host name: send the name of this server, e.g. Host: www.example.com.';

/** The API's 400 for a Host header that is not a host (the site server's guard answers the pages). */
export const requireValidHost: ApiMiddleware = (ctx, next) => {
  if (!isValidHost(ctx.host)) throw new ApiError('bad_request', { message: HOST_PROBLEM });
  return next();
};

/** What the pages answer to; other methods are 405 with Allow. */
const PAGE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Pages with a form that posts to the server: the path itself (a browser without the app's script)
 * and its `.data` twin (the app's own submission). Each takes POST from this site's pages only.
 */
export const FORM_PAGES: ReadonlyMap<string, { bodyBytes: number }> = new Map([
  ['/get-quote', { bodyBytes: 16_384 }],
  ['/get-quote.data', { bodyBytes: 16_384 }],
  ['/stop-contacting-me', { bodyBytes: 1_024 }],
  ['/stop-contacting-me.data', { bodyBytes: 1_024 }],
]);

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

const tooLarge = (bytes: number) => `413 Content Too Large. The form can be at most ${bytes} bytes; shorten the notes and send it again.`;

function plain(ctx: Parameters<Middleware>[0], status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${text}\n`;
}

/**
 * Answers a form's POST that is refused before it is read (true), else lets it through (false): from
 * another site's page (Origin or Sec-Fetch-Site say so), a body that is not a form, or one larger
 * than the form can be.
 */
function refuseFormPost(ctx: Parameters<Middleware>[0], bodyBytes: number): boolean {
  const origin = ctx.get('Origin');
  const fetchSite = ctx.get('Sec-Fetch-Site');
  const own = ownOrigin(ctx);
  if ((origin && origin !== own) || fetchSite === 'cross-site') {
    plain(ctx, 403, `403 Forbidden. This form takes requests from this site's own pages only: open ${own}${ctx.path.replace(/\.data$/, '')} and send it from there.`);
    return true;
  }
  if (!FORM_TYPES.some((type) => ctx.is(type))) {
    plain(ctx, 415, `415 Unsupported Media Type. Send the form as ${FORM_TYPES.join(' or ')}.`);
    return true;
  }
  const length = Number(ctx.get('Content-Length'));
  if (!ctx.get('Content-Length') || !Number.isInteger(length)) {
    plain(ctx, 411, '411 Length Required. Send the form with a Content-Length header, as browsers do.');
    return true;
  }
  if (length > bodyBytes) {
    plain(ctx, 413, tooLarge(bodyBytes));
    return true;
  }
  return false;
}

/** Whether a path's percent-encoding reads as UTF-8 (`/%E0%A4%A` does not). */
function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Guards the site's pages and files (everything the API app did not answer): a malformed Host is a
 * plain-text 400, an address that cannot be decoded the site's 400 page, and methods other than GET
 * and HEAD a 405 with Allow (OPTIONS a 204), before the
 * renderer, which builds a URL from the Host and a fetch Request that refuses TRACE and CONNECT.
 */
export const pageRequestGuard: Middleware = async (ctx, next) => {
  if (!isValidHost(ctx.host)) {
    ctx.status = 400;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `400 Bad Request. ${HOST_PROBLEM}\n`;
    return;
  }
  if (!decodablePath(ctx.path)) ctx.throw(400, 'The address could not be read: it has a % that is not followed by a valid encoded character. Check the link you followed.');
  if (ctx.method === 'GET' || ctx.method === 'HEAD') return next();
  // A staff form the staff area's gate (site/staff-guard.ts) has already read and checked.
  if (ctx.method === 'POST' && ctx.state.formBody instanceof Buffer) return next();
  const form = FORM_PAGES.get(ctx.path);
  if (form && ctx.method === 'POST') {
    if (refuseFormPost(ctx, form.bodyBytes)) return;
    // Read here, so a body that is not the form it says it is gets a 400, not the page's error.
    const body = await readForm(ctx, form.bodyBytes);
    if (!body) {
      plain(ctx, 413, tooLarge(form.bodyBytes));
      return;
    }
    if (!(await readsAsForm(body, ctx.get('Content-Type')))) {
      plain(ctx, 400, `400 Bad Request. The form could not be read (its body is not the ${ctx.is(FORM_TYPES) || 'form'} it says it is). Open ${ownOrigin(ctx)}${ctx.path.replace(/\.data$/, '')} and send it from there.`);
      return;
    }
    ctx.state.formBody = body;
    return next();
  }
  ctx.set('Allow', (form ? ['GET', 'HEAD', 'POST', 'OPTIONS'] : PAGE_METHODS).join(', '));
  if (ctx.method === 'OPTIONS') {
    ctx.status = 204;
    return;
  }
  ctx.status = 405;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `405 Method Not Allowed. ${ctx.method} is not allowed on ${ctx.path}; ${form ? 'this page answers GET, HEAD and POST' : 'pages answer GET and HEAD'}.\n`;
};
