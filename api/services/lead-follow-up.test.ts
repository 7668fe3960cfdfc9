/**
 * The follow-up service over a real SQLite store in a temporary directory: the round robin takes
 * active staff who take leads in turn (none: unassigned), the stop link's token is signed (a forged or
 * cut one changes nothing), an opt-out holds for the visitor's address in any case, and a store written
 * with speed to lead's fields goes through `blogpost export` and `import` whole (the opt-out included).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import type { StaffRecord } from '../../contract/staff';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { exportStore, importStore } from '../store/transfer';
import { leadRecord } from '../../tests/support/store-contract';
import { leadFollowUp } from './lead-follow-up';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function store(): Promise<Store> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'follow-up-'));
  const opened = await openSqliteStore(dir);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }), () => opened.close());
  return opened;
}

const now = new Date('2026-06-03T15:00:00Z');

function staff(n: number, overrides: Partial<StaffRecord> = {}): StaffRecord {
  return { id: `stf_${String(n).padStart(16, '0')}`, email: `agent${n}@example.com`, name: `Agent ${n}`, passwordHash: 'x', createdAt: now.toISOString(), passwordChangedAt: now.toISOString(), disabledAt: null, ...overrides };
}

function service(opened: Store) {
  return leadFollowUp({ store: opened, config: DEFAULT_SITE_CONFIG, delivery: { email: null, webhook: null }, now: () => now });
}

describe('leadFollowUp', () => {
  it('gives leads in turn to active staff who take leads, and to nobody when there is none', async () => {
    const opened = await store();
    const followUp = service(opened);
    expect(await followUp.nextAssignee(now)).toBeNull();
    await opened.staff.add(staff(1));
    await opened.staff.add(staff(2, { takesLeads: false }));
    await opened.staff.add(staff(3));
    await opened.staff.add(staff(4, { disabledAt: now.toISOString() }));
    const turns = [];
    for (let i = 0; i < 4; i++) turns.push((await followUp.nextAssignee(now))?.email);
    expect(turns).toEqual(['agent1@example.com', 'agent3@example.com', 'agent1@example.com', 'agent3@example.com']);
  });

  it('signs the stop link: the right token opts the address out, a forged or cut one changes nothing', async () => {
    const opened = await store();
    const followUp = service(opened);
    const lead = leadRecord('lead_AAAAAAAAAAAAAAAAAAAA', { email: 'Jane@Example.com' });
    await opened.leads.create(lead, []);
    const token = new URL(await followUp.stopLink(lead.id)).searchParams.get('t') ?? '';
    for (const bad of ['', lead.id, `${lead.id}.${'A'.repeat(32)}`, token.slice(0, -1), token.replace('lead_AAAA', 'lead_AAAB')]) {
      expect(await followUp.optOutStatus(bad)).toEqual({ kind: 'invalid' });
      expect(await followUp.optOutByLink(bad, null)).toEqual({ kind: 'invalid' });
    }
    expect(await opened.leads.isOptedOut('jane@example.com')).toBe(false);
    expect(await followUp.optOutStatus(token)).toEqual({ kind: 'valid', alreadyAt: null });
    expect(await followUp.optOutByLink(token, '203.0.113.9')).toEqual({ kind: 'valid', alreadyAt: now.toISOString() });
    expect(await opened.leads.isOptedOut(' JANE@example.com ')).toBe(true);
    const audit = (await opened.audit.list()).filter((entry) => entry.action === 'lead.opted_out');
    expect(audit).toMatchObject([{ actor: 'visitor', target: lead.id, detail: { channel: 'email-link' }, ip: '203.0.113.9' }]);
    // A second press records nothing more.
    await followUp.optOutByLink(token, null);
    expect((await opened.audit.list()).filter((entry) => entry.action === 'lead.opted_out')).toHaveLength(1);
  });

  it("keeps speed to lead's fields and the opt-out through export and import", async () => {
    const from = await store();
    const lead = leadRecord('lead_BBBBBBBBBBBBBBBBBBBB', {
      email: 'sam@example.com',
      assignee: { staffId: 'stf_0000000000000001', name: 'Agent 1', email: 'agent1@example.com', at: now.toISOString(), by: 'round-robin' },
      contactAttempts: [{ at: now.toISOString(), by: 'agent1@example.com', channel: 'call', outcome: 'wrong-number', note: null }],
      optOut: { at: now.toISOString(), channel: 'phone', by: 'staff:agent1@example.com' },
      escalatedAt: now.toISOString(),
    });
    await from.staff.add(staff(1, { takesLeads: false }));
    await from.leads.create(lead, [{ id: `${lead.id}.escalation`, leadId: lead.id, channel: 'escalation', createdAt: now.toISOString(), attempts: 1, nextAttemptAt: null, lastError: null, sentAt: now.toISOString() }]);
    const lines: string[] = [];
    await exportStore(from, async (line) => void lines.push(line), now);
    const to = await store();
    await importStore(
      to,
      (async function* () {
        yield* lines;
      })(),
    );
    expect(await to.leads.get(lead.id)).toEqual(lead);
    expect((await to.outbox.forLead(lead.id)).map((record) => record.channel)).toEqual(['escalation']);
    expect((await to.staff.findById('stf_0000000000000001'))?.takesLeads).toBe(false);
    expect(await to.leads.isOptedOut('sam@example.com')).toBe(true);
  });
});

describe('reassigning a lead', () => {
  it("queues the new assignee's notice as a record of its own: a notice to the one before, being sent meanwhile, neither hides it nor is sent to them", async () => {
    const opened = await store();
    const clock = { at: now };
    const followUp = leadFollowUp({ store: opened, config: DEFAULT_SITE_CONFIG, delivery: { email: { smtpUrl: 'smtp://127.0.0.1:2525', to: ['agency@example.com'], from: 'site@example.com' }, webhook: null }, now: () => clock.at });
    for (const n of [1, 2, 3]) await opened.staff.add(staff(n));
    const first = { staffId: staff(1).id, name: 'Agent 1', email: 'agent1@example.com', at: now.toISOString(), by: 'round-robin' };
    const lead = leadRecord('lead_ReassignReassign0001', { createdAt: now.toISOString(), assignee: first });
    // As the intake queues it: `<lead>.assignee`, due at once.
    await opened.leads.create(lead, [{ id: `${lead.id}.assignee`, leadId: lead.id, channel: 'assignee', createdAt: now.toISOString(), attempts: 0, nextAttemptAt: now.toISOString(), lastError: null, sentAt: null }]);
    // The outbox takes the first notice and is sending it when staff give the lead to agent 2.
    const sending = await opened.outbox.claim(`${lead.id}.assignee`, now.toISOString(), new Date(now.getTime() + 60_000).toISOString());
    expect(sending).not.toBeNull();
    clock.at = new Date(now.getTime() + 1_000);
    const toTwo = await followUp.assign(lead.id, staff(2).id, 'staff:boss@example.com', null);
    expect(toTwo !== 'no-staff' && toTwo?.assignee?.email).toBe('agent2@example.com');
    // The first notice was sent: the outbox records it so.
    if (sending) await opened.outbox.save({ ...sending, attempts: 1, sentAt: clock.at.toISOString() });
    const records = await opened.outbox.forLead(lead.id);
    const pending = records.filter((record) => record.channel === 'assignee' && record.sentAt === null);
    expect(pending).toHaveLength(1);
    expect(records.find((record) => record.id === `${lead.id}.assignee`)?.sentAt).not.toBeNull();
    // The pending one is agent 2's, and says so when the outbox asks what to send.
    const stored = await opened.leads.get(lead.id);
    const plan = stored && pending[0] ? await followUp.messageFor(pending[0], stored) : null;
    expect(plan && 'send' in plan ? plan.send.to : plan).toEqual(['agent2@example.com']);

    // Given again to agent 3 before agent 2's notice went out: agent 2's is withdrawn, agent 3's is queued,
    // and a notice queued for an earlier assignment is never sent to whoever has the lead now.
    clock.at = new Date(now.getTime() + 2_000);
    await followUp.assign(lead.id, staff(3).id, 'staff:boss@example.com', null);
    const after = (await opened.outbox.forLead(lead.id)).filter((record) => record.channel === 'assignee' && record.sentAt === null);
    expect(after).toHaveLength(1);
    const latest = await opened.leads.get(lead.id);
    const latestPlan = latest && after[0] ? await followUp.messageFor(after[0], latest) : null;
    expect(latestPlan && 'send' in latestPlan ? latestPlan.send.to : latestPlan).toEqual(['agent3@example.com']);
    const stale = latest && pending[0] ? await followUp.messageFor(pending[0], latest) : null;
    expect(stale).toEqual({ skip: 'it was reassigned since, and the new assignee gets a notice of their own' });
  });
});
