/**
 * One quote request per visitor intent (decision 0018), over real HTTP against the production build,
 * with a real SMTP server and a real webhook receiver: the same form (its one-time token) sent twice at
 * once, sent again after it was stored, sent again through the app's own `.data` request, or sent again
 * once the hourly limit is used up, is one lead, one e-mail and one webhook, every send answered with
 * the same thank-you reference; a token past its day, two forms, or a form without a token (a page from
 * before tokens, a robot) make new leads as they always did; the same token with changed answers
 * stores nothing and says so. The thank-you page tells a real request from an address without one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FORM_TOKEN_TTL_MS } from '../../contract/quote-intent';
import { startTestServer, type TestServer } from '../support/server';
import { postQuoteForm, QUOTE_FORM, startWebhookReceiver, waitFor, type TestWebhookReceiver } from '../support/leads';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

const PER_HOUR = 2;
const WEBHOOK_SECRET = 'quote-intent-test-secret-0123456789abcdef';
const THANK_YOU = /^\/get-quote\/thank-you\?ref=([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})$/;
/** How far the intake's clock runs ahead (a day, to send a token again after its day). */
const clock = { shiftMs: 0 };
/** The visitor's address (behind the trusted proxy): each test's own, so each starts with the hour's limit full. */
let visitor = 0;
let address = '';

let smtp: TestSmtpServer;
let hook: TestWebhookReceiver;
let server: TestServer;

beforeAll(async () => {
  [smtp, hook] = await Promise.all([startSmtpServer(), startWebhookReceiver({ secret: WEBHOOK_SECRET })]);
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, LEAD_NOTIFY_TO: 'agents@example.com', LEAD_WEBHOOK_URL: hook.url, LEAD_WEBHOOK_SECRET: WEBHOOK_SECRET },
    leads: { settings: { minFillMs: 0, perHour: PER_HOUR }, now: () => new Date(Date.now() + clock.shiftMs) },
    trustProxy: '1',
  });
});
afterAll(async () => {
  await server?.close();
  await Promise.all([smtp?.close(), hook?.close()]);
});
beforeEach(() => {
  visitor += 1;
  address = `203.0.113.${visitor}`;
});

/** POSTs the form from this test's visitor. */
const send = (body: string) => postQuoteForm(server.url, body, { 'X-Forwarded-For': address });

/** A fresh render of /get-quote: its one-time token. */
async function freshToken(): Promise<string> {
  const html = await (await fetch(`${server.url}/get-quote`)).text();
  const token = /name="formToken" value="([A-Za-z0-9_-]{22})"/.exec(html)?.[1];
  if (!token) throw new Error('the quote form carries no token');
  return token;
}

/** The quote form filled in by `name`, with `token` (none when null). */
function form(name: string, token: string | null, extra = ''): string {
  const body = QUOTE_FORM.replace('name=Jane+Carter', `name=${encodeURIComponent(name)}`);
  return `${body}${token === null ? '' : `&formToken=${token}`}${extra}`;
}

const leadsNamed = async (name: string) => (await server.store.leads.list({ spam: 'any' })).filter((lead) => lead.name === name);

/** The reference a 303 to the thank-you page names. */
function referenceOf(res: Response): string {
  expect(res.status).toBe(303);
  const match = THANK_YOU.exec(res.headers.get('location') ?? '');
  expect(match, `location ${String(res.headers.get('location'))}`).not.toBeNull();
  return match?.[1] ?? '';
}

/**
 * Waits until the outbox has sent every notification of every request named `name` (the outbox is the
 * only sender: a second e-mail would need a second delivery, sent by then too), then says how many of
 * each arrived.
 */
async function notificationsOf(name: string): Promise<{ emails: number; webhooks: number }> {
  const emails = () => smtp.received.filter((mail) => (mail.text ?? '').includes(name)).length;
  const webhooks = () => hook.received.filter((request) => request.body.includes(name)).length;
  const allSent = async () => {
    // The escalation (speed to lead) waits for its time, not for this test.
    const deliveries = (await Promise.all((await leadsNamed(name)).map((lead) => server.store.outbox.forLead(lead.id)))).flat().filter((delivery) => delivery.channel !== 'escalation');
    return deliveries.length > 0 && deliveries.every((delivery) => delivery.sentAt !== null);
  };
  await waitFor(allSent, `${name}'s e-mail and webhook to be sent`);
  await waitFor(() => emails() > 0 && webhooks() > 0, `${name}'s e-mail and webhook to arrive`);
  return { emails: emails(), webhooks: webhooks() };
}

describe('the same form sent twice', () => {
  it('at once (a double-click, a retry racing the first): one lead, one e-mail, one webhook, both answered with the same reference', async () => {
    const token = await freshToken();
    const name = 'Double Click';
    const answers = await Promise.all([send(form(name, token)), send(form(name, token))]);
    const [first, second] = answers.map(referenceOf);
    expect(second).toBe(first);
    const stored = await leadsNamed(name);
    expect(stored).toHaveLength(1);
    expect(stored[0]?.reference).toBe(first);
    // The escalation waits for its time (speed to lead); no staff to assign, no visitor's address to acknowledge.
    expect((await server.store.outbox.forLead(stored[0]?.id ?? '')).map((delivery) => delivery.channel)).toEqual(['email', 'escalation', 'webhook']);
    expect(await notificationsOf(name)).toEqual({ emails: 1, webhooks: 1 });
    // The agency's e-mail names the reference the visitor was shown, for when they call.
    expect(smtp.received.find((mail) => (mail.text ?? '').includes(name))?.text).toContain(`Reference the visitor was shown: ${first}`);
  });

  it('again after the first was stored (a retry, Back and send), without and with JavaScript: the same thank-you, nothing more stored', async () => {
    const token = await freshToken();
    const name = 'Sends Again';
    const reference = referenceOf(await send(form(name, token)));
    expect(referenceOf(await send(form(name, token)))).toBe(reference);
    // The app's own request (JavaScript on) is answered with the same redirect.
    const app = await fetch(`${server.url}/get-quote.data`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: form(name, token),
    });
    expect(await app.text()).toContain(`/get-quote/thank-you?ref=${reference}`);
    expect(await leadsNamed(name)).toHaveLength(1);
    expect(await notificationsOf(name)).toEqual({ emails: 1, webhooks: 1 });
  });

  it(`counts once against the ${PER_HOUR} requests an hour, and is answered with its thank-you even when the hour's requests are used up`, async () => {
    const [one, two, three] = [await freshToken(), await freshToken(), await freshToken()];
    const reference = referenceOf(await send(form('Limit One', one)));
    // Sent again and again: not a second request.
    for (let n = 0; n < 3; n += 1) expect(referenceOf(await send(form('Limit One', one)))).toBe(reference);
    referenceOf(await send(form('Limit Two', two)));
    // The hour's requests are used up: a new form is refused...
    const refused = await send(form('Limit Three', three));
    expect(refused.status).toBe(429);
    expect(await leadsNamed('Limit Three')).toHaveLength(0);
    // ...but the first one sent again still lands on its thank-you page.
    expect(referenceOf(await send(form('Limit One', one)))).toBe(reference);
    expect(await leadsNamed('Limit One')).toHaveLength(1);
  });

  it('with answers changed since (Back, a field edited, sent again): nothing stored, the visitor told so with a new token to send it as a new request', async () => {
    const token = await freshToken();
    const reference = referenceOf(await send(form('Changes Mind', token)));
    const changed = await send(form('Changes Mind', token).replace('age=45', 'age=46'));
    expect(changed.status).toBe(409);
    const html = await changed.text();
    expect(html).toContain(`This form was already sent, and your request arrived with reference ${reference}.`);
    expect(html).toContain('value="46"');
    const next = /name="formToken" value="([A-Za-z0-9_-]{22})"/.exec(html)?.[1];
    expect(next).toBeDefined();
    expect(next).not.toBe(token);
    expect((await leadsNamed('Changes Mind')).map((lead) => lead.age)).toEqual([45]);
    // Sent again from the page shown: a new request, as the notice said.
    const newer = referenceOf(await send(form('Changes Mind', next ?? '').replace('age=45', 'age=46')));
    expect(newer).not.toBe(reference);
    expect((await leadsNamed('Changes Mind')).map((lead) => lead.age).sort()).toEqual([45, 46]);
  });
});

describe('new requests', () => {
  it('a token sent again after its day is a new request', async () => {
    const token = await freshToken();
    const first = referenceOf(await send(form('Next Day', token)));
    clock.shiftMs += FORM_TOKEN_TTL_MS + 60_000;
    const second = referenceOf(await send(form('Next Day', token)));
    expect(second).not.toBe(first);
    expect(await leadsNamed('Next Day')).toHaveLength(2);
  });

  it('two forms with the same answers are two requests (the visitor meant it twice)', async () => {
    const first = referenceOf(await send(form('Twice On Purpose', await freshToken())));
    const second = referenceOf(await send(form('Twice On Purpose', await freshToken())));
    expect(second).not.toBe(first);
    expect(await leadsNamed('Twice On Purpose')).toHaveLength(2);
  });

  it('a form without a token, or with one this site never made, is taken as before, each send on its own', async () => {
    for (const extra of [null, 'not-a-token', 'AAAAAAAAAAAAAAAAAAAAAB']) {
      const name = `No Token ${extra ?? 'at all'}`;
      const first = referenceOf(await send(form(name, extra)));
      const second = referenceOf(await send(form(name, extra)));
      expect(second).not.toBe(first);
      expect(await leadsNamed(name)).toHaveLength(2);
      visitor += 1;
      address = `203.0.113.${visitor}`;
    }
  });
});

describe('the thank-you page', () => {
  it('shows a stored request’s reference and what happens next, and never lets a cache keep it', async () => {
    const reference = referenceOf(await send(form('Thanked Visitor', await freshToken())));
    for (const ref of [reference, reference.toLowerCase()]) {
      const res = await fetch(`${server.url}/get-quote/thank-you?ref=${ref}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('Thank you, your request has arrived');
      expect(html).toContain('Your reference is');
      expect(html).toContain(`<strong>${reference}</strong>`);
      expect(html).toContain('What happens next');
      expect(html).not.toContain('Thanked Visitor');
    }
  });

  it('opened without a request, or with a reference no request has, says nothing was sent and offers the form and the phone', async () => {
    for (const query of ['', '?ref=', '?ref=7K3M-Q9XD-4RTA', '?ref=<script>', `?ref=${'A'.repeat(500)}`]) {
      const res = await fetch(`${server.url}/get-quote/thank-you${query}`);
      expect(res.status, query).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html, query).toContain('No request was sent from this page');
      expect(html).not.toContain('your request has arrived');
      expect(html).not.toContain('What happens next');
      expect(html).toContain('href="/get-quote#request"');
      expect(html).toContain('href="tel:');
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
    }
  });
});
