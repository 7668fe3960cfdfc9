/**
 * Lead notifications with two app servers on one PostgreSQL database: both run their outbox over the
 * same notifications, and each notification reaches the receiver once (a server holds it for its
 * attempt; the other leaves it alone), never zero times and never twice.
 */
import { afterEach, expect, it, inject } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import type { LeadDeliverySettings } from '../../api/leads/delivery-settings';
import { leadOutbox, newDeliveries } from '../../api/leads/outbox';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { leadRecord } from '../support/store-contract';
import { newLeadId, startWebhookReceiver, waitFor } from '../support/leads';
import { freshDatabase } from '../support/postgres-cluster';

const SECRET = 'outbox-two-servers-secret-0123456789abcdef';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('sends each notification once when two servers run their outbox over one database', async () => {
  const url = await freshDatabase(inject('postgresUrl'), 'outbox');
  // The receiver answers slowly, so both servers find the notifications due while attempts are under way.
  const hook = await startWebhookReceiver({ secret: SECRET, answer: () => ({ status: 200, body: 'ok', delayMs: 200 }) });
  cleanups.push(hook.close);
  const settings: LeadDeliverySettings = { email: null, webhook: { url: hook.url, secret: SECRET } };
  const [a, b] = await Promise.all([openPostgresStore(url, 'PostgreSQL'), openPostgresStore(url, 'PostgreSQL')]);
  cleanups.push(() => a.close(), () => b.close());
  const now = new Date();
  const leads = Array.from({ length: 6 }, () => leadRecord(newLeadId(), { createdAt: now.toISOString() }));
  for (const lead of leads) await a.leads.create(lead, newDeliveries(lead, settings, now));

  const errors: string[] = [];
  const outboxes = [a, b].map((store) =>
    leadOutbox(store, settings, { config: DEFAULT_SITE_CONFIG, log: () => undefined, onError: (message, error) => errors.push(`${message} ${String(error)}`) }),
  );
  cleanups.push(async () => {
    await Promise.all(outboxes.map((outbox) => outbox.stop()));
  });
  await Promise.all(outboxes.map((outbox) => outbox.start()));
  await waitFor(async () => (await b.outbox.pending()).length === 0, 'every notification sent');

  expect(errors).toEqual([]);
  const sent = hook.received.map((request) => request.body);
  expect(hook.received).toHaveLength(leads.length);
  expect(new Set(sent).size).toBe(leads.length);
  for (const lead of leads) expect((await a.outbox.forLead(lead.id))[0]).toMatchObject({ attempts: 1, lastError: null });
});
