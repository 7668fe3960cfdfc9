/**
 * Speed to lead with two app servers on one PostgreSQL database (migration 0004-lead-follow-up): the
 * round robin's turns are never given twice, an opt-out recorded through one server stops the other's
 * acknowledgement at once, and each escalation reaches the second person once, though both servers'
 * outboxes find it due at the same moment (the outbox's hold in the row; decision 0023).
 */
import { afterEach, expect, it, inject } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import type { LeadDeliverySettings } from '../../api/leads/delivery-settings';
import { DEFAULT_FOLLOW_UP } from '../../api/leads/follow-up-settings';
import { newDeliveries } from '../../api/leads/outbox';
import { createServices } from '../../api/services/services';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { leadRecord } from '../support/store-contract';
import { newLeadId, waitFor } from '../support/leads';
import { freshDatabase } from '../support/postgres-cluster';
import { startSmtpServer } from '../support/smtp';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('gives every turn once, honours an opt-out at once, and sends each escalation once across two servers', async () => {
  const url = await freshDatabase(inject('postgresUrl'), 'speed_to_lead');
  const smtp = await startSmtpServer();
  cleanups.push(smtp.close);
  const [a, b] = await Promise.all([openPostgresStore(url, 'PostgreSQL'), openPostgresStore(url, 'PostgreSQL')]);
  cleanups.push(() => a.close(), () => b.close());

  // Turns taken at once on both servers are all different.
  const turns = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).leads.nextTurn()));
  expect(new Set(turns).size).toBe(20);
  expect(Math.max(...turns)).toBe(20);

  const settings: LeadDeliverySettings = {
    email: { smtpUrl: smtp.url, to: ['agency@hartwell.example'], from: '"Hartwell website" <no-reply@hartwell.example>' },
    webhook: null,
    followUp: { ...DEFAULT_FOLLOW_UP, escalateTo: ['manager@hartwell.example'] },
  };
  // Tuesday 2 June 2026, 11:00 in Chicago; the leads arrived an hour before: every escalation is due.
  const now = new Date('2026-06-02T16:00:00Z');
  const arrived = new Date(now.getTime() - 60 * 60_000);
  const servers = [a, b].map((store) => createServices(store, { config: DEFAULT_SITE_CONFIG, leadDelivery: settings }, () => now));

  const optedOut = leadRecord(newLeadId(), { createdAt: arrived.toISOString(), email: 'gone@visitor.example', preferredContactMethod: 'email' });
  await a.leads.addOptOut({ address: 'Gone@Visitor.example', leadId: optedOut.id, at: now.toISOString(), channel: 'email-link' });
  expect(await b.leads.isOptedOut(' gone@visitor.example')).toBe(true);

  const leads = Array.from({ length: 5 }, () => leadRecord(newLeadId(), { createdAt: arrived.toISOString() }));
  for (const lead of [...leads, optedOut]) {
    const dueAt = servers[0]?.followUp.dueAt(lead.createdAt) ?? now;
    expect(dueAt.getTime()).toBe(arrived.getTime() + 5 * 60_000);
    await a.leads.create(lead, newDeliveries(lead, settings, arrived, { escalationDueAt: dueAt }));
  }
  cleanups.push(async () => {
    await Promise.all(servers.map((services) => services.outbox.stop()));
  });
  await Promise.all(servers.map((services) => services.outbox.start()));

  const escalations = () => smtp.received.filter((mail) => (mail.subject ?? '').startsWith('Not contacted in 5 minutes'));
  await waitFor(async () => (await a.outbox.pending()).length === 0, 'every notification sent or dropped', 30_000);
  await waitFor(() => escalations().length >= 6, 'six escalations');
  expect(escalations()).toHaveLength(6);
  for (const lead of [...leads, optedOut]) expect(escalations().filter((mail) => (mail.text ?? '').includes(lead.id))).toHaveLength(1);
  expect(smtp.received.filter((mail) => (mail.subject ?? '').startsWith('We received your quote request') && (mail.text ?? '').includes(optedOut.reference ?? optedOut.id))).toHaveLength(0);
  const audited = (await a.audit.list()).filter((entry) => entry.action === 'lead.escalated');
  expect(audited).toHaveLength(6);
  expect((await b.leads.get(leads[0]?.id ?? ''))?.escalatedAt).toBe(now.toISOString());
});
