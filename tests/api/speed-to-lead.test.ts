/**
 * Speed to lead over real HTTP, a real SMTP server and a clock the test moves (issue 40): a quote
 * request sent through /get-quote is assigned in turn and the visitor's acknowledgement, the agency's
 * notice and the assignee's notice arrive; a lead nobody contacts is escalated once, after the configured
 * office minutes; a lead whose call is recorded in time is not; the dashboard shows the time to first
 * contact; the "stop contacting me" link (GET asks, POST records) stops the visitor's next automatic
 * e-mail; staff record a phone request; and bad inputs (an unknown outcome, a forged link, a form
 * without its CSRF token) get clear 4xx answers that change nothing.
 */
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { postQuoteForm, waitFor } from '../support/leads';
import { startTestServer, type TestServer } from '../support/server';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { loginTokenOf, staffClient, type StaffClient } from '../support/staff-client';

const MINUTE = 60_000;
/** Wednesday 3 June 2026, 10:00 in Chicago (CDT): inside office hours. */
let clock = Date.parse('2026-06-03T15:00:00Z');
const PASSWORD = 'correct horse battery staple 42';
const ALICE = 'alice@hartwell.example';
const BOB = 'bob@hartwell.example';
const AGENCY = 'agency@hartwell.example';
const MANAGER = 'manager@hartwell.example';

let server: TestServer;
let smtp: TestSmtpServer;

function quoteForm(email: string, name = 'Jane Carter'): string {
  return new URLSearchParams({ name, preferredContactMethod: 'email', email, phone: '512-555-0199', age: '45', annualContribution: '12000', consent: 'yes', startedAt: '1700000000000' }).toString();
}

/** Sends a quote request and returns the stored lead. */
async function sendQuote(email: string, name?: string): Promise<LeadRecord> {
  const res = await postQuoteForm(server.url, quoteForm(email, name));
  expect(res.status).toBe(303);
  const reference = new URL(res.headers.get('location') ?? '', server.url).searchParams.get('ref') ?? '';
  const lead = await server.store.leads.byReference(reference);
  if (!lead) throw new Error(`no lead with reference ${reference}`);
  return lead;
}

const to = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : []).flatMap((address) => address.value.map((box) => box.address));
const mailsTo = (address: string, about: string) => smtp.received.filter((mail) => to(mail).includes(address) && `${mail.subject ?? ''}\n${mail.text ?? ''}`.includes(about));

async function mailTo(address: string, about: string): Promise<ParsedMail> {
  await waitFor(() => mailsTo(address, about).length > 0, `an e-mail to ${address} about ${about}`);
  const [mail] = mailsTo(address, about);
  if (!mail) throw new Error('unreachable');
  return mail;
}

async function signIn(email: string): Promise<StaffClient> {
  const client = staffClient(server.url);
  const res = await client.request('/admin/login', { form: { email, password: PASSWORD, loginToken: await loginTokenOf(client), next: '/admin' } });
  expect(res.status).toBe(303);
  return client;
}

async function csrfOf(client: StaffClient, path: string): Promise<string> {
  const html = await (await client.request(path)).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`${path} has no CSRF token`);
  return token;
}

const auditOf = async (leadId: string) => (await server.store.audit.list()).filter((entry) => entry.target === leadId).map((entry) => entry.action);

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    now: () => new Date(clock),
    env: { SMTP_URL: smtp.url, LEAD_NOTIFY_TO: AGENCY, LEAD_ESCALATE_TO: MANAGER, LEAD_FIRST_CONTACT_MINUTES: '5' },
    leads: { settings: { minFillMs: 0, perHour: 0 } },
  });
  await server.seedStaff(ALICE, PASSWORD, 'Alice Agent');
  await server.seedStaff(BOB, PASSWORD, 'Bob Broker');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

describe('speed to lead', () => {
  let first: LeadRecord;
  let stopLink: string;

  it('assigns a new request in turn; the visitor, the agency and the assignee each get their e-mail at once', async () => {
    first = await sendQuote('jane@visitor.example');
    expect(first.assignee).toMatchObject({ email: ALICE, name: 'Alice Agent', by: 'round-robin' });
    const reference = first.reference ?? '';

    const ack = await mailTo('jane@visitor.example', reference);
    expect(ack.subject).toBe(`We received your quote request (reference ${reference})`);
    expect(ack.text).toContain('(512) 555-0142');
    expect(ack.text).toContain('contacts you by e-mail within one business day, as you asked. During office hours (Monday to Friday, 9:00 AM to 5:00 PM Central Time) we aim to reach you within 5 minutes');
    expect(ack.text).not.toMatch(/guarantee(d|s)? (a|to|that)/i);
    stopLink = /Stop contacting me: (\S+)/.exec(ack.text ?? '')?.[1] ?? '';
    expect(stopLink).toMatch(/\/stop-contacting-me\?t=lead_[A-Za-z0-9]{20}\.[A-Za-z0-9_-]{32}$/);
    expect(ack.html).toContain('>Stop contacting me</a>');

    const notice = await mailTo(ALICE, reference);
    expect(notice.subject).toBe(`A quote request is yours: ${reference}`);
    expect(notice.text).toContain(`/admin/leads/${first.id}`);
    // No more of the visitor's details than the agency's notice: here, none of them.
    expect(notice.text).not.toContain('Jane');
    expect(notice.text).not.toContain('jane@visitor.example');
    await mailTo(AGENCY, first.id);
  });

  it('escalates a lead nobody contacted once its minutes of office time have passed, once', async () => {
    const reference = first.reference ?? '';
    const escalation = (await server.store.outbox.forLead(first.id)).find((record) => record.channel === 'escalation');
    expect(escalation?.nextAttemptAt).toBe(new Date(Date.parse(first.createdAt) + 5 * MINUTE).toISOString());

    clock += 4 * MINUTE;
    server.services.outbox.poke();
    // A later lead's acknowledgement proves the outbox has looked since the clock moved.
    const later = await sendQuote('later@visitor.example', 'Later Visitor');
    await mailTo('later@visitor.example', later.reference ?? '');
    expect(mailsTo(MANAGER, reference)).toHaveLength(0);

    clock += MINUTE + 1_000;
    server.services.outbox.poke();
    const mail = await mailTo(MANAGER, reference);
    expect(mail.subject).toBe(`Not contacted in 5 minutes: quote request ${reference}`);
    expect(mail.text).toContain('Alice Agent');
    await waitFor(async () => Boolean((await server.store.leads.get(first.id))?.escalatedAt), 'the escalation recorded on the lead');
    // Written after the lead's mark, in a transaction of its own.
    await waitFor(async () => (await auditOf(first.id)).includes('lead.escalated'), 'the escalation in the audit');

    clock += 60 * MINUTE;
    server.services.outbox.poke();
    const third = await sendQuote('third@visitor.example', 'Third Visitor');
    await mailTo('third@visitor.example', third.reference ?? '');
    expect(mailsTo(MANAGER, reference)).toHaveLength(1);
  });

  it('does not escalate a lead whose call was recorded in time, and the dashboard shows the time to first contact', async () => {
    const lead = await sendQuote('sam@visitor.example', 'Sam Caller');
    const assignee = lead.assignee?.email ?? '';
    expect([ALICE, BOB]).toContain(assignee);
    const client = await signIn(assignee);
    const path = `/admin/leads/${lead.id}`;

    clock += 2 * MINUTE;
    const res = await client.request(path, { form: { _csrf: await csrfOf(client, path), intent: 'attempt', channel: 'call', outcome: 'left-message', 'attempt-note': 'Voicemail, will try at noon' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Contact attempt recorded.');
    expect(html).toContain('call, left a message: Voicemail, will try at noon');
    const stored = await server.store.leads.get(lead.id);
    expect(stored?.contactAttempts).toEqual([{ at: new Date(clock).toISOString(), by: assignee, channel: 'call', outcome: 'left-message', note: 'Voicemail, will try at noon' }]);
    expect(stored?.status).toBe('in-progress');
    expect(await auditOf(lead.id)).toContain('lead.contact_attempted');
    expect((await server.store.outbox.forLead(lead.id)).map((record) => record.channel)).not.toContain('escalation');

    clock += 10 * MINUTE;
    server.services.outbox.poke();
    const after = await sendQuote('after@visitor.example', 'After Visitor');
    await mailTo('after@visitor.example', after.reference ?? '');
    expect(mailsTo(MANAGER, lead.reference ?? '')).toHaveLength(0);

    const dashboard = await (await client.request('/admin')).text();
    expect(dashboard).toMatch(/This week: median <strong>2 min<\/strong>, 90th percentile <strong>2 min<\/strong>/);
    expect(dashboard).toContain('href="/admin/leads?week=this"');
    expect(dashboard).toContain('href="/admin/leads?waiting=1"');
    const waiting = await (await client.request('/admin/leads?waiting=1')).text();
    expect(waiting).toContain(`/admin/leads/${after.id}`);
    expect(waiting).not.toContain(`/admin/leads/${lead.id}"`);
    const csv = await (await client.request('/admin/leads.csv?waiting=1')).text();
    expect(csv).toContain(after.id);
    expect(csv).not.toContain(lead.id);
  });

  it('the stop link asks first (GET changes nothing), records on POST, and stops the next automatic e-mail to that visitor', async () => {
    const link = new URL(stopLink);
    const page = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Stop contacting me</button>');
    expect((await server.store.leads.get(first.id))?.optOut ?? null).toBeNull();

    const token = link.searchParams.get('t') ?? '';
    const confirmed = await fetch(`${server.url}/stop-contacting-me?t=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: new URLSearchParams({ t: token }).toString(),
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Done: you asked us to stop contacting you');
    expect((await server.store.leads.get(first.id))?.optOut).toEqual({ at: new Date(clock).toISOString(), channel: 'email-link', by: 'visitor' });
    expect(await auditOf(first.id)).toContain('lead.opted_out');

    const again = await sendQuote('JANE@visitor.example', 'Jane Carter');
    await mailTo(AGENCY, again.id);
    await waitFor(async () => !(await server.store.outbox.forLead(again.id)).some((record) => record.channel === 'acknowledgement'), 'the acknowledgement dropped');
    expect(mailsTo('JANE@visitor.example', again.reference ?? '').concat(mailsTo('jane@visitor.example', again.reference ?? ''))).toHaveLength(0);
    expect(server.logs.join('\n')).toContain(`Did not send the visitor's acknowledgement notification of ${again.id}: the visitor asked not to be contacted.`);
  });

  it('staff record a phone request not to be contacted; it shows on the lead and is audited', async () => {
    const lead = await sendQuote('phoned@visitor.example', 'Phoned Visitor');
    const client = await signIn(ALICE);
    const path = `/admin/leads/${lead.id}`;
    const unconfirmed = await client.request(path, { form: { _csrf: await csrfOf(client, path), intent: 'opt-out' } });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain('Tick the box to confirm');
    const res = await client.request(path, { form: { _csrf: await csrfOf(client, path), intent: 'opt-out', confirm: 'yes' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('The visitor asked not to be contacted</strong>');
    expect((await server.store.leads.get(lead.id))?.optOut).toMatchObject({ channel: 'phone', by: `staff:${ALICE}` });
    expect(await auditOf(lead.id)).toContain('lead.opted_out');
  });

  it('answers bad inputs with a clear 4xx and changes nothing', async () => {
    const lead = await sendQuote('bad@visitor.example', 'Bad Inputs');
    const client = await signIn(ALICE);
    const path = `/admin/leads/${lead.id}`;
    const csrf = await csrfOf(client, path);

    const unknown = await client.request(path, { form: { _csrf: csrf, intent: 'attempt', channel: 'call', outcome: 'maybe' } });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('Choose what came of it: reached, left a message, no answer, wrong number.');
    const pigeon = await client.request(path, { form: { _csrf: csrf, intent: 'attempt', channel: 'pigeon', outcome: 'reached' } });
    expect(pigeon.status).toBe(400);
    const noCsrf = await client.request(path, { form: { intent: 'attempt', channel: 'call', outcome: 'reached' } });
    expect(noCsrf.status).toBe(403);
    expect(await noCsrf.text()).toContain('security token is missing');
    const nobody = await client.request(path, { form: { _csrf: csrf, intent: 'assign', staff: 'stf_doesnotexist00000' } });
    expect(nobody.status).toBe(400);
    expect((await server.store.leads.get(lead.id))?.contactAttempts ?? []).toEqual([]);

    const forged = `${lead.id}.${'A'.repeat(32)}`;
    const page = await fetch(`${server.url}/stop-contacting-me?t=${forged}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('This link is not complete or not valid, so nothing was changed.');
    const post = await fetch(`${server.url}/stop-contacting-me`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: new URLSearchParams({ t: forged }).toString(),
    });
    expect(post.status).toBe(400);
    expect((await server.store.leads.get(lead.id))?.optOut ?? null).toBeNull();
  });

  it('gives a lead to the person chosen on the lead page, who gets the notice', async () => {
    const lead = await sendQuote('chosen@visitor.example', 'Chosen Person');
    const bob = (await server.store.staff.findByEmail(BOB))?.id ?? '';
    const before = lead.assignee?.email === BOB ? 1 : 0;
    // Reassigned at once, while the round-robin assignee's notice may still be on its way: Bob's notice
    // is a record of its own, so it goes out whatever becomes of the first.
    const client = await signIn(ALICE);
    const path = `/admin/leads/${lead.id}`;
    const res = await client.request(path, { form: { _csrf: await csrfOf(client, path), intent: 'assign', staff: bob } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Assigned to Bob Broker; they get a notice by e-mail.');
    expect((await server.store.leads.get(lead.id))?.assignee).toMatchObject({ email: BOB, by: `staff:${ALICE}` });
    await waitFor(() => mailsTo(BOB, lead.reference ?? '').length > before, "Bob's notice");
    expect(await auditOf(lead.id)).toContain('lead.assigned');
  });

  it('counts office hours only: a request at 16:58 on a Friday escalates at 09:03 on Monday, not in the weekend', async () => {
    // Friday 5 June 2026, 16:58 in Chicago.
    clock = Date.parse('2026-06-05T21:58:00Z');
    const lead = await sendQuote('friday@visitor.example', 'Friday Evening');
    const escalation = (await server.store.outbox.forLead(lead.id)).find((record) => record.channel === 'escalation');
    expect(escalation?.nextAttemptAt).toBe('2026-06-08T14:03:00.000Z');

    // Saturday noon: long past five minutes, but not of office time.
    clock = Date.parse('2026-06-06T17:00:00Z');
    server.services.outbox.poke();
    const saturday = await sendQuote('saturday@visitor.example', 'Saturday Visitor');
    await mailTo('saturday@visitor.example', saturday.reference ?? '');
    expect(mailsTo(MANAGER, lead.reference ?? '')).toHaveLength(0);

    clock = Date.parse('2026-06-08T14:03:01Z');
    server.services.outbox.poke();
    await mailTo(MANAGER, lead.reference ?? '');
  });
});
