/**
 * The staff area's gate over real HTTP (a small Koa app with the guard in front of a page that
 * answers 200): no-store and noindex on every staff answer, a redirect to sign-in without a session,
 * and the rules a POST must pass (same origin, a form, small enough, a session and its CSRF token;
 * the sign-in form without a session). Sessions are a stand-in that knows one id.
 */
import type { AddressInfo } from 'node:net';
import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_EDIT_FORM_BYTES, type StaffArea } from '../../contract/staff-area';
import type { ActiveSession, Client, StaffSessions } from '../staff/sessions';
import { csrfTokenFor, loginTokenFor, newRandomId } from '../staff/sessions';
import { DEFAULT_SERVICE_SETTINGS } from '../services/services';
import type { Store } from '../store/store';
import { staffGuard, type StaffGuardOptions, staffPath } from './staff-guard';

const SESSION_ID = 'good-session-id';
const ACTIVE = { sessionId: SESSION_ID, session: {}, staff: { id: 'stf_A', email: 'jane@example.com' } } as unknown as ActiveSession;
const sessions = { resolve: async (id: string | undefined) => (id === SESSION_ID ? ACTIVE : null) } as unknown as StaffSessions;

/** The guard over stand-in services: only the sessions are used (the pages behind it are a stand-in too). */
function guardOver(staffSessions: StaffSessions): StaffGuardOptions {
  return { services: { store: {} as Store, sessions: staffSessions, clock: () => new Date(), settings: DEFAULT_SERVICE_SETTINGS } as unknown as StaffGuardOptions['services'] };
}

let server: Server;
let base = '';
const seen: Array<{ path: string; form: string | null; hasArea: boolean }> = [];

beforeAll(async () => {
  const app = new Koa();
  // The guard is made per request, so each test runs the guard's code as it is then (a mutation run
  // switches the code under test between tests).
  app.use((ctx, next) => staffGuard(guardOver(sessions))(ctx, next));
  app.use((ctx) => {
    const form = (ctx.state as { formBody?: Buffer }).formBody;
    seen.push({ path: ctx.path, form: form ? form.toString('utf8') : null, hasArea: Boolean((ctx.state as { staffArea?: unknown }).staffArea) });
    ctx.body = 'page';
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signedIn = { Cookie: `staff_session=${SESSION_ID}` };
const form = 'application/x-www-form-urlencoded';

function post(pagePath: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${base}${pagePath}`, { method: 'POST', body, redirect: 'manual', headers: { 'Content-Type': form, Origin: base, ...headers } });
}

describe('staffPath', () => {
  it('names the staff page of a path, its .data twin and a trailing slash, and nothing else', () => {
    expect(staffPath('/admin')).toBe('/admin');
    expect(staffPath('/admin/')).toBe('/admin');
    expect(staffPath('/admin/review/')).toBe('/admin/review');
    expect(staffPath('/admin/review//')).toBe('/admin/review');
    expect(staffPath('/admin/review.data')).toBe('/admin/review');
    expect(staffPath('/admin.data')).toBe('/admin');
    expect(staffPath('/administrator')).toBeNull();
    expect(staffPath('/blog/admin')).toBeNull();
    expect(staffPath('/')).toBeNull();
  });
});

describe('staffGuard', () => {
  it('leaves other paths alone, without the staff headers', async () => {
    const response = await fetch(`${base}/blog`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeNull();
    expect(response.headers.get('x-robots-tag')).toBeNull();
  });

  it('marks staff pages no-store and noindex, and sends a browser without a session to sign in, keeping where it was going', async () => {
    const response = await fetch(`${base}/admin/review?x=1`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/login?next=%2Fadmin%2Freview%3Fx%3D1');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const head = await fetch(`${base}/admin`, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(303);
  });

  it('opens the sign-in and keys pages, .data requests, and every page with a session', async () => {
    for (const open of ['/admin/login', '/admin/api-keys', '/admin/review.data']) {
      const response = await fetch(`${base}${open}`, { redirect: 'manual' });
      expect(response.status, open).toBe(200);
      expect(response.headers.get('cache-control'), open).toBe('no-store');
    }
    const page = await fetch(`${base}/admin/review`, { headers: signedIn, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ path: '/admin/review', hasArea: true });
  });

  it('takes a signed-in form with its CSRF token, handing the page the body', async () => {
    const body = `_csrf=${csrfTokenFor(SESSION_ID)}&note=ok`;
    const response = await post('/admin/review', body, signedIn);
    expect(response.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ path: '/admin/review', form: body });
  });

  it('refuses a form without the right CSRF token with 403', async () => {
    for (const body of ['note=ok', `_csrf=${csrfTokenFor('another-session')}`, '_csrf=']) {
      const response = await post('/admin/review', body, signedIn);
      expect(response.status, body).toBe(403);
      expect(await response.text()).toBe("403 Forbidden. The form's security token is missing or out of date: reload the page and send it again.\n");
    }
  });

  it('refuses a form without a session with 401, but takes the sign-in form', async () => {
    const ended = await post('/admin/review', `_csrf=${csrfTokenFor(SESSION_ID)}`);
    expect(ended.status).toBe(401);
    expect(ended.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await ended.text()).toBe('401 Unauthorized. Your session has ended: sign in at /admin/login and send the form again.\n');
    const signIn = await post('/admin/login', 'email=a%40b.c&password=x');
    expect(signIn.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ path: '/admin/login', form: 'email=a%40b.c&password=x' });
  });

  it('refuses a form from another site with 403, by Origin or Sec-Fetch-Site', async () => {
    const body = `_csrf=${csrfTokenFor(SESSION_ID)}`;
    const foreign = await post('/admin/review', body, { ...signedIn, Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe("403 Forbidden. Staff forms are taken only from this site's own pages: open the page again and send it from there.\n");
    const crossSite = await post('/admin/review', body, { ...signedIn, 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const sameOrigin = await post('/admin/review', body, { ...signedIn, 'Sec-Fetch-Site': 'same-origin' });
    expect(sameOrigin.status).toBe(200);
  });

  it('refuses a body that is not a form with 415', async () => {
    const response = await post('/admin/review', '{}', { ...signedIn, 'Content-Type': 'application/json' });
    expect(response.status).toBe(415);
    expect(await response.text()).toBe('415 Unsupported Media Type. Send the form as application/x-www-form-urlencoded.\n');
  });

  it('refuses a form over 64 KiB with 413, but takes a review edit up to its own larger limit', async () => {
    const token = `_csrf=${csrfTokenFor(SESSION_ID)}&text=`;
    const fits = `${token}${'a'.repeat(65_536 - token.length)}`;
    expect((await post('/admin/review', fits, signedIn)).status).toBe(200);
    const over = await post('/admin/review', `${fits}a`, signedIn);
    expect(over.status).toBe(413);
    expect(await over.text()).toBe('413 Content Too Large. This staff form can be at most 65536 bytes.\n');
    const edit = `${token}${'a'.repeat(200_000)}`;
    expect((await post('/admin/review/p1', edit, signedIn)).status).toBe(200);
    const tooBig = await post('/admin/review/p1', `${token}${'a'.repeat(REVIEW_EDIT_FORM_BYTES)}`, signedIn);
    expect(tooBig.status).toBe(413);
    expect(await tooBig.text()).toBe(`413 Content Too Large. This staff form can be at most ${REVIEW_EDIT_FORM_BYTES} bytes.\n`);
  });

  it('refuses a form declared over 64 KiB with 413 before its body is sent', async () => {
    // The client sends the headers and a first few bytes, then waits for the answer.
    const request = httpRequest(`${base}/admin/review`, {
      method: 'POST',
      headers: { 'Content-Type': form, 'Content-Length': '70000', Origin: base, ...signedIn },
    });
    request.on('error', () => undefined); // the connection is cut once the server has answered
    const answer = new Promise<IncomingMessage | 'no answer'>((resolve) => {
      request.once('response', resolve);
      setTimeout(() => resolve('no answer'), 3000);
    });
    request.write(`_csrf=${csrfTokenFor(SESSION_ID)}&text=`);
    const response = await answer;
    request.destroy();
    expect(response === 'no answer' ? response : response.statusCode).toBe(413);
  });

  it('counts the bytes actually sent when no length is declared', async () => {
    const token = `_csrf=${csrfTokenFor(SESSION_ID)}&text=`;
    const chunks = [token, 'a'.repeat(40_000), 'a'.repeat(40_000)];
    const stream = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(next));
      },
    });
    const response = await fetch(`${base}/admin/review`, {
      method: 'POST',
      body: stream,
      duplex: 'half',
      headers: { 'Content-Type': form, Origin: base, ...signedIn },
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('gives the larger limit to a review edit page only, not to a path that merely contains one', async () => {
    const token = `_csrf=${csrfTokenFor(SESSION_ID)}&text=`;
    const big = `${token}${'a'.repeat(100_000)}`;
    for (const other of ['/admin/review/p1/history', '/admin/x/admin/review/p1']) {
      expect((await post(other, big, signedIn)).status, other).toBe(413);
    }
  });

  it('leaves other methods without a session to the routes (no redirect)', async () => {
    const response = await fetch(`${base}/admin/review`, { method: 'OPTIONS', redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('staffGuard and the sign-in', () => {
  it("hands the staff area the sign-in form's cookie, the device cookie and the client's address and user agent", async () => {
    const clients: Client[] = [];
    const devices: Array<string | undefined> = [];
    const signingIn = {
      resolve: async () => null,
      signIn: async (_email: string, _password: string, client: Client, device?: string) => {
        clients.push(client);
        devices.push(device);
        return { ok: true, sessionId: 'new-session', staff: ACTIVE.staff, deviceToken: 'device-token' };
      },
    } as unknown as StaffSessions;
    const app = new Koa();
    app.use((ctx, next) => staffGuard(guardOver(signingIn))(ctx, next));
    app.use(async (ctx) => {
      const fields = new URLSearchParams((ctx.state as { formBody: Buffer }).formBody.toString('utf8'));
      const area = (ctx.state as { staffArea: StaffArea }).staffArea;
      const outcome = await area.signIn({ email: fields.get('email') ?? '', password: fields.get('password') ?? '', loginToken: fields.get('loginToken') ?? '' });
      ctx.body = outcome.ok ? 'signed in' : outcome.message;
    });
    const signInServer = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => signInServer.once('listening', resolve));
    const origin = `http://127.0.0.1:${(signInServer.address() as AddressInfo).port}`;
    try {
      const cookieValue = newRandomId();
      const response = await fetch(`${origin}/admin/login`, {
        method: 'POST',
        body: `email=jane%40example.com&password=secret&loginToken=${loginTokenFor(cookieValue)}`,
        headers: { 'Content-Type': form, Origin: origin, Cookie: `staff_login=${cookieValue}; staff_device=earlier-device`, 'User-Agent': 'StaffBrowser/1.0' },
      });
      expect(await response.text()).toBe('signed in');
      expect(clients).toEqual([{ ip: '127.0.0.1', userAgent: 'StaffBrowser/1.0' }]);
      expect(devices).toEqual(['earlier-device']);
    } finally {
      await new Promise<void>((resolve) => signInServer.close(() => resolve()));
    }
  });
});
