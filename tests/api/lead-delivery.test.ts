/**
 * Quote request notifications as the agency sees them, over the real data directory, a real SMTP server
 * and a real webhook receiver: a stored lead arrives by e-mail (text and HTML, Reply-To the visitor,
 * nothing the visitor typed interpreted as HTML) and by a signed webhook a receiver can verify (and
 * refuse when tampered with or replayed); spam is stored, never sent; and a notification survives a
 * restart and a mail server that was down: it is delayed, never lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import type { LeadDeliverySettings } from '../../api/leads/delivery-settings';
import { leadOutbox, newDeliveries, type LeadOutbox } from '../../api/leads/outbox';
import { signWebhook, verifyWebhookSignature } from '../../api/leads/webhook';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import type { Store } from '../../api/store/store';
import { leadRecord } from '../support/store-contract';
import { newLeadId, startWebhookReceiver, waitFor, type ReceivedWebhook, type TestWebhookReceiver } from '../support/leads';
import { freePort } from '../support/free-port';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

const SECRET = 'lead-delivery-test-secret-0123456789abcdef';

/** A lead received now, without consent (contact only by e-mail) and with Global Privacy Control, as the e-mail checks below expect. */
function testLead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  const base = leadRecord(newLeadId(), {
    name: 'Jane Doe',
    phone: '(512) 555-0142',
    preferredContactMethod: 'email',
    healthRating: 'excellent',
    tobaccoUser: null,
    additionalNotes: 'Interested in a max-funded policy for my kids.',
    createdAt: new Date().toISOString(),
  });
  return { ...base, consent: { ...base.consent, given: false, globalPrivacyControl: true, contactOnlyBy: 'email' }, ...overrides };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lead-delivery-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function smtpServer(port = 0): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer(port);
  cleanups.push(smtp.close);
  return smtp;
}

/** A receiver that answers 204 to a request whose signature verifies now, 401 to any other. */
async function webhookReceiver(): Promise<TestWebhookReceiver> {
  const hook = await startWebhookReceiver({ secret: SECRET, answer: (request) => ({ status: request.valid ? 204 : 401 }) });
  cleanups.push(hook.close);
  return hook;
}

function emailSettings(port: number): LeadDeliverySettings['email'] {
  return { smtpUrl: `smtp://127.0.0.1:${port}`, to: ['agent@hartwell.example'], from: '"Hartwell website" <no-reply@hartwell.example>' };
}

function startOutbox(store: Store, settings: LeadDeliverySettings, logs: string[]): LeadOutbox {
  const outbox = leadOutbox(store, settings, {
    config: DEFAULT_SITE_CONFIG,
    log: (line) => logs.push(line),
    onError: (message) => logs.push(message),
  });
  cleanups.push(() => outbox.stop());
  return outbox;
}

/** A started outbox over a fresh data directory that e-mails a real SMTP server and posts to a real receiver. */
async function deliveringBoth(logs: string[]) {
  const store = await openSqliteStore(dataDir());
  cleanups.push(() => store.close());
  const smtp = await smtpServer();
  const hook = await webhookReceiver();
  const settings: LeadDeliverySettings = { email: emailSettings(smtp.port), webhook: { url: hook.url, secret: SECRET } };
  const outbox = startOutbox(store, settings, logs);
  await outbox.start();
  return { store, smtp, hook, settings, outbox };
}

describe('lead notifications', () => {
  it('e-mail the agency and post a signed webhook for a stored lead', async () => {
    const logs: string[] = [];
    const { store, smtp, hook, settings, outbox } = await deliveringBoth(logs);

    const lead = testLead({ name: 'Jane <script>alert(1)</script> Doe' });
    await store.leads.create(lead, newDeliveries(lead, settings, new Date()));
    outbox.poke();
    await waitFor(() => smtp.received.length === 1 && hook.received.length === 1, 'the e-mail and the webhook');
    await waitFor(async () => (await store.outbox.pending()).length === 0, 'both notifications to be marked sent');

    const mail = smtp.received[0] as ParsedMail;
    expect(mail.subject).toBe('New quote request: Jane <script>alert(1)</script> Doe, age 45, $12,000 a year');
    expect(mail.replyTo?.value[0]?.address).toBe('jane@example.com');
    expect(mail.text).toMatch(/Yearly contribution:\s+\$12,000/);
    expect(mail.text).toMatch(/Health:\s+Excellent/);
    expect(mail.text).toMatch(/Tobacco:\s+not given/);
    expect(mail.text).toContain('Consent: not given: contact only by e-mail.');
    expect(mail.text).toContain('Global Privacy Control: opted out of marketing');
    expect(mail.text).toContain(`blogpost leads show ${lead.id}`);
    expect(mail.html).toContain('Jane &lt;script&gt;alert(1)&lt;/script&gt; Doe');
    expect(mail.html).not.toContain('<script>');

    const request = hook.received[0] as ReceivedWebhook;
    const signature = String(request.headers['x-lead-signature']);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-lead-delivery']).toBe(`${lead.id}.webhook`);
    expect(JSON.parse(request.body)).toMatchObject({ event: 'lead.created', lead, sentAt: expect.any(String) });
    expect(verifyWebhookSignature(SECRET, signature, request.body, new Date())).toBe(true);
    expect(verifyWebhookSignature(SECRET, signature, request.body.replace('"age":45', '"age":46'), new Date())).toBe(false);
    expect(verifyWebhookSignature(SECRET, signature, request.body, new Date(Date.now() + 10 * 60_000))).toBe(false);
    const replayed = signWebhook(SECRET, Math.floor(Date.now() / 1000) - 600, request.body);
    expect(verifyWebhookSignature(SECRET, replayed, request.body, new Date())).toBe(false);

    expect(logs.join('\n')).not.toMatch(/Jane|jane@example\.com|555-0142/);
  });

  it('store spam but never send it', async () => {
    const { store, smtp, hook, settings, outbox } = await deliveringBoth([]);

    const spam = testLead({ spam: 'honeypot' });
    await store.leads.create(spam, newDeliveries(spam, settings, new Date()));
    const real = testLead();
    await store.leads.create(real, newDeliveries(real, settings, new Date()));
    outbox.poke();
    await waitFor(async () => (await store.outbox.pending()).length === 0, 'the real lead to be sent');

    expect(smtp.received.map((mail) => mail.headers.get('x-lead-id'))).toEqual([real.id]);
    expect(hook.received.map((request) => request.headers['x-lead-delivery'])).toEqual([`${real.id}.webhook`]);
    expect(await store.leads.get(spam.id)).toMatchObject({ id: spam.id, spam: 'honeypot' });
    expect(await store.outbox.forLead(spam.id)).toEqual([]);
  });

  it('survive a restart: a lead stored while nothing was sending is e-mailed by the next start', async () => {
    const dir = dataDir();
    const smtp = await smtpServer();
    const settings: LeadDeliverySettings = { email: emailSettings(smtp.port), webhook: null };
    const lead = testLead();
    const before = await openSqliteStore(dir);
    await before.leads.create(lead, newDeliveries(lead, settings, new Date()));
    await before.close();

    const after = await openSqliteStore(dir);
    cleanups.push(() => after.close());
    const outbox = startOutbox(after, settings, []);
    await outbox.start();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.headers.get('x-lead-id')).toBe(lead.id);
    expect(await after.outbox.forLead(lead.id)).toEqual([expect.objectContaining({ channel: 'email', attempts: 1, sentAt: expect.any(String), nextAttemptAt: null })]);
  });

  it('survive a mail server that is down: kept with the reason, then sent after a restart once it is back', async () => {
    const dir = dataDir();
    const port = await freePort();
    const settings: LeadDeliverySettings = { email: emailSettings(port), webhook: null };
    const lead = testLead();

    const first = await openSqliteStore(dir);
    const logs: string[] = [];
    const down = startOutbox(first, settings, logs);
    await down.start();
    await first.leads.create(lead, newDeliveries(lead, settings, new Date()));
    down.poke();
    await waitFor(async () => (await first.outbox.forLead(lead.id))[0]?.attempts === 1, 'the failed attempt to be recorded');
    await down.stop();
    await first.close();
    expect(logs.join('\n')).toContain(`Could not send the e-mail notification of ${lead.id} (attempt 1)`);

    const smtp = await smtpServer(port);
    const second = await openSqliteStore(dir);
    cleanups.push(() => second.close());
    const [pending] = await second.outbox.pending();
    expect(pending).toMatchObject({ id: `${lead.id}.email`, attempts: 1, sentAt: null, lastError: expect.stringContaining('ECONNREFUSED') });
    // Its retry is due 30 s after the failure: the restarted outbox sees it due once that time has come.
    const dueAt = new Date(pending?.nextAttemptAt ?? '');
    const up = leadOutbox(second, settings, { config: DEFAULT_SITE_CONFIG, now: () => new Date(dueAt.getTime() + 1), log: () => undefined, onError: () => undefined });
    cleanups.push(() => up.stop());
    await up.start();
    expect(smtp.received).toHaveLength(1);
    expect(await second.outbox.forLead(lead.id)).toEqual([expect.objectContaining({ attempts: 2, sentAt: expect.any(String), lastError: null })]);
  });
});
