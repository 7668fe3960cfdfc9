/**
 * IndieAuth as a writing app goes through it, over real HTTP: discovery from the home page's Link
 * header and <link>s, the metadata, the authorization request (PKCE S256) sent to the staff sign-in and
 * back to a consent page that works as a plain form, Allow -> the code at the app's redirect_uri, the
 * token request -> an access token that is a new API key (listed in /admin/api-keys, revocable there),
 * then a Micropub create with it, and token verification. Then what must fail: a wrong verifier, a
 * second exchange of a code, an expired code, Deny, a redirect_uri on another origin, a request
 * without PKCE, and a read-only grant trying to post.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginTokenOf, type StaffClient, staffClient } from '../support/staff-client';
import { startTestServer, type TestServer } from '../support/server';

const EMAIL = 'editor@example.com';
const PASSWORD = 'correct horse battery staple 42';
const CLIENT_ID = 'https://writer.example/';
const REDIRECT_URI = 'https://writer.example/callback';
/** How far the server's clock runs ahead of the test's (moved to let a code expire). */
const clock = { shiftMs: 0 };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 }, now: () => new Date(Date.now() + clock.shiftMs) });
  await server.seedStaff(EMAIL, PASSWORD, 'Eddie Editor');
});
afterAll(() => server.close());

function unescapeHtml(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) fields[match[1] ?? ''] = unescapeHtml(match[2] ?? '');
  return fields;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

interface Endpoints {
  authorization: string;
  token: string;
  micropub: string;
}

/** Discovery as an app does it: the home page's Link header, then the metadata it names. */
async function discover(): Promise<Endpoints> {
  const home = await fetch(`${server.url}/`);
  const links = new Map([...(home.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)].map((match) => [match[2] ?? '', new URL(match[1] ?? '', server.url).href]));
  const html = await home.text();
  expect(html).toContain('<link rel="indieauth-metadata" href="/.well-known/oauth-authorization-server"/>');
  const metadataUrl = links.get('indieauth-metadata');
  expect(metadataUrl).toBe(`${server.url}/.well-known/oauth-authorization-server`);
  const metadata = (await (await fetch(metadataUrl ?? '')).json()) as Record<string, unknown>;
  expect(metadata).toMatchObject({ issuer: `${server.url}/`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'] });
  // Apps that predate the metadata find the two endpoints in the page's head, at the addresses it names.
  const headLinks = new Map([...html.matchAll(/<link rel="([^"]+)" href="([^"]+)"\/>/g)].map((match) => [match[1] ?? '', new URL(match[2] ?? '', server.url).href]));
  expect(headLinks.get('authorization_endpoint')).toBe(metadata.authorization_endpoint);
  expect(headLinks.get('token_endpoint')).toBe(metadata.token_endpoint);
  return { authorization: String(metadata.authorization_endpoint), token: String(metadata.token_endpoint), micropub: links.get('micropub') ?? '' };
}

function authorizationUrl(endpoints: Endpoints, challenge: string, scope: string, overrides: Record<string, string | null> = {}): string {
  const url = new URL(endpoints.authorization);
  const params: Record<string, string | null> = { response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, state: 'state-123', code_challenge: challenge, code_challenge_method: 'S256', scope, me: `${server.url}/`, ...overrides };
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return url.pathname + url.search;
}

/** A browser signed in as the staff member, through the sign-in page the authorization endpoint sends it to. */
async function signedInAt(path: string): Promise<{ browser: StaffClient; consent: string }> {
  const browser = staffClient(server.url);
  const first = await browser.request(path);
  expect(first.status).toBe(303);
  const login = first.headers.get('location') ?? '';
  expect(login).toMatch(/^\/admin\/login\?next=/);
  const loginPage = await (await browser.request(login)).text();
  const next = unescapeHtml(/name="next" value="([^"]*)"/.exec(loginPage)?.[1] ?? '');
  expect(next).toBe(path);
  const signIn = await browser.request('/admin/login', { form: { email: EMAIL, password: PASSWORD, loginToken: await loginTokenOf(browser), next } });
  expect(signIn.status).toBe(303);
  expect(signIn.headers.get('location')).toBe(path);
  const consent = await browser.request(path);
  expect(consent.status).toBe(200);
  return { browser, consent: await consent.text() };
}

/** Allow (or Deny) on the consent page; the redirect back to the app. */
async function decide(browser: StaffClient, consent: string, decision: 'allow' | 'deny'): Promise<URL> {
  const answer = await browser.request('/admin/indieauth', { form: { ...hiddenFields(consent), decision } });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location') ?? '');
}

async function exchange(endpoints: Endpoints, fields: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(endpoints.token, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: new URLSearchParams(fields).toString() });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('IndieAuth, as a writing app goes through it', () => {
  it('discovers the endpoints, gets a code with PKCE after the staff sign-in and consent, exchanges it for a key, and posts with it', async () => {
    const endpoints = await discover();
    const { verifier, challenge } = pkce();
    const path = authorizationUrl(endpoints, challenge, 'create media');
    const { browser, consent } = await signedInAt(path);
    expect(consent).toContain('writer.example');
    expect(consent).toContain('<strong>create</strong>: publish new posts in your name');
    expect(consent).toContain('blog:write');

    const back = await decide(browser, consent, 'allow');
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('state-123');
    expect(back.searchParams.get('iss')).toBe(`${server.url}/`);
    const code = back.searchParams.get('code') ?? '';

    const token = await exchange(endpoints, { grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(token.status).toBe(200);
    expect(token.json).toMatchObject({ token_type: 'Bearer', scope: 'create media', me: `${server.url}/` });
    const accessToken = String(token.json.access_token);

    // The token verification request answers who and what.
    const verified = await fetch(endpoints.token, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(await verified.json()).toEqual({ me: `${server.url}/`, client_id: CLIENT_ID, scope: 'create media' });

    // A Micropub create with it: the post is the staff member's.
    const created = await fetch(endpoints.micropub, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ h: 'entry', name: 'Sent from a writing app', content: 'Written in an app that signs in with IndieAuth.' }).toString() });
    expect(created.status).toBe(201);
    const page = await (await fetch(created.headers.get('location') ?? '')).text();
    expect(page).toContain('Sent from a writing app');
    expect(page).toContain('Eddie Editor');

    // The key is on the staff's API keys page, named after the app, and revocable there.
    const keysPage = await (await browser.request('/admin/api-keys')).text();
    expect(keysPage).toMatch(/IndieAuth writer\.example \d{4}-\d{2}-\d{2} [0-9a-f]{6}/);
    const key = (await server.services.keys.list()).find((candidate) => candidate.name.startsWith('IndieAuth writer.example'));
    expect(key).toMatchObject({ owner: EMAIL, permissions: ['blog:write'] });
    await server.services.keys.revoke(key?.id ?? '', { by: `staff:${EMAIL}` });
    const refused = await fetch(endpoints.micropub, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'h=entry&content=after+revoking' });
    expect(refused.status).toBe(401);
  });

  it('a code is single use, spent by a wrong verifier, and expires after 5 minutes', async () => {
    const endpoints = await discover();
    const codes: string[] = [];
    const { verifier, challenge } = pkce();
    const { browser, consent } = await signedInAt(authorizationUrl(endpoints, challenge, 'create'));
    for (let round = 0; round < 3; round++) codes.push((await decide(browser, consent, 'allow')).searchParams.get('code') ?? '');
    const fields = (code: string, codeVerifier = verifier) => ({ grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: codeVerifier });

    const wrong = await exchange(endpoints, fields(codes[0] ?? '', pkce().verifier));
    expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect(String(wrong.json.error_description)).toMatch(/code_verifier does not match/);
    expect((await exchange(endpoints, fields(codes[0] ?? ''))).json.error).toBe('invalid_grant');

    expect((await exchange(endpoints, fields(codes[1] ?? ''))).status).toBe(200);
    expect((await exchange(endpoints, fields(codes[1] ?? ''))).json).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/used already or expired/) as unknown });

    clock.shiftMs = 5 * 60 * 1000 + 1_000;
    try {
      expect((await exchange(endpoints, fields(codes[2] ?? ''))).json.error).toBe('invalid_grant');
    } finally {
      clock.shiftMs = 0;
    }
  });

  it('Deny sends the app access_denied and grants nothing', async () => {
    const endpoints = await discover();
    const before = (await server.services.keys.list()).length;
    const { browser, consent } = await signedInAt(authorizationUrl(endpoints, pkce().challenge, 'create'));
    const back = await decide(browser, consent, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
    expect((await server.services.keys.list()).length).toBe(before);
  });

  it('a redirect_uri on another origin is refused on a page (never redirected to); a request without PKCE goes back with invalid_request', async () => {
    const endpoints = await discover();
    const browser = staffClient(server.url);
    const foreign = await browser.request(authorizationUrl(endpoints, pkce().challenge, 'create', { redirect_uri: 'https://attacker.example/steal' }));
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('must be on the app’s own origin');
    const noPkce = await browser.request(authorizationUrl(endpoints, pkce().challenge, 'create', { code_challenge: null, code_challenge_method: null }));
    expect(noPkce.status).toBe(303);
    const back = new URL(noPkce.headers.get('location') ?? '');
    expect(back.origin).toBe('https://writer.example');
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE is required/);
  });

  it('a consent form without the session’s CSRF token grants nothing', async () => {
    const endpoints = await discover();
    const { browser, consent } = await signedInAt(authorizationUrl(endpoints, pkce().challenge, 'create'));
    const answer = await browser.request('/admin/indieauth', { form: { ...hiddenFields(consent), _csrf: 'forged', decision: 'allow' } });
    expect(answer.status).toBe(403);
    expect(answer.headers.get('location')).toBeNull();
  });

  it('a read grant (or none) is a blog:read key: it may query the endpoint but cannot post', async () => {
    const endpoints = await discover();
    const { verifier, challenge } = pkce();
    const { browser, consent } = await signedInAt(authorizationUrl(endpoints, challenge, 'read'));
    expect(consent).toContain('blog:read');
    const code = (await decide(browser, consent, 'allow')).searchParams.get('code') ?? '';
    const token = await exchange(endpoints, { grant_type: 'authorization_code', code, client_id: CLIENT_ID, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    const accessToken = String(token.json.access_token);
    const post = await fetch(endpoints.micropub, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'h=entry&content=not+allowed' });
    expect(post.status).toBe(403);
    expect(((await post.json()) as { error: string }).error).toBe('insufficient_scope');
    expect((await fetch(`${endpoints.micropub}?q=config`, { headers: { Authorization: `Bearer ${accessToken}` } })).status).toBe(200);
  });
});
