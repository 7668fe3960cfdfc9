/**
 * The quote form over plain HTTP, as a browser without JavaScript (or a robot) sends it: a request
 * from this site's page is stored and answered 303; one from another site, not a form, without a
 * length or larger than the form can be is refused before it is read, with a status and a sentence
 * that says what to do, and nothing stored. The page carries its render time and a one-time token, so
 * only the visitor's browser keeps it (tests/api/quote-intent.test.ts: one request per token).
 * (The production command with the outbox, as a process: tests/processes/outbox-restart.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { postQuoteForm, QUOTE_FORM as FORM } from '../support/leads';

describe('POST /get-quote', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ leads: { settings: { minFillMs: 0, perHour: 0 } } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) => postQuoteForm(server.url, body, headers);

  const count = async () => (await server.store.leads.list({ spam: 'any' })).length;

  it('stores a request from the site’s own page and answers 303 to the thank-you page of its reference', async () => {
    const before = await count();
    const res = await post(FORM);
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/get-quote\/thank-you\?ref=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(await count()).toBe(before + 1);
    const thanks = await fetch(`${server.url}${location}`);
    expect(thanks.status).toBe(200);
    const html = await thanks.text();
    expect(html).toContain('Thank you, your request has arrived');
    expect(html).toContain(new URL(location, server.url).searchParams.get('ref'));
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it('refuses what a browser on this site would never send, stores nothing, and says why', async () => {
    const before = await count();
    const cases: Array<{ status: number; text: string; res: Promise<Response> }> = [
      { status: 403, text: "takes requests from this site's own pages only", res: post(FORM, { Origin: 'https://evil.example' }) },
      { status: 403, text: "takes requests from this site's own pages only", res: post(FORM, { 'Sec-Fetch-Site': 'cross-site' }) },
      { status: 415, text: 'Send the form as application/x-www-form-urlencoded or multipart/form-data', res: post(FORM, { 'Content-Type': 'application/json' }) },
      { status: 413, text: 'at most 16384 bytes', res: post(`${FORM}&additionalNotes=${'x'.repeat(20_000)}`) },
    ];
    for (const { status, text, res } of cases) {
      const answer = await res;
      expect(answer.status).toBe(status);
      expect(await answer.text()).toContain(text);
    }
    expect(await count()).toBe(before);
  });

  it('answers 405 with Allow for other methods, and POST on other pages stays 405', async () => {
    const put = await fetch(`${server.url}/get-quote`, { method: 'PUT', body: FORM });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const elsewhere = await fetch(`${server.url}/faq`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: FORM });
    expect(elsewhere.status).toBe(405);
    expect(elsewhere.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('links the form to the privacy policy’s section on quote requests, which gives the keeping times', async () => {
    const page = await (await fetch(`${server.url}/get-quote`)).text();
    expect(page).toContain('href="/legal/privacy-policy#quote-requests"');
    const policy = await (await fetch(`${server.url}/legal/privacy-policy`)).text();
    expect(policy).toContain('id="quote-requests"');
    expect(policy).toContain('Requests kept aside as suspected spam: deleted 30 days after they arrive.');
    expect(policy).toContain('deleted 7 years after their last change');
  });

  it('renders the page afresh every time (its form carries the time it was rendered and a one-time token) and lets only the visitor’s browser keep it', async () => {
    const before = Date.now();
    const first = await fetch(`${server.url}/get-quote`);
    const between = Date.now();
    const second = await fetch(`${server.url}/get-quote`);
    const after = Date.now();
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const [a, b] = [await first.text(), await second.text()];
    // Each carries the time it was rendered (a cached copy would carry the first's).
    const started = (html: string) => Number(/name="startedAt" value="(\d+)"/.exec(html)?.[1]);
    expect(started(a)).toBeGreaterThanOrEqual(before);
    expect(started(a)).toBeLessThanOrEqual(between);
    expect(started(b)).toBeGreaterThanOrEqual(between);
    expect(started(b)).toBeLessThanOrEqual(after);
    const token = (html: string) => /name="formToken" value="([A-Za-z0-9_-]{22})"/.exec(html)?.[1];
    expect(token(a)).toBeDefined();
    expect(token(b)).toBeDefined();
    expect(token(b)).not.toBe(token(a));
    // Other pages are still cached and revalidated.
    expect((await fetch(`${server.url}/faq`)).headers.get('cache-control')).toBe('no-cache');
  });
});
