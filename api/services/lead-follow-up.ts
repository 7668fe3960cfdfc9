/**
 * Speed to lead (issue 40): who follows each new lead up (round robin among active staff who take
 * leads, or a person chosen on the lead page), the contact attempts staff record, the visitor's "stop
 * contacting me" (a signed link in every e-mail to them, or a phone request staff record), and the
 * dashboard's time to first contact. The e-mails themselves go through the outbox (api/leads/outbox.ts),
 * which asks `messageFor` at the moment of sending, so an opt-out or a contact attempt recorded a second
 * before stops an e-mail still waiting. Every change is in the audit, naming the lead by id only.
 */
import type { ContactAttempt, ContactChannel, ContactOutcome, DeliveryRecord, LeadAssignee, LeadRecord, OptOutChannel, OptOutStatus } from '../../contract/leads';
import type { SiteConfig } from '../../contract/site-config';
import type { AuditAction } from '../../contract/staff';
import type { LeadDeliverySettings } from '../leads/delivery-settings';
import { acknowledgementEmail, assigneeEmail, escalationEmail, type FollowUpMessage } from '../leads/follow-up-email';
import { addOfficeMinutes, DEFAULT_FOLLOW_UP, type LeadFollowUpSettings, officeMsBetween, weekStart } from '../leads/follow-up-settings';
import type { Store } from '../store/store';
import { linkSigner } from './signed-links';

const LEAD_ID = /^lead_[A-Za-z0-9]{20}$/;
const TOKEN = /^(lead_[A-Za-z0-9]{20})\.([A-Za-z0-9_-]{32})$/;
const OPT_OUT_PURPOSE = 'lead-opt-out';

export type FollowUpPlan = { send: FollowUpMessage } | { skip: string };

export interface FirstContactFigures {
  /** Leads received in the week with a first attempt, and the office minutes to it. */
  contacted: number;
  medianMinutes: number | null;
  p90Minutes: number | null;
}

export interface LeadFollowUp {
  settings: LeadFollowUpSettings;
  /** The next active staff member who takes leads, in turn; null when there is none. */
  nextAssignee(at: Date): Promise<LeadAssignee | null>;
  /** When the first contact of a lead received at `createdAt` is due (office hours). */
  dueAt(createdAt: string): Date;
  /** The e-mail of a follow-up notification now, or why it is not sent (the visitor opted out, contact was made...). */
  messageFor(record: DeliveryRecord, lead: LeadRecord): Promise<FollowUpPlan>;
  /** An escalation went out: kept on the lead and in the audit. */
  escalated(lead: LeadRecord, at: Date): Promise<void>;
  /** The link of "stop contacting me" for this lead. */
  stopLink(leadId: string): Promise<string>;
  optOutStatus(token: string): Promise<OptOutStatus>;
  /** The visitor confirmed through the link. */
  optOutByLink(token: string, ip: string | null): Promise<OptOutStatus>;
  /** Staff record a phone request (or any channel). */
  recordOptOut(leadId: string, channel: OptOutChannel, actor: string, ip: string | null): Promise<LeadRecord | null>;
  recordAttempt(leadId: string, attempt: { channel: ContactChannel; outcome: ContactOutcome; note: string | null }, staffEmail: string, ip: string | null): Promise<LeadRecord | null>;
  /** Gives the lead to `staffId` (chosen on the lead page) and queues their notice; null: no such lead; 'no-staff': no such active account. */
  assign(leadId: string, staffId: string, actor: string, ip: string | null): Promise<LeadRecord | null | 'no-staff'>;
  /** Time to first contact of the leads received in this week (0) or the one before (1). */
  firstContact(leads: readonly LeadRecord[], week: 0 | 1): FirstContactFigures;
  /** Whether a lead still waits for its first contact attempt (real, open, no opt-out). */
  isWaiting(lead: LeadRecord): boolean;
  /** Whether the lead was received in this week (0) or the one before (1), in the office's time zone. */
  inWeek(lead: LeadRecord, week: 0 | 1): boolean;
}

export interface LeadFollowUpOptions {
  store: Pick<Store, 'leads' | 'staff' | 'audit' | 'outbox'>;
  config: SiteConfig;
  delivery: LeadDeliverySettings;
  now: () => Date;
  /** A notification was queued (the outbox looks again). */
  onQueued?: () => void;
}

function percentile(sorted: number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  // Nearest rank: the smallest value with at least `fraction` of the values at or below it.
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function leadFollowUp(options: LeadFollowUpOptions): LeadFollowUp {
  const { store, config, now } = options;
  const settings = options.delivery.followUp ?? DEFAULT_FOLLOW_UP;

  const audit = (action: AuditAction, actor: string, target: string, detail: Record<string, string | number | boolean | null>, ip: string | null) =>
    store.audit.append({ at: now().toISOString(), actor, action, target, detail, ip });

  const signer = linkSigner(() => store.audit.pseudonymKey(), 32);

  /** The lead a token names when its signature is good. */
  const leadOfToken = async (token: string): Promise<LeadRecord | null> => {
    const match = TOKEN.exec(token.trim());
    if (!match?.[1] || !match[2]) return null;
    if (!(await signer.verify(OPT_OUT_PURPOSE, match[1], match[2]))) return null;
    return store.leads.get(match[1]);
  };

  const optOut = async (leadId: string, channel: OptOutChannel, actor: string, ip: string | null): Promise<LeadRecord | null> => {
    const at = now().toISOString();
    let first = false;
    const changed = await store.leads.update(leadId, (lead) => {
      first = !lead.optOut;
      return lead.optOut ? lead : { ...lead, optOut: { at, channel, by: actor }, updatedAt: at };
    });
    if (!changed) return null;
    if (changed.email) await store.leads.addOptOut({ address: changed.email, leadId, at, channel });
    if (first) await audit('lead.opted_out', actor, leadId, { channel }, ip);
    return changed;
  };

  const isWaiting = (lead: LeadRecord) => lead.spam === null && lead.status !== 'closed' && !lead.optOut && (lead.contactAttempts ?? []).length === 0;

  const weekBounds = (week: 0 | 1) => {
    const at = now();
    return { from: weekStart(at, settings.officeHours, week).toISOString(), to: week === 0 ? '9999' : weekStart(at, settings.officeHours, 0).toISOString() };
  };
  const inWeek = (lead: LeadRecord, week: 0 | 1) => {
    const { from, to } = weekBounds(week);
    return lead.createdAt >= from && lead.createdAt < to;
  };

  /**
   * A new assignee's notice, a record of its own (`<lead>.assignee.<when>`): a notice to the one before,
   * still being sent, then neither overwrites it nor marks it sent. The earlier assignees' notices that
   * have not gone out yet are withdrawn (one being sent goes out to its own assignee).
   */
  const queueAssigneeNotice = async (lead: LeadRecord, assignedAt: Date) => {
    const id = `${lead.id}.assignee.${assignedAt.getTime().toString(36)}`;
    for (const earlier of await store.outbox.forLead(lead.id)) {
      if (earlier.channel === 'assignee' && earlier.sentAt === null && earlier.id !== id) await store.outbox.remove(earlier.id);
    }
    await store.outbox.save({ id, leadId: lead.id, channel: 'assignee', createdAt: now().toISOString(), attempts: 0, nextAttemptAt: assignedAt.toISOString(), lastError: null, sentAt: null });
    options.onQueued?.();
  };

  const self: LeadFollowUp = {
    settings,

    async nextAssignee(at) {
      const takers = (await store.staff.list()).filter((staff) => staff.disabledAt === null && staff.takesLeads !== false);
      if (takers.length === 0) return null;
      const turn = await store.leads.nextTurn();
      const chosen = takers[(turn - 1) % takers.length];
      return chosen ? { staffId: chosen.id, name: chosen.name, email: chosen.email, at: at.toISOString(), by: 'round-robin' } : null;
    },

    dueAt: (createdAt) => addOfficeMinutes(new Date(createdAt), settings.firstContactMinutes, settings.officeHours),

    async messageFor(record, lead) {
      if (record.channel === 'acknowledgement') {
        if (!lead.email) return { skip: 'the visitor gave no e-mail address' };
        if (lead.optOut || (await store.leads.isOptedOut(lead.email))) return { skip: 'the visitor asked not to be contacted' };
        return { send: acknowledgementEmail(lead, config, settings.firstContactMinutes, await self.stopLink(lead.id)) };
      }
      if (record.channel === 'assignee') {
        if (!lead.assignee) return { skip: 'the lead is assigned to nobody' };
        // Queued for an assignment the lead has had since: the new assignee's own notice goes instead.
        if (record.createdAt < lead.assignee.at) return { skip: 'it was reassigned since, and the new assignee gets a notice of their own' };
        return { send: assigneeEmail(lead, config, isWaiting(lead) ? self.dueAt(lead.createdAt).toISOString() : null) };
      }
      if (record.channel === 'escalation') {
        if (lead.escalatedAt) return { skip: 'it was escalated before' };
        if ((lead.contactAttempts ?? []).length > 0) return { skip: 'a contact attempt was recorded in time' };
        if (lead.status === 'closed' || lead.optOut) return { skip: 'the lead is closed or the visitor asked not to be contacted' };
        const to = settings.escalateTo.length > 0 ? settings.escalateTo : (options.delivery.email?.to ?? []);
        if (to.length === 0) return { skip: 'nobody to escalate to (set LEAD_ESCALATE_TO or LEAD_NOTIFY_TO)' };
        return { send: escalationEmail(lead, config, to, settings.firstContactMinutes) };
      }
      return { skip: `the ${record.channel} channel is not a follow-up` };
    },

    async escalated(lead, at) {
      const iso = at.toISOString();
      await store.leads.update(lead.id, (current) => ({ ...current, escalatedAt: current.escalatedAt ?? iso }));
      await audit('lead.escalated', 'scheduler', lead.id, { minutes: settings.firstContactMinutes }, null);
    },

    async stopLink(leadId) {
      return `${config.siteUrl}/stop-contacting-me?t=${leadId}.${await signer.sign(OPT_OUT_PURPOSE, leadId)}`;
    },

    async optOutStatus(token) {
      const lead = await leadOfToken(token);
      return lead ? { kind: 'valid', alreadyAt: lead.optOut?.at ?? null } : { kind: 'invalid' };
    },

    async optOutByLink(token, ip) {
      const lead = await leadOfToken(token);
      if (!lead) return { kind: 'invalid' };
      const changed = await optOut(lead.id, 'email-link', 'visitor', ip);
      return changed ? { kind: 'valid', alreadyAt: changed.optOut?.at ?? null } : { kind: 'invalid' };
    },

    recordOptOut: (leadId, channel, actor, ip) => optOut(leadId, channel, actor, ip),

    async recordAttempt(leadId, attempt, staffEmail, ip) {
      const at = now().toISOString();
      const entry: ContactAttempt = { at, by: staffEmail, channel: attempt.channel, outcome: attempt.outcome, note: attempt.note };
      const changed = await store.leads.update(leadId, (lead) => ({
        ...lead,
        contactAttempts: [...(lead.contactAttempts ?? []), entry],
        status: lead.status === 'new' ? 'in-progress' : lead.status,
        updatedAt: at,
      }));
      if (!changed) return null;
      // The escalation is no longer needed; one already sent stays as the record it is.
      const pending = (await store.outbox.forLead(leadId)).find((record) => record.channel === 'escalation' && record.sentAt === null);
      if (pending) await store.outbox.remove(pending.id);
      await audit('lead.contact_attempted', `staff:${staffEmail}`, leadId, { channel: attempt.channel, outcome: attempt.outcome }, ip);
      return changed;
    },

    async assign(leadId, staffId, actor, ip) {
      const staff = await store.staff.findById(staffId);
      if (!staff || staff.disabledAt !== null) return 'no-staff';
      const at = now();
      const assignee: LeadAssignee = { staffId: staff.id, name: staff.name, email: staff.email, at: at.toISOString(), by: actor };
      const changed = await store.leads.update(leadId, (lead) => ({ ...lead, assignee, updatedAt: at.toISOString() }));
      if (!changed) return null;
      await audit('lead.assigned', actor, leadId, { to: staff.email }, ip);
      if (options.delivery.email && changed.spam === null) await queueAssigneeNotice(changed, at);
      return changed;
    },

    firstContact(leads, week) {
      const minutes: number[] = [];
      for (const lead of leads) {
        const first = lead.contactAttempts?.[0];
        if (!first || !inWeek(lead, week)) continue;
        minutes.push(officeMsBetween(new Date(lead.createdAt), new Date(first.at), settings.officeHours) / 60_000);
      }
      minutes.sort((a, b) => a - b);
      return { contacted: minutes.length, medianMinutes: percentile(minutes, 0.5), p90Minutes: percentile(minutes, 0.9) };
    },

    isWaiting,
    inWeek,
  };
  return self;
}

export function isLeadId(id: string): boolean {
  return LEAD_ID.test(id);
}
