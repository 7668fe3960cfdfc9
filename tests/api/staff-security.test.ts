/**
 * The staff area's defences over plain HTTP: every /admin page refuses without a session (a redirect
 * to sign-in, nothing of a lead in the answer, a POST 401), every answer is no-store and noindex; the
 * sign-in's error never says whether the e-mail exists, its form needs its own token, and guessing is
 * slowed per account; the session cookie is HttpOnly, SameSite=Lax and new at every sign-in; a form
 * without the CSRF token, with a wrong one, or from another origin is refused; a session id is useless
 * after sign-out (or sign-out everywhere) and after its idle time; `next` never leads off the site;
 * and no password or session id is in any data file or log line.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRYPT_PARAMETERS } from '../../api/staff/passwords';
import { leadRecord } from '../support/store-contract';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';

const EMAIL = 'agent@example.com';
const PASSWORD = 'correct horse battery staple 42';
const SECRET_LEAD = leadRecord('lead_SECRETSECRETSECRET00', { name: 'Zebediah Secretname' });
/** How far the server's clock runs ahead of the test's (moved to let a session idle out). */
const clock = { shiftMs: 0 };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => new Date(Date.now() + clock.shiftMs) });
  await server.seedStaff(EMAIL, PASSWORD, 'Alex Agent');
  await server.store.leads.create(SECRET_LEAD, []);
});
afterAll(async () => {
  await server?.close();
});

function cookieOf(res: Response, name: string): string | undefined {
  const line = res.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return line?.split(';', 1)[0]?.slice(name.length + 1);
}

type Browser = StaffClient;

function browser(): Browser {
  return staffClient(server.url);
}

async function loginToken(client: Browser): Promise<string> {
  return loginTokenOf(client);
}

async function signIn(client: Browser, password = PASSWORD, email = EMAIL, next = '/admin'): Promise<Response> {
  const token = await loginToken(client);
  return client.request('/admin/login', { form: { email, password, loginToken: token, next } });
}

async function csrf(client: Browser, pathname: string): Promise<string> {
  const html = await (await client.request(pathname)).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`${pathname} has no CSRF token`);
  return token;
}

const PROTECTED = ['/admin', '/admin/leads', '/admin/leads.csv', `/admin/leads/${SECRET_LEAD.id}`, '/admin/leads?status=new', '/admin/posts', '/admin/audit', '/admin/logout'];

describe('without a session', () => {
  it('every staff page redirects to sign-in (coming back after), shows nothing of a lead, and is no-store and noindex', async () => {
    const client = browser();
    for (const pathname of PROTECTED) {
      const res = await client.request(pathname);
      expect(res.status, pathname).toBe(303);
      expect(res.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(pathname)}`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(await res.text()).not.toContain('Secretname');
    }
    // The app's data requests of the same pages are redirected by their loaders, with nothing in them.
    for (const pathname of ['/admin.data', '/admin/leads.data', `/admin/leads/${SECRET_LEAD.id}.data`]) {
      const res = await client.request(pathname);
      const body = await res.text();
      expect(body, pathname).not.toContain('Secretname');
      expect(body).toContain('/admin/login');
    }
  });

  it('a POST to a staff page is 401, and the sign-in page itself is open, no-store and noindex', async () => {
    const res = await browser().request(`/admin/leads/${SECRET_LEAD.id}`, { form: { intent: 'delete', confirm: 'yes' } });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('sign in at /admin/login');
    expect(await server.store.leads.get(SECRET_LEAD.id)).not.toBeNull();
    const login = await browser().request('/admin/login');
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const html = await login.text();
    expect(html).toContain('<h1>Admin Login</h1>');
    expect(html).toContain('noindex');
  });
});

describe('signing in', () => {
  it('gives an HttpOnly, SameSite=Lax session cookie, a new one every time, and goes where it was asked (on this site only)', async () => {
    const first = browser();
    const res = await signIn(first, PASSWORD, EMAIL, '/admin/leads?status=new');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/leads?status=new');
    const line = res.headers.getSetCookie().find((cookie) => cookie.startsWith('staff_session=')) ?? '';
    expect(line).toMatch(/; Path=\/;/);
    expect(line).toContain('HttpOnly');
    expect(line).toContain('SameSite=Lax');
    const second = browser();
    await signIn(second);
    expect(second.cookies.get('staff_session')).not.toBe(first.cookies.get('staff_session'));
    const page = await first.request('/admin');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Admin Dashboard');
    for (const next of ['//evil.example/admin', 'https://evil.example', '/\\evil.example', '/blog']) {
      const away = await signIn(browser(), PASSWORD, EMAIL, next);
      expect(away.headers.get('location'), next).toBe('/admin');
    }
  });

  it('answers a wrong password and an unknown e-mail alike, and a form without its token is refused', async () => {
    const wrong = await signIn(browser(), 'not the password at all');
    const unknown = await signIn(browser(), PASSWORD, 'nobody@example.com');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (html: string) => /data-testid="login-error"><p>([^<]+)</.exec(html)?.[1];
    expect(message(await wrong.text())).toBe(message(await unknown.text()));
    expect(wrong.headers.getSetCookie().some((cookie) => cookie.startsWith('staff_session='))).toBe(false);

    const noToken = await browser().request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken: 'forged' } });
    expect(noToken.status).toBe(401);
    expect(await noToken.text()).toContain('This sign-in form has expired');
    const otherSite = await browser().request('/admin/login', { form: { email: EMAIL, password: PASSWORD }, headers: { Origin: 'https://evil.example' } });
    expect(otherSite.status).toBe(403);
  });

  it('hashes an account added as `blogpost staff add` adds it at the production cost, and signs it in', async () => {
    // The other accounts here are seeded with a cheaper stored hash (tests/support/staff-seed.ts): this
    // one proves the server's own way of adding an account uses the full cost, and that it signs in.
    const email = await server.createStaff('added@example.com', PASSWORD, 'Added Properly');
    const stored = (await server.store.staff.findByEmail(email))?.passwordHash ?? '';
    const { N, r, p } = SCRYPT_PARAMETERS;
    expect(stored.startsWith(`scrypt$${N}$${r}$${p}$`)).toBe(true);
    expect(N).toBeGreaterThanOrEqual(2 ** 16);
    expect(stored).not.toContain(PASSWORD);
    expect((await signIn(browser(), PASSWORD, email)).status).toBe(303);
    expect((await signIn(browser(), 'not the password at all', email)).status).toBe(401);
  });

  it('slows guessing: after 5 failures for one account from one address even the right password waits there, with Retry-After', async () => {
    const email = 'guessed@example.com';
    await server.seedStaff(email, PASSWORD, 'Guessed Account');
    for (let i = 0; i < 5; i += 1) expect((await signIn(browser(), `wrong guess number ${i}`, email)).status).toBe(401);
    const held = await signIn(browser(), PASSWORD, email);
    expect(held.status).toBe(429);
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await held.text()).toContain('Too many sign-in attempts');
    // Another account is not held up by it.
    expect((await signIn(browser())).status).toBe(303);
  });
});

describe('with a session', () => {
  it('refuses a form without the CSRF token, with a wrong one, or from another site; takes it with the right one', async () => {
    const client = browser();
    await signIn(client);
    const page = `/admin/leads/${SECRET_LEAD.id}`;
    const token = await csrf(client, page);
    for (const [form, headers] of [
      [{ intent: 'note', note: 'no token' }, {}],
      [{ intent: 'note', note: 'wrong token', _csrf: `${token.slice(0, -2)}xx` }, {}],
      [{ intent: 'note', note: 'other site', _csrf: token }, { Origin: 'https://evil.example' }],
    ] as const) {
      const res = await client.request(page, { form: { ...form }, headers: { ...headers } });
      expect(res.status).toBe(403);
    }
    expect((await server.store.leads.get(SECRET_LEAD.id))?.agentNotes).toEqual([]);
    const ok = await client.request(page, { form: { intent: 'note', note: 'Called, left a message.', _csrf: token } });
    expect(ok.status).toBe(200);
    expect((await server.store.leads.get(SECRET_LEAD.id))?.agentNotes.map((note) => [note.by, note.text])).toEqual([[EMAIL, 'Called, left a message.']]);
  });

  it('makes a stolen session id useless after sign-out, and sign-out everywhere ends the other sessions', async () => {
    const client = browser();
    await signIn(client);
    const stolen = client.cookies.get('staff_session') ?? '';
    const out = await client.request('/admin/logout', { form: { _csrf: await csrf(client, '/admin') } });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/admin/login?signedOut=1');
    expect(cookieOf(out, 'staff_session')).toBe('');
    const thief = browser();
    thief.cookies.set('staff_session', stolen);
    expect((await thief.request('/admin')).status).toBe(303);

    const laptop = browser();
    const phone = browser();
    await signIn(laptop);
    await signIn(phone);
    await phone.request('/admin/logout', { form: { everywhere: 'yes', _csrf: await csrf(phone, '/admin') } });
    expect((await laptop.request('/admin')).status).toBe(303);
  });

  it('ends a session left idle for more than 30 minutes', async () => {
    const client = browser();
    await signIn(client);
    expect((await client.request('/admin')).status).toBe(200);
    clock.shiftMs += 31 * 60 * 1000;
    expect((await client.request('/admin')).status).toBe(303);
  });
});

describe('secrets at rest', () => {
  it('keeps no password or session id in any data file or log line, only their hashes', async () => {
    const client = browser();
    await signIn(client);
    const sessionId = client.cookies.get('staff_session') ?? '';
    expect(sessionId.length).toBeGreaterThan(30);
    // The session is stored (in the database file or its write-ahead log), by the hash of its id.
    expect(await server.store.sessions.get(createHash('sha256').update(sessionId).digest('hex'))).not.toBeNull();
    // Searched by another process: opening and closing the database file in this one (which runs the
    // server) would drop the server's SQLite locks on it. grep exits 1 when nothing matches. The text
    // goes after -e: a session id may begin with "-" (base64url), which grep would take for an option.
    const search = (text: string) => spawnSync('grep', ['-r', '-l', '-F', '-a', '-e', text, server.dataDir], { encoding: 'utf8' });
    expect(search('staff.signed_in').stdout, 'the search reads the database').toContain('store.sqlite');
    for (const secret of [PASSWORD, sessionId]) {
      const found = search(secret);
      // No file holds it (grep lists none). A file that went away while grep read the folder (exit 2,
      // "No such file") held nothing that stays.
      expect(found.stdout).toBe('');
      expect(found.status === 1 || (found.status === 2 && /No such file or directory/.test(found.stderr)), `grep exited ${found.status}: ${found.stderr}`).toBe(true);
    }
    expect(server.logs.join('\n')).not.toContain(PASSWORD);
    expect(server.logs.join('\n')).not.toContain(sessionId);
  });
});
