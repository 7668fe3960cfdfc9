/**
 * The outbox over a real SQLite store, a real SMTP server and a real HTTP receiver: what it sends, what
 * it keeps trying (an SMTP server that is down, a receiver answering 500), what it never sends (spam),
 * what waits (a channel no longer configured), what it drops (a notification whose lead is gone), and
 * that attempts of one notification never overlap and `stop` waits for the one under way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryRecord, LeadRecord } from '../../contract/leads';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { newLeadId, startWebhookReceiver, waitFor, type TestWebhookReceiver } from '../../tests/support/leads';
import { freePort } from '../../tests/support/free-port';
import { startSmtpServer, type TestSmtpServer } from '../../tests/support/smtp';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { deliveryRecord, leadRecord } from '../../tests/support/store-contract';
import type { LeadDeliverySettings } from './delivery-settings';
import { leadOutbox, newDeliveries, type LeadOutbox } from './outbox';

const SECRET = 'outbox-test-secret-0123456789abcdefghij';
const START = new Date('2026-12-01T15:00:00.000Z');

/** A new lead received at START; the name and phone are the ones the subject and the log checks name. */
function testLead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return leadRecord(newLeadId(), { name: 'Jane Doe', phone: '(512) 555-0142', createdAt: START.toISOString(), ...overrides });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempStore(): Promise<Store> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lead-outbox-'));
  const store = await openSqliteStore(dir);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

async function smtpServer(port = 0): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer(port);
  cleanups.push(smtp.close);
  return smtp;
}

/** A webhook receiver answering `statuses` in turn (the last one from then on), checking signatures against `now`. */
async function webhookReceiver(statuses: number[], now: () => Date, delayMs = 0): Promise<TestWebhookReceiver> {
  const hook = await startWebhookReceiver({
    secret: SECRET,
    now,
    answer: (_request, index) => {
      const status = statuses[Math.min(index, statuses.length - 1)] ?? 200;
      return { status, body: status >= 300 ? 'receiver failed' : 'ok', delayMs };
    },
  });
  cleanups.push(hook.close);
  return hook;
}

interface Running {
  outbox: LeadOutbox;
  logs: string[];
  errors: string[];
}

function runOutbox(store: Store, settings: LeadDeliverySettings, options: { now?: () => Date; retryDelaysMs?: number[] } = {}): Running {
  const logs: string[] = [];
  const errors: string[] = [];
  const outbox = leadOutbox(store, settings, {
    config: DEFAULT_SITE_CONFIG,
    log: (line) => logs.push(line),
    onError: (message, error) => errors.push(`${message} ${String(error)}`),
    ...options,
  });
  cleanups.push(() => outbox.stop());
  return { outbox, logs, errors };
}

async function delivery(store: Store, id: string): Promise<DeliveryRecord | undefined> {
  const [leadId] = id.split('.');
  return (await store.outbox.forLead(leadId ?? '')).find((record) => record.id === id);
}

describe('newDeliveries', () => {
  const email = { smtpUrl: 'smtp://127.0.0.1:25', to: ['a@example.com'], from: 'x@example.com' };
  const webhook = { url: 'https://hooks.example.com/x', secret: SECRET };

  it('plans one notification per configured channel, due now', () => {
    const lead = testLead();
    const due = { createdAt: START.toISOString(), attempts: 0, nextAttemptAt: START.toISOString(), lastError: null, sentAt: null };
    expect(newDeliveries(lead, { email, webhook }, START)).toEqual([deliveryRecord(lead, 'email', due), deliveryRecord(lead, 'webhook', due)]);
    expect(newDeliveries(lead, { email: null, webhook }, START).map((record) => record.channel)).toEqual(['webhook']);
    expect(newDeliveries(lead, { email: null, webhook: null }, START)).toEqual([]);
  });

  it('plans nothing for spam', () => {
    expect(newDeliveries(testLead({ spam: 'honeypot' }), { email, webhook }, START)).toEqual([]);
  });
});

describe('leadOutbox', () => {
  it('sends the e-mail and the webhook of a new lead once, and logs the lead id only', async () => {
    const store = await tempStore();
    const smtp = await smtpServer();
    const hook = await webhookReceiver([200], () => new Date());
    const settings: LeadDeliverySettings = { email: { smtpUrl: smtp.url, to: ['agent@example.com'], from: 'no-reply@example.com' }, webhook: { url: hook.url, secret: SECRET } };
    const { outbox, logs, errors } = runOutbox(store, settings);
    await outbox.start();

    const lead = testLead({ createdAt: new Date().toISOString() });
    await store.leads.create(lead, newDeliveries(lead, settings, new Date()));
    outbox.poke();
    await waitFor(async () => (await store.outbox.pending()).length === 0, 'both notifications to be sent');

    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.subject).toBe('New quote request: Jane Doe, age 45, $12,000 a year');
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]?.valid).toBe(true);
    expect(hook.received[0]?.headers['x-lead-delivery']).toBe(`${lead.id}.webhook`);
    for (const channel of ['email', 'webhook']) {
      expect(await delivery(store, `${lead.id}.${channel}`)).toMatchObject({ attempts: 1, nextAttemptAt: null, lastError: null, sentAt: expect.any(String) });
    }
    expect(errors).toEqual([]);
    expect(logs).toContain(`Sent the e-mail notification of ${lead.id} (attempt 1).`);
    expect(logs).toContain(`Sent the webhook notification of ${lead.id} (attempt 1).`);
    for (const personal of ['Jane', 'jane@example.com', '555-0142']) expect(logs.join('\n')).not.toContain(personal);

    outbox.poke();
    await outbox.stop();
    expect(smtp.received).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
  });

  it('keeps an e-mail pending while the SMTP server is down, and sends it once the server is up and its time has come', async () => {
    const store = await tempStore();
    const port = await freePort();
    let clock = START;
    const settings: LeadDeliverySettings = { email: { smtpUrl: `smtp://127.0.0.1:${port}`, to: ['agent@example.com'], from: 'no-reply@example.com' }, webhook: null };
    const lead = testLead();
    await store.leads.create(lead, newDeliveries(lead, settings, clock));
    const { outbox, logs } = runOutbox(store, settings, { now: () => clock, retryDelaysMs: [60_000, 120_000] });

    await outbox.start();
    const failed = await delivery(store, `${lead.id}.email`);
    expect(failed).toMatchObject({ attempts: 1, sentAt: null, nextAttemptAt: new Date(START.getTime() + 60_000).toISOString() });
    expect(failed?.lastError).toContain('ECONNREFUSED');
    expect(logs.join('\n')).toContain(`Could not send the e-mail notification of ${lead.id} (attempt 1): `);

    // Not due yet: a look changes nothing.
    outbox.poke();
    await outbox.stop();
    expect(await delivery(store, `${lead.id}.email`)).toMatchObject({ attempts: 1 });

    const smtp = await smtpServer(port);
    clock = new Date(START.getTime() + 61_000);
    await outbox.start();
    expect(await delivery(store, `${lead.id}.email`)).toMatchObject({ attempts: 2, sentAt: clock.toISOString(), nextAttemptAt: null });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.headers.get('x-lead-id')).toBe(lead.id);
  });

  it('retries a webhook answering 500 twice on its own timer, then sends it once', async () => {
    const store = await tempStore();
    const hook = await webhookReceiver([500, 500, 200], () => new Date());
    const settings: LeadDeliverySettings = { email: null, webhook: { url: hook.url, secret: SECRET } };
    const lead = testLead({ createdAt: new Date().toISOString() });
    await store.leads.create(lead, newDeliveries(lead, settings, new Date()));
    const { outbox, logs } = runOutbox(store, settings, { retryDelaysMs: [30, 60] });

    await outbox.start();
    await waitFor(async () => (await delivery(store, `${lead.id}.webhook`))?.sentAt != null, 'the webhook to be sent');
    expect(await delivery(store, `${lead.id}.webhook`)).toMatchObject({ attempts: 3, lastError: null, nextAttemptAt: null });
    expect(hook.received).toHaveLength(3);
    expect(hook.received.every((request) => request.valid && request.headers['x-lead-delivery'] === `${lead.id}.webhook`)).toBe(true);
    expect(logs.filter((line) => line.startsWith(`Could not send the webhook notification of ${lead.id}`))).toEqual([
      expect.stringContaining('(attempt 1): answered 500'),
      expect.stringContaining('(attempt 2): answered 500'),
    ]);

    outbox.poke();
    await outbox.stop();
    expect(hook.received).toHaveLength(3);
  });

  it('never sends a lead marked as spam', async () => {
    const store = await tempStore();
    const hook = await webhookReceiver([200], () => START);
    const settings: LeadDeliverySettings = { email: null, webhook: { url: hook.url, secret: SECRET } };
    const spam = testLead({ spam: 'too-fast' });
    await store.leads.create(spam, newDeliveries(spam, settings, START));
    // Marked as spam after its notification was queued (by an agent): still never sent.
    const later = testLead();
    await store.leads.create(later, newDeliveries(later, settings, START));
    await store.leads.update(later.id, (lead) => ({ ...lead, spam: 'honeypot' }));

    const { outbox } = runOutbox(store, settings, { now: () => START });
    await outbox.start();
    expect(hook.received).toEqual([]);
    expect(await store.outbox.forLead(spam.id)).toEqual([]);
    expect(await store.outbox.forLead(later.id)).toEqual([]);
    expect(await store.leads.get(spam.id)).not.toBeNull();
  });

  it('keeps a notification whose channel is no longer configured, and says so once', async () => {
    const store = await tempStore();
    const lead = testLead();
    await store.leads.create(lead, newDeliveries(lead, { email: null, webhook: { url: 'http://127.0.0.1:9/x', secret: SECRET } }, START));
    const { outbox, logs } = runOutbox(store, { email: null, webhook: null }, { now: () => START });
    await outbox.start();
    outbox.poke();
    await outbox.stop();
    await outbox.start();
    expect(await delivery(store, `${lead.id}.webhook`)).toMatchObject({ attempts: 0, sentAt: null });
    expect(logs.filter((line) => line.includes(lead.id))).toEqual([
      `The webhook notification of ${lead.id} waits: webhook notifications are not configured (set LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET and restart to send it).`,
    ]);
  });

  it('removes a notification whose lead is missing for over a minute, and waits for a younger one', async () => {
    const store = await tempStore();
    const hook = await webhookReceiver([200], () => START);
    const settings: LeadDeliverySettings = { email: null, webhook: { url: hook.url, secret: SECRET } };
    const old = newDeliveries(testLead(), settings, new Date(START.getTime() - 61_000))[0] as DeliveryRecord;
    const young = newDeliveries(testLead(), settings, new Date(START.getTime() - 30_000))[0] as DeliveryRecord;
    await store.outbox.save(old);
    await store.outbox.save(young);

    const { outbox, logs } = runOutbox(store, settings, { now: () => START });
    await outbox.start();
    expect((await store.outbox.pending()).map((record) => record.id)).toEqual([young.id]);
    expect(logs).toContain(`Removed the webhook notification of ${old.leadId}: the lead no longer exists.`);
    expect(hook.received).toEqual([]);
  });

  it('never overlaps attempts of one notification, and stop waits for the attempt under way', async () => {
    const store = await tempStore();
    const hook = await webhookReceiver([200], () => new Date(), 300);
    const settings: LeadDeliverySettings = { email: null, webhook: { url: hook.url, secret: SECRET } };
    const lead = testLead({ createdAt: new Date().toISOString() });
    await store.leads.create(lead, newDeliveries(lead, settings, new Date()));
    const { outbox } = runOutbox(store, settings);

    const started = outbox.start();
    await waitFor(() => hook.received.length === 1, 'the first attempt to reach the receiver');
    for (let i = 0; i < 5; i += 1) outbox.poke();
    await outbox.stop();
    expect(await delivery(store, `${lead.id}.webhook`)).toMatchObject({ attempts: 1, sentAt: expect.any(String) });
    await started;
    expect(hook.received).toHaveLength(1);
    expect(hook.maxConcurrent).toBe(1);
  });
});
