/**
 * The e-mails of speed to lead, beside the agency's notice (lead-email.ts): the visitor's
 * acknowledgement (what happens next and when, the agency's phone, the reference, a "stop contacting
 * me" link), the assignee's notice and the escalation when nobody made contact in time. The staff
 * e-mails carry no more of the visitor's details than the agency's notice (less: the reference, how
 * they prefer to be reached and where to open the lead). The visitor's copy is informational and
 * promises nothing it cannot keep (SPEC.md; docs/compliance.md): "we aim to", not "we guarantee".
 */
import type { LeadRecord } from '../../contract/leads';
import { escapeMarkup as escapeHtml } from '../../contract/markup';
import type { SiteConfig } from '../../contract/site-config';

export interface FollowUpMessage {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function html(title: string, paragraphs: string[]): string {
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a">',
    ...paragraphs.map((paragraph) => `<p>${paragraph}</p>`),
    '</body></html>',
    '',
  ].join('\n');
}

function leadLink(lead: LeadRecord, config: SiteConfig): string {
  return `${config.siteUrl}/admin/leads/${lead.id}`;
}

function minutesText(minutes: number): string {
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** The visitor's acknowledgement; `stopLink` opens the page where they confirm "stop contacting me". */
export function acknowledgementEmail(lead: LeadRecord, config: SiteConfig, firstContactMinutes: number, stopLink: string): FollowUpMessage {
  const reference = lead.reference ?? lead.id;
  const how = lead.preferredContactMethod === 'email' ? 'by e-mail' : 'by phone';
  const subject = `We received your quote request (reference ${reference})`;
  const lines = [
    `Hello ${oneLine(lead.name)},`,
    `Thank you for asking ${config.agencyName} for a free illustration. We received your request; its reference is ${reference}.`,
    `What happens next: a licensed agent reads your answers and contacts you ${how} within one business day, as you asked. During office hours (${config.officeHours}) we aim to reach you within ${minutesText(firstContactMinutes)}; a request sent in the evening or at the weekend is answered on the next business day.`,
    `If you would rather talk now, call ${config.phoneDisplay} and give your reference.`,
    'This e-mail only confirms that your request arrived. It is not an offer of insurance, and any illustration you receive is hypothetical, not a promise of future results.',
  ];
  const stop = `Do not want to hear from us? Stop contacting me: ${stopLink}`;
  return {
    to: lead.email ? [lead.email] : [],
    subject,
    text: [...lines, stop, `${config.agencyName} · ${config.phoneDisplay} · ${config.siteUrl}`, ''].join('\n\n'),
    html: html(subject, [
      ...lines.map(escapeHtml),
      `Do not want to hear from us? <a href="${escapeHtml(stopLink)}">Stop contacting me</a> (a page where you confirm it).`,
      escapeHtml(`${config.agencyName} · ${config.phoneDisplay} · ${config.siteUrl}`),
    ]),
  };
}

/** The assignee's notice: a lead is theirs, and by when the first contact is due. */
export function assigneeEmail(lead: LeadRecord, config: SiteConfig, dueAt: string | null): FollowUpMessage {
  const assignee = lead.assignee;
  const subject = `A quote request is yours: ${lead.reference ?? lead.id}`;
  const lines = [
    `${assignee ? oneLine(assignee.name) : 'Hello'}, the quote request ${lead.reference ?? lead.id} (received ${lead.createdAt}) is assigned to you${assignee?.by === 'round-robin' ? ' in turn' : ''}.`,
    `The visitor prefers to be contacted by ${lead.preferredContactMethod === 'email' ? 'e-mail' : 'phone'}.${dueAt ? ` The first contact is due by ${dueAt} (office hours).` : ''}`,
    `Open it, and record each contact attempt there: ${leadLink(lead, config)}`,
  ];
  return { to: assignee ? [assignee.email] : [], subject, text: [...lines, ''].join('\n\n'), html: html(subject, lines.map(escapeHtml)) };
}

/** The escalation: nobody recorded a contact attempt in time. */
export function escalationEmail(lead: LeadRecord, config: SiteConfig, to: string[], firstContactMinutes: number): FollowUpMessage {
  const subject = `Not contacted in ${minutesText(firstContactMinutes)}: quote request ${lead.reference ?? lead.id}`;
  const lines = [
    `The quote request ${lead.reference ?? lead.id} arrived at ${lead.createdAt} and has no contact attempt after ${minutesText(firstContactMinutes)} of office hours.`,
    `Assigned to: ${lead.assignee ? `${oneLine(lead.assignee.name)} <${lead.assignee.email}>` : 'nobody'}. The visitor prefers ${lead.preferredContactMethod === 'email' ? 'e-mail' : 'phone'}.`,
    `Please make sure someone calls now, and records the attempt: ${leadLink(lead, config)}`,
  ];
  return { to, subject, text: [...lines, ''].join('\n\n'), html: html(subject, lines.map(escapeHtml)) };
}
