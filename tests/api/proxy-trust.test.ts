/**
 * TRUST_PROXY over real HTTP, the test's own requests playing the proxy (they come from 127.0.0.1):
 * with no proxy trusted, forged X-Forwarded-* headers change nothing (one quota for every "visitor",
 * a form from `https://` refused); with the proxy trusted, each visitor behind it has their own quota,
 * a form sent from the `https://` page the visitor sees is taken, and staff cookies are `Secure` and
 * `__Host-`; a chain of addresses counts only the trusted hops; a client that is not the trusted proxy
 * cannot forge any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postQuoteForm, QUOTE_FORM } from '../support/leads';
import { loginTokenOf, staffClient, type StaffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';

const EMAIL = 'proxied@example.com';
const PASSWORD = 'correct horse battery staple 42';
/** The name the visitor's browser shows, as the proxy forwards it. */
const PUBLIC_HOST = 'www.example-agency.com';
const PUBLIC_ORIGIN = `https://${PUBLIC_HOST}`;

/** One quote request an hour per address, and no minimum fill time, so a quota shows in two requests. */
async function serverTrusting(trustProxy?: string): Promise<TestServer> {
  const server = await startTestServer({
    leads: { settings: { minFillMs: 0, perHour: 1 } },
    // Six failures for one account from anywhere hold devices it never signed in on (fifty in production).
    signInThrottle: { accountFree: 6 },
    ...(trustProxy === undefined ? {} : { trustProxy }),
  });
  await server.seedStaff(EMAIL, PASSWORD, 'Proxied Person');
  return server;
}

/** A quote form as the proxy forwards it: from the public https page, for the visitor at `visitor` (an X-Forwarded-For chain). */
function forwardedQuote(server: TestServer, visitor: string): Promise<Response> {
  return postQuoteForm(server.url, QUOTE_FORM, {
    Origin: PUBLIC_ORIGIN,
    'X-Forwarded-For': visitor,
    'X-Forwarded-Proto': 'https',
    'X-Forwarded-Host': PUBLIC_HOST,
  });
}

/** The staff sign-in as a browser on the public https page does it, through the proxy; the Set-Cookie lines it ends with. */
async function signInThroughProxy(server: TestServer): Promise<{ status: number; cookies: string[] }> {
  const forwarded = { 'X-Forwarded-For': '203.0.113.50', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': PUBLIC_HOST };
  const page = await fetch(`${server.url}/admin/login`, { headers: forwarded });
  const token = /name="loginToken" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const loginCookie = page.headers.getSetCookie().map((line) => line.split(';', 1)[0]).join('; ');
  const res = await fetch(`${server.url}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...forwarded, Origin: PUBLIC_ORIGIN, Cookie: loginCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: EMAIL, password: PASSWORD, loginToken: token, next: '/admin' }).toString(),
  });
  return { status: res.status, cookies: [...page.headers.getSetCookie(), ...res.headers.getSetCookie()] };
}

/** The server of the describe block it is called in: started before its tests, closed after them. */
function trustingServer(trustProxy?: string): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await serverTrusting(trustProxy);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the server starts in beforeAll');
    return server;
  };
}

describe('with no proxy trusted (the default)', () => {
  const server = trustingServer();

  it('ignores forged X-Forwarded-For: every "visitor" shares the connection\'s quota', async () => {
    expect((await postQuoteForm(server().url, QUOTE_FORM, { 'X-Forwarded-For': '198.51.100.1' })).status).toBe(303);
    expect((await postQuoteForm(server().url, QUOTE_FORM, { 'X-Forwarded-For': '198.51.100.2' })).status).toBe(429);
  });

  it('ignores forged X-Forwarded-Proto and -Host: a form claiming to come from an https page is refused', async () => {
    const res = await forwardedQuote(server(), '198.51.100.3');
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(`open ${server().url}/get-quote`);
  });
});

describe('TRUST_PROXY=loopback (nginx on the same machine)', () => {
  const server = trustingServer('loopback');

  it('gives each of seven visitors behind the proxy their own quota', async () => {
    for (let n = 1; n <= 7; n++) expect((await forwardedQuote(server(), `198.51.100.${n}`)).status, `visitor ${n}`).toBe(303);
    // And each quota holds: the first visitor's second request is over it.
    const again = await forwardedQuote(server(), '198.51.100.1');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('takes a form from the https page the visitor sees, and still refuses another site\'s', async () => {
    expect((await forwardedQuote(server(), '198.51.100.20')).status).toBe(303);
    const elsewhere = await postQuoteForm(server().url, QUOTE_FORM, { Origin: 'https://evil.example', 'X-Forwarded-For': '198.51.100.21', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': PUBLIC_HOST });
    expect(elsewhere.status).toBe(403);
    expect(await elsewhere.text()).toContain(`open ${PUBLIC_ORIGIN}/get-quote`);
  });

  it('signs staff in through the proxy with Secure, __Host- cookies', async () => {
    const { status, cookies } = await signInThroughProxy(server());
    expect(status).toBe(303);
    const session = cookies.find((line) => line.startsWith('__Host-staff_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/;\s*Secure/i);
    expect(cookies.some((line) => line.startsWith('staff_session='))).toBe(false);
  });

  it('keeps someone guessing from many addresses from locking staff out of the browser they use', async () => {
    const signIn = async (client: StaffClient, password: string, from: string) =>
      (await client.request('/admin/login', { form: { email: EMAIL, password, loginToken: await loginTokenOf(client), next: '/admin' }, headers: { 'X-Forwarded-For': from } })).status;
    const own = staffClient(server().url);
    expect(await signIn(own, PASSWORD, '192.0.2.10')).toBe(303);
    // Wrong passwords for that account, three from each of two addresses (each within its own five).
    for (let n = 0; n < 6; n++) expect(await signIn(staffClient(server().url), `guess ${n}`, `198.51.100.${100 + Math.floor(n / 3)}`), `guess ${n}`).toBe(401);
    // A browser that never signed in as this account now waits, even with the right password...
    expect(await signIn(staffClient(server().url), PASSWORD, '192.0.2.99')).toBe(429);
    // ...the staff member's own browser does not, wherever it is (signed out since, its device cookie kept).
    own.cookies.delete('staff_session');
    expect(await signIn(own, PASSWORD, '192.0.2.77')).toBe(303);
  });
});

describe('TRUST_PROXY=1 (one proxy in front, whatever its address)', () => {
  const server = trustingServer('1');

  it('takes the visitor as the address the proxy saw, not what the visitor claimed before it', async () => {
    // The visitor at 192.0.2.7 sent a forged X-Forwarded-For; the proxy appended the address it saw.
    expect((await forwardedQuote(server(), '198.51.100.99, 192.0.2.7')).status).toBe(303);
    expect((await forwardedQuote(server(), '198.51.100.98, 192.0.2.7')).status).toBe(429);
    expect((await forwardedQuote(server(), '192.0.2.8')).status).toBe(303);
  });
});

describe('TRUST_PROXY naming another machine', () => {
  const server = trustingServer('10.0.0.5');

  it('believes nothing a client that is not that proxy forwards', async () => {
    expect((await forwardedQuote(server(), '198.51.100.1')).status).toBe(403);
    expect((await postQuoteForm(server().url, QUOTE_FORM, { 'X-Forwarded-For': '198.51.100.1' })).status).toBe(303);
    expect((await postQuoteForm(server().url, QUOTE_FORM, { 'X-Forwarded-For': '198.51.100.2' })).status).toBe(429);
    const { cookies } = await signInThroughProxy(server());
    expect(cookies.some((line) => line.startsWith('__Host-'))).toBe(false);
  });
});
