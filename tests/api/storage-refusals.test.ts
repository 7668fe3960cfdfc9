/**
 * The site's forms when the store refuses a write (issue 35): a full disk answers 507, a read-only
 * store 503, over real HTTP, on the quote form (the visitor's values kept in the form, the phone number
 * offered, nothing stored) and the staff sign-in (the site's own page with the phone, no session
 * cookie, one line in the log without a stack); both work again once the store takes writes, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreError } from '../../api/store/store-error';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { withMember } from '../support/failing';
import { postQuoteForm, QUOTE_FORM } from '../support/leads';
import { startTestServer, type TestServer } from '../support/server';
import { loginTokenOf, staffClient } from '../support/staff-client';

const EMAIL = 'refused@example.com';
const PASSWORD = 'correct horse battery staple 42';

let server: TestServer;
/** The problem every lead and session write meets, or null when writes go through. */
let refusing: 'full' | 'read_only' | null = null;

const refusal = () => new StoreError(refusing ?? 'full', '/data/store.sqlite', 'the test refuses this write');

beforeAll(async () => {
  server = await startTestServer({
    leads: { settings: { minFillMs: 0, perHour: 0 } },
    wrapStore: (store) => {
      const leads = withMember(store.leads, 'create', (...args: Parameters<typeof store.leads.create>) => (refusing ? Promise.reject(refusal()) : store.leads.create(...args)));
      const sessions = withMember(store.sessions, 'create', (...args: Parameters<typeof store.sessions.create>) => (refusing ? Promise.reject(refusal()) : store.sessions.create(...args)));
      return withMember(withMember(store, 'leads', leads), 'sessions', sessions);
    },
  });
  await server.seedStaff(EMAIL, PASSWORD, 'Refused Person');
});
afterAll(async () => {
  refusing = null;
  await server?.close();
});

describe.each([
  ['full', 507],
  ['read_only', 503],
] as const)('a %s store', (problem, status) => {
  it(`answers the quote form ${status} with everything typed kept and the phone number, stores nothing, and takes it once writes go through`, async () => {
    const before = (await server.store.leads.list({})).length;
    refusing = problem;
    const refused = await postQuoteForm(server.url, QUOTE_FORM);
    expect(refused.status).toBe(status);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const html = await refused.text();
    expect(html).toContain('value="Jane Carter"');
    expect(html).toContain('value="512-555-0199"');
    expect(html).toContain(DEFAULT_SITE_CONFIG.phoneDisplay);
    expect((await server.store.leads.list({})).length).toBe(before);
    refusing = null;
    expect((await postQuoteForm(server.url, QUOTE_FORM)).status).toBe(303);
    expect((await server.store.leads.list({})).length).toBe(before + 1);
  });

  it(`answers a staff sign-in ${status} with the site's page and the phone, sets no session, and signs in once writes go through`, async () => {
    const client = staffClient(server.url);
    refusing = problem;
    const refused = await client.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken: await loginTokenOf(client), next: '/admin' } });
    expect(refused.status).toBe(status);
    const html = await refused.text();
    expect(html).toContain(`tel:${DEFAULT_SITE_CONFIG.phoneE164}`);
    expect(html).not.toMatch(/\bat \S+ \(/);
    // Logged on one line with the request id and the store's words, no stack (every request meets it until the operator acts).
    const requestId = /request id <code>([^<]+)<\/code>/.exec(html)?.[1] ?? '';
    const logged = server.logs.filter((line) => line.includes(requestId)).map((line) => line.trim());
    expect(logged).toEqual([`POST /admin/login failed (request ${requestId}): the test refuses this write`]);
    expect(client.cookies.has('staff_session')).toBe(false);
    refusing = null;
    const signedIn = await client.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken: await loginTokenOf(client), next: '/admin' } });
    expect(signedIn.status).toBe(303);
    expect(client.cookies.has('staff_session')).toBe(true);
  });
});
