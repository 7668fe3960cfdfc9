/**
 * IndieAuth (decision 0030), so a writing app that only knows IndieAuth gets a site API key:
 *
 *   GET  /.well-known/oauth-authorization-server   the metadata (issuer, endpoints, S256, scopes)
 *   GET  /admin/indieauth      the authorization endpoint: a consent page for a signed-in staff member
 *                              (else the sign-in page, which comes back here), naming the app
 *                              (client_id) and what each scope lets it do; a plain HTML form
 *   POST /admin/indieauth      Allow or Deny (this site's origin, the session's CSRF token): Allow
 *                              stores a code (its SHA-256 only, 5 minutes, single use, with the PKCE
 *                              challenge) and sends the browser back to the app's redirect_uri
 *   POST /indieauth/token      the code, client_id, redirect_uri and code_verifier exchanged for an
 *                              access token that IS a new API key (the key service makes it, owned by
 *                              the staff member who allowed it, named after the app), answered once
 *   GET  /indieauth/token      token verification: a Bearer token's me, client_id and scope
 *
 * Scopes: create, update, delete or media -> blog:write; read (or none) -> blog:read. The redirect_uri
 * must be on the client_id's origin (no client metadata is fetched: the server makes no requests out).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { ApiPermission } from '../../contract/keys';
import { INDIEAUTH_AUTHORIZATION_PATH, INDIEAUTH_METADATA_PATH, INDIEAUTH_TOKEN_PATH, MICROPUB_PATH } from '../../contract/writing-apps';
import { readForm } from '../http/form-body';
import { API_HEADERS } from '../http/headers';
import { isValidHost } from '../http/methods';
import { ownOrigin } from '../http/proxy-trust';
import { KeyError } from '../services/keys';
import type { Services } from '../services/services';
import { cookieNames, csrfTokenFor, sameToken } from '../staff/sessions';
import type { IndieAuthGrant } from '../store/store';

/** How long an authorization code can be exchanged. */
export const CODE_TTL_MS = 5 * 60 * 1000;

/** The scopes this site grants, with what each lets the app do (the consent page says it). */
export const SCOPES: Readonly<Record<string, string>> = {
  create: 'publish new posts in your name',
  update: 'change your posts',
  delete: 'move your posts to the trash and restore them',
  media: 'upload images',
  read: 'read your posts, drafts included',
};

const WRITE_SCOPES: ReadonlySet<string> = new Set(['create', 'update', 'delete', 'media']);

/** The key permission a set of scopes stands for. */
export function permissionFor(scopes: readonly string[]): ApiPermission {
  return scopes.some((scope) => WRITE_SCOPES.has(scope)) ? 'blog:write' : 'blog:read';
}

const FORM_BYTES = 16_384;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function httpUrl(text: string | undefined): URL | null {
  if (!text || text.length > 2000) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/** An authorization request, checked; `redirect` only once the redirect_uri may be trusted with errors. */
interface AuthorizationRequest {
  clientId: URL;
  redirectUri: URL;
  state: string;
  codeChallenge: string;
  scopes: string[];
}

type Checked = { ok: true; request: AuthorizationRequest } | { ok: false; problem: string; redirect: URL | null; state: string | null };

/** The authorization request's parameters checked in the order the spec gives them. */
export function checkAuthorizationRequest(params: URLSearchParams): Checked {
  const clientId = httpUrl(params.get('client_id') ?? undefined);
  if (!clientId) return { ok: false, problem: 'client_id must be the app’s http(s) URL.', redirect: null, state: null };
  const redirectUri = httpUrl(params.get('redirect_uri') ?? undefined);
  if (!redirectUri) return { ok: false, problem: 'redirect_uri must be an http(s) URL.', redirect: null, state: null };
  if (redirectUri.origin !== clientId.origin) {
    return { ok: false, problem: `redirect_uri (${redirectUri.origin}) must be on the app’s own origin (${clientId.origin}).`, redirect: null, state: null };
  }
  const state = params.get('state');
  const fail = (problem: string): Checked => ({ ok: false, problem, redirect: redirectUri, state });
  if (params.get('response_type') !== 'code') return fail('response_type must be code.');
  if (!state || state.length > 512) return fail('state is required (at most 512 characters).');
  if (params.get('code_challenge_method') !== 'S256') return fail('PKCE is required: code_challenge_method must be S256.');
  const codeChallenge = params.get('code_challenge') ?? '';
  if (!PKCE_CHALLENGE.test(codeChallenge)) return fail('code_challenge must be the base64url SHA-256 of the code verifier (43 characters).');
  const scopes = [...new Set((params.get('scope') ?? '').split(/\s+/).filter((scope) => Object.hasOwn(SCOPES, scope)))];
  return { ok: true, request: { clientId, redirectUri, state, codeChallenge, scopes } };
}

function redirectWith(redirect: URL, values: Record<string, string>): string {
  const url = new URL(redirect.href);
  for (const [name, value] of Object.entries(values)) url.searchParams.set(name, value);
  return url.href;
}

/** The app as the consent page names it. */
function appName(clientId: URL): string {
  return clientId.host + (clientId.pathname === '/' ? '' : clientId.pathname);
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head><body><main id="main">${body}</main></body></html>`;
}

function consentPage(request: AuthorizationRequest, staff: { name: string; email: string }, csrf: string): string {
  const app = escapeHtml(appName(request.clientId));
  const scopes = request.scopes.length > 0 ? request.scopes : ['read'];
  const permission = permissionFor(scopes);
  const hidden: Record<string, string> = {
    response_type: 'code',
    client_id: request.clientId.href,
    redirect_uri: request.redirectUri.href,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    scope: request.scopes.join(' '),
    _csrf: csrf,
  };
  return page(
    `Allow ${appName(request.clientId)} to post?`,
    `<h1>Allow <strong>${app}</strong> to use this site as you?</h1>
<p>You are signed in as ${escapeHtml(staff.name)} (${escapeHtml(staff.email)}). The app at <code>${escapeHtml(request.clientId.href)}</code> asks to:</p>
<ul>${scopes.map((scope) => `<li><strong>${escapeHtml(scope)}</strong>: ${escapeHtml(SCOPES[scope] ?? scope)}</li>`).join('')}</ul>
<p>Allowing it creates an API key with the <code>${permission}</code> permission, owned by you and named after the app. Every post it sends meets the compliance rules like any other. You can revoke the key at any time on <a href="/admin/api-keys">API keys</a>.</p>
<p>After you choose, your browser goes back to <code>${escapeHtml(request.redirectUri.href)}</code>.</p>
<form method="post" action="${INDIEAUTH_AUTHORIZATION_PATH}">
${Object.entries(hidden)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join('\n')}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export interface IndieAuthOptions {
  services: Services;
}

/** The IndieAuth door in the site server (before the pages' guards): its paths answered here, the rest goes on. */
export function indieAuthDoor(options: IndieAuthOptions): Middleware {
  const { services } = options;
  const { store, keys, sessions } = services;

  function originOf(ctx: Context): string | null {
    return isValidHost(ctx.host) ? ownOrigin(ctx) : null;
  }

  function oauthError(ctx: Context, status: number, error: string, description: string): void {
    ctx.status = status;
    ctx.body = { error, error_description: description };
  }

  function htmlPage(ctx: Context, status: number, html: string, formTo = ''): void {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', `default-src 'none'; form-action 'self'${formTo ? ` ${formTo}` : ''}; frame-ancestors 'none'; base-uri 'none'`);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.body = html;
  }

  function problemPage(ctx: Context, problem: string): void {
    htmlPage(ctx, 400, page('The app’s sign-in request cannot be used', `<h1>The app’s sign-in request cannot be used</h1><p>${escapeHtml(problem)}</p><p>Nothing was granted. Go back to the app and start its sign-in again; if it keeps happening, the app does not speak IndieAuth as this site needs (authorization code with PKCE S256).</p>`));
  }

  async function authorization(ctx: Context, origin: string): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Robots-Tag', 'noindex, nofollow');
    // Not no-referrer: Chromium then sends the form's POST with Origin: null, which the origin check refuses.
    // same-origin: the app (another origin) is never told the consent page's address.
    ctx.set('Referrer-Policy', 'same-origin');
    const active = await sessions.resolve(ctx.cookies.get(cookieNames(ctx.secure).session));
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const checked = checkAuthorizationRequest(new URLSearchParams(ctx.querystring));
      if (!checked.ok) {
        if (!checked.redirect) return problemPage(ctx, checked.problem);
        ctx.status = 303;
        ctx.redirect(redirectWith(checked.redirect, { error: 'invalid_request', error_description: checked.problem, ...(checked.state ? { state: checked.state } : {}), iss: `${origin}/` }));
        ctx.status = 303;
        return;
      }
      if (!active) {
        ctx.redirect(`/admin/login?next=${encodeURIComponent(`${INDIEAUTH_AUTHORIZATION_PATH}?${ctx.querystring}`)}`);
        ctx.status = 303;
        return;
      }
      return htmlPage(ctx, 200, consentPage(checked.request, active.staff, csrfTokenFor(active.sessionId)), checked.request.redirectUri.origin);
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, HEAD, POST');
      return htmlPage(ctx, 405, page('Method not allowed', '<h1>Method not allowed</h1><p>Open this page from the app’s sign-in.</p>'));
    }
    const from = ctx.get('Origin');
    if ((from && from !== origin) || ctx.get('Sec-Fetch-Site') === 'cross-site') return htmlPage(ctx, 403, page('Forbidden', '<h1>Forbidden</h1><p>This form is taken only from this site’s own page: open the app’s sign-in again.</p>'));
    if (!ctx.is('application/x-www-form-urlencoded')) return htmlPage(ctx, 415, page('Unsupported form', '<h1>Unsupported form</h1><p>Send the form as this site’s page does.</p>'));
    const raw = await readForm(ctx, FORM_BYTES);
    if (!raw) return htmlPage(ctx, 413, page('Form too large', '<h1>Form too large</h1>'));
    const form = new URLSearchParams(raw.toString('utf8'));
    if (!active) return htmlPage(ctx, 401, page('Signed out', '<h1>Your session has ended</h1><p>Nothing was granted. <a href="/admin/login">Sign in</a>, then start the app’s sign-in again.</p>'));
    if (!sameToken(csrfTokenFor(active.sessionId), form.get('_csrf') ?? '')) return htmlPage(ctx, 403, page('Forbidden', '<h1>This form has expired</h1><p>Nothing was granted. Start the app’s sign-in again.</p>'));
    const checked = checkAuthorizationRequest(form);
    if (!checked.ok) return problemPage(ctx, checked.problem);
    const { request } = checked;
    ctx.status = 303;
    if (form.get('decision') !== 'allow') {
      ctx.redirect(redirectWith(request.redirectUri, { error: 'access_denied', error_description: 'The site’s staff member did not allow the app.', state: request.state, iss: `${origin}/` }));
      ctx.status = 303;
      return;
    }
    const code = randomBytes(32).toString('base64url');
    const grant: IndieAuthGrant = {
      clientId: request.clientId.href,
      redirectUri: request.redirectUri.href,
      scope: request.scopes.join(' '),
      codeChallenge: request.codeChallenge,
      staffEmail: active.staff.email,
      me: `${origin}/`,
    };
    await store.indieAuthCodes.add(sha256Hex(code), grant, services.clock().getTime() + CODE_TTL_MS);
    ctx.redirect(redirectWith(request.redirectUri, { code, state: request.state, iss: `${origin}/` }));
    ctx.status = 303;
  }

  /** A unique key name for the app: its host, the day, a short random tail (the key list shows it). */
  function keyNameFor(clientId: string): string {
    const host = (httpUrl(clientId)?.host ?? 'app').replace(/[^\w.:-]/g, '-').slice(0, 28);
    return `IndieAuth ${host} ${services.clock().toISOString().slice(0, 10)} ${randomBytes(3).toString('hex')}`;
  }

  async function token(ctx: Context, origin: string): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    for (const [name, value] of API_HEADERS) ctx.set(name, value);
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
      const verified = bearer ? await keys.verify(bearer) : null;
      if (!verified?.ok) {
        ctx.set('WWW-Authenticate', 'Bearer error="invalid_token"');
        return oauthError(ctx, 401, 'invalid_token', 'Send a valid access token as Authorization: Bearer <token>.');
      }
      const record = await store.keys.findById(verified.key.id);
      const scope = record?.indieAuth?.scope ?? (verified.key.permissions.some((permission) => permission !== 'blog:read') ? 'create update delete media read' : 'read');
      ctx.body = { me: `${origin}/`, client_id: record?.indieAuth?.clientId ?? null, scope };
      return;
    }
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'GET, HEAD, POST');
      return oauthError(ctx, 405, 'invalid_request', 'The token endpoint takes POST (a code exchange) and GET (verifying a token).');
    }
    if (!ctx.is('application/x-www-form-urlencoded')) return oauthError(ctx, 400, 'invalid_request', 'Send the token request as application/x-www-form-urlencoded.');
    const raw = await readForm(ctx, FORM_BYTES);
    if (!raw) return oauthError(ctx, 400, 'invalid_request', `The token request is larger than ${FORM_BYTES} bytes.`);
    const form = new URLSearchParams(raw.toString('utf8'));
    if (form.get('grant_type') !== 'authorization_code') return oauthError(ctx, 400, 'unsupported_grant_type', 'grant_type must be authorization_code.');
    const code = form.get('code') ?? '';
    const verifier = form.get('code_verifier') ?? '';
    if (code === '' || code.length > 200) return oauthError(ctx, 400, 'invalid_request', 'code is required.');
    if (!PKCE_VERIFIER.test(verifier)) return oauthError(ctx, 400, 'invalid_request', 'code_verifier is required: 43 to 128 characters of A-Z, a-z, 0-9 and - . _ ~.');
    // Taken whatever follows: a code that met a wrong verifier or client is spent (RFC 6749 10.5).
    const grant = await store.indieAuthCodes.take(sha256Hex(code), services.clock().getTime());
    if (!grant) return oauthError(ctx, 400, 'invalid_grant', 'The code is unknown, used already or expired (codes last 5 minutes): sign in from the app again.');
    if (grant.clientId !== form.get('client_id') || grant.redirectUri !== form.get('redirect_uri')) {
      return oauthError(ctx, 400, 'invalid_grant', 'client_id and redirect_uri must be those of the authorization request.');
    }
    const expected = Buffer.from(grant.codeChallenge);
    const given = Buffer.from(s256(verifier));
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return oauthError(ctx, 400, 'invalid_grant', 'code_verifier does not match the code_challenge of the authorization request.');
    const scopes = grant.scope === '' ? [] : grant.scope.split(' ');
    const permission = permissionFor(scopes);
    let created: Awaited<ReturnType<typeof keys.create>>;
    try {
      created = await keys.create({ name: keyNameFor(grant.clientId), permissions: [permission], owner: grant.staffEmail, indieAuth: { clientId: grant.clientId, scope: grant.scope || 'read' } });
    } catch (error) {
      if (error instanceof KeyError) return oauthError(ctx, 400, 'invalid_request', error.message);
      throw error;
    }
    await store.audit.append({
      at: services.clock().toISOString(),
      actor: `staff:${grant.staffEmail}`,
      action: 'key.created',
      target: created.key.id,
      detail: { name: created.key.name, owner: created.key.owner, permissions: permission, via: 'indieauth', clientId: grant.clientId.slice(0, 200) },
      ip: ctx.ip,
    });
    ctx.body = { access_token: created.secret, token_type: 'Bearer', scope: grant.scope || 'read', me: grant.me };
  }

  function metadata(ctx: Context, origin: string): void {
    for (const [name, value] of API_HEADERS) ctx.set(name, value);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = {
      issuer: `${origin}/`,
      authorization_endpoint: `${origin}${INDIEAUTH_AUTHORIZATION_PATH}`,
      token_endpoint: `${origin}${INDIEAUTH_TOKEN_PATH}`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      scopes_supported: Object.keys(SCOPES),
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${origin}/api/usage-examples`,
      micropub_endpoint: `${origin}${MICROPUB_PATH}`,
    };
  }

  return async (ctx, next) => {
    const path = ctx.path;
    if (path !== INDIEAUTH_METADATA_PATH && path !== INDIEAUTH_AUTHORIZATION_PATH && path !== INDIEAUTH_TOKEN_PATH) return next();
    const origin = originOf(ctx);
    if (!origin) {
      ctx.status = 400;
      ctx.body = 'Bad Request: the Host header is not valid.';
      return;
    }
    if (path === INDIEAUTH_METADATA_PATH) {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      return metadata(ctx, origin);
    }
    if (path === INDIEAUTH_TOKEN_PATH) return token(ctx, origin);
    return authorization(ctx, origin);
  };
}
