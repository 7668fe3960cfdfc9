/**
 * The gate of the staff area (/admin and below, and the app's `.data` twins of those paths): resolves
 * the session the cookie names, marks every answer `no-store` and `noindex`, sends a browser without
 * a session to the sign-in page, and takes a POST only from this site's own pages, as a form, small,
 * and (but for the sign-in form, which has its own token) carrying the session's CSRF token. The body
 * a POST was checked with is kept for the page's action (ctx.state.formBody). Loaders check the
 * session again (web/routes/admin/), so a `.data` request without one is redirected by them.
 */
import type { Context, Middleware } from 'koa';
import { REVIEW_EDIT_FORM_BYTES, type StaffArea } from '../../contract/staff-area';
import { cookieNames, csrfTokenFor, sameToken } from '../staff/sessions';
import { staffArea, type StaffAreaDeps } from '../staff/staff-area';
import { readForm } from '../http/form-body';
import { ownOrigin } from '../http/proxy-trust';

const FORM_BYTES = 65_536;

function formLimitFor(page: string): number {
  return /^\/admin\/review\/[^/]+$/.test(page) || /^\/admin\/posts\/(?:[^/]+\/edit|new)$/.test(page) ? REVIEW_EDIT_FORM_BYTES : FORM_BYTES;
}
/** Paths a browser without a session may open (the keys page explains keys to authors). */
const OPEN_PATHS: ReadonlySet<string> = new Set(['/admin/login', '/admin/api-keys']);
/** The one form taken without a session: the sign-in, which carries its own token. */
const SIGN_IN = '/admin/login';

/** The staff-area path a request is for (`.data` stripped), or null when it is not one. */
export function staffPath(path: string): string | null {
  const page = path.endsWith('.data') ? path.slice(0, -'.data'.length) : path;
  return page === '/admin' || page.startsWith('/admin/') ? page.replace(/\/+$/, '') || '/admin' : null;
}

function refuse(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `${text}\n`;
}


/** What the staff area needs (api/staff/staff-area.ts), passed on whole to each request's area. */
export type StaffGuardOptions = StaffAreaDeps;

export function staffGuard(options: StaffGuardOptions): Middleware {
  return async (ctx, next) => {
    const page = staffPath(ctx.path);
    if (!page) return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    const names = cookieNames(ctx.secure);
    const active = await options.services.sessions.resolve(ctx.cookies.get(names.session));
    const area: StaffArea = staffArea(
      options,
      { active, loginCookieValue: ctx.cookies.get(names.login), deviceCookieValue: ctx.cookies.get(names.device), client: { ip: ctx.ip, userAgent: ctx.get('User-Agent') }, secure: ctx.secure },
    );
    ctx.state.staffArea = area;
    const open = OPEN_PATHS.has(page);

    if (ctx.method === 'POST') {
      const own = ownOrigin(ctx);
      const origin = ctx.get('Origin');
      if ((origin && origin !== own) || ctx.get('Sec-Fetch-Site') === 'cross-site') {
        refuse(ctx, 403, "403 Forbidden. Staff forms are taken only from this site's own pages: open the page again and send it from there.");
        return;
      }
      if (!ctx.is('application/x-www-form-urlencoded')) {
        refuse(ctx, 415, '415 Unsupported Media Type. Send the form as application/x-www-form-urlencoded.');
        return;
      }
      const limit = formLimitFor(page);
      const body = await readForm(ctx, limit);
      if (!body) {
        refuse(ctx, 413, `413 Content Too Large. This staff form can be at most ${limit} bytes.`);
        return;
      }
      if (page !== SIGN_IN) {
        if (!active) {
          refuse(ctx, 401, '401 Unauthorized. Your session has ended: sign in at /admin/login and send the form again.');
          return;
        }
        const given = new URLSearchParams(body.toString('utf8')).get('_csrf') ?? '';
        if (!sameToken(csrfTokenFor(active.sessionId), given)) {
          refuse(ctx, 403, "403 Forbidden. The form's security token is missing or out of date: reload the page and send it again.");
          return;
        }
      }
      ctx.state.formBody = body;
      return next();
    }

    const isData = ctx.path.endsWith('.data');
    if (!active && !open && !isData && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
      ctx.status = 303;
      ctx.redirect(`/admin/login?next=${encodeURIComponent(ctx.originalUrl)}`);
      return;
    }
    return next();
  };
}
