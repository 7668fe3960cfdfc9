/** How the staff pages write a lead's facts: times, money, the way to reach the visitor, notifications. */
import type { DeliveryChannel, DeliveryRecord, LeadRecord } from '../../../contract/leads';

/** "Nov 25, 2026, 10:41 PM UTC": staff may be anywhere, so the zone is said. */
export function when(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

export function dollars(amount: number | null): string {
  return amount === null ? 'not given' : `$${amount.toLocaleString('en-US')}`;
}

/** "phone (512) 555-0199": the preferred way and its value. */
export function contactLine(lead: LeadRecord): string {
  return `${lead.preferredContactMethod} ${(lead.preferredContactMethod === 'email' ? lead.email : lead.phone) ?? '(missing)'}`;
}

const CHANNEL_LABELS: Record<DeliveryChannel, string> = {
  email: 'e-mail to the agency',
  webhook: 'webhook',
  acknowledgement: "visitor's acknowledgement e-mail",
  assignee: "assignee's notice",
  escalation: 'escalation if not contacted in time',
};

export function notificationLine(delivery: DeliveryRecord): string {
  const channel = CHANNEL_LABELS[delivery.channel];
  if (delivery.sentAt) return `${channel}: sent ${when(delivery.sentAt)}`;
  if (delivery.channel === 'escalation' && delivery.attempts === 0 && delivery.nextAttemptAt) return `${channel}: due ${when(delivery.nextAttemptAt)}`;
  const next = delivery.nextAttemptAt ? `, next try ${when(delivery.nextAttemptAt)}` : '';
  return `${channel}: waiting (${delivery.attempts} ${delivery.attempts === 1 ? 'try' : 'tries'}${delivery.lastError ? `, last error: ${delivery.lastError}` : ''}${next})`;
}
