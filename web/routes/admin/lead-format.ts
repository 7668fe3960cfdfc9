/** How the staff pages write a lead's facts: times, money, the way to reach the visitor, notifications. */
import type { DeliveryRecord, LeadRecord } from '../../../contract/leads';

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

export function notificationLine(delivery: DeliveryRecord): string {
  if (delivery.sentAt) return `${delivery.channel}: sent ${when(delivery.sentAt)}`;
  const next = delivery.nextAttemptAt ? `, next try ${when(delivery.nextAttemptAt)}` : '';
  return `${delivery.channel}: waiting (${delivery.attempts} ${delivery.attempts === 1 ? 'try' : 'tries'}${delivery.lastError ? `, last error: ${delivery.lastError}` : ''}${next})`;
}
