/**
 * The e-mail notification of a lead: `leadEmail` writes the message (subject, plain text and an HTML
 * summary of every answer, the consent and how to open the lead in the CLI), and `leadMailer` sends it
 * through the SMTP server of SMTP_URL with nodemailer, Reply-To the visitor, so an agent answers with one
 * click. Every value the visitor typed is HTML-escaped in the HTML part.
 */
import type { Transporter } from 'nodemailer';
import type { ConsentRecord, LeadRecord } from '../../contract/leads';
import { escapeMarkup as escapeHtml } from '../../contract/markup';
import { HEALTH_RATING_LABELS, type ContactMethod } from '../../contract/quote-request';
import type { SiteConfig } from '../../contract/site-config';
import type { LeadDeliverySettings } from './delivery-settings';
import type { FollowUpMessage } from './follow-up-email';

export type EmailSettings = NonNullable<LeadDeliverySettings['email']>;

export interface LeadEmail {
  subject: string;
  text: string;
  html: string;
  /** The visitor's address when given (the Reply-To). */
  replyTo: { name: string; address: string } | null;
}

/** How long (ms) an SMTP server may take before an attempt counts as failed (nodemailer waits minutes by default). */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const;

const NOT_GIVEN = 'not given';

export function formatDollars(amount: number): string {
  return `$${Math.round(amount).toLocaleString('en-US')}`;
}

function contactMethodLabel(method: ContactMethod): string {
  return method === 'email' ? 'e-mail' : 'phone';
}

function tobaccoLabel(tobacco: boolean | null): string {
  return tobacco === null ? NOT_GIVEN : tobacco ? 'yes' : 'no';
}

/** One line on a single line: a name with a line break must not break the subject or a table row. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** The answers in the form's order, as label and text. */
function answerRows(lead: LeadRecord): [string, string][] {
  return [
    ['Name', oneLine(lead.name)],
    ['E-mail', lead.email ?? NOT_GIVEN],
    ['Phone', lead.phone ?? NOT_GIVEN],
    ['Preferred contact', contactMethodLabel(lead.preferredContactMethod)],
    ['Age', String(lead.age)],
    ['Yearly contribution', formatDollars(lead.annualContribution)],
    ['Retirement age', lead.retirementAge === null ? NOT_GIVEN : String(lead.retirementAge)],
    ['Current retirement savings', lead.currentRetirementSavings === null ? NOT_GIVEN : formatDollars(lead.currentRetirementSavings)],
    ['Health', lead.healthRating === null ? NOT_GIVEN : HEALTH_RATING_LABELS[lead.healthRating]],
    ['Tobacco', tobaccoLabel(lead.tobaccoUser)],
  ];
}

/** What the visitor agreed to, in the words an agent acts on. */
export function consentLines(consent: ConsentRecord, preferred: ContactMethod): string[] {
  const lines = consent.given
    ? [`Consent: given (version ${consent.version}): calls and texts about this request may use automated technology.`]
    : [`Consent: not given: contact only by ${contactMethodLabel(consent.contactOnlyBy ?? preferred)}.`];
  if (consent.globalPrivacyControl) lines.push('Global Privacy Control: opted out of marketing (use the details for this request only).');
  return lines;
}

export function leadEmailSubject(lead: LeadRecord): string {
  return `New quote request: ${oneLine(lead.name)}, age ${lead.age}, ${formatDollars(lead.annualContribution)} a year`;
}

function textBody(lead: LeadRecord, config: SiteConfig): string {
  const rows = answerRows(lead);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return [
    `A visitor asked for a quote on ${config.siteUrl}${lead.consent.page} at ${lead.createdAt}.`,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    '',
    'Notes:',
    lead.additionalNotes ?? NOT_GIVEN,
    '',
    ...consentLines(lead.consent, lead.preferredContactMethod),
    '',
    `Lead: ${lead.id}`,
    ...(lead.reference ? [`Reference the visitor was shown: ${lead.reference}`] : []),
    `Open it with: blogpost leads show ${lead.id}`,
    '',
  ].join('\n');
}

function htmlBody(lead: LeadRecord, config: SiteConfig): string {
  const cell = 'style="padding:4px 12px 4px 0;vertical-align:top;text-align:left"';
  const rows = answerRows(lead)
    .map(([label, value]) => `<tr><th ${cell}>${escapeHtml(label)}</th><td ${cell}>${escapeHtml(value)}</td></tr>`)
    .join('\n');
  const notes = lead.additionalNotes === null ? `<p><em>${NOT_GIVEN}</em></p>` : `<p style="white-space:pre-wrap">${escapeHtml(lead.additionalNotes)}</p>`;
  const consent = consentLines(lead.consent, lead.preferredContactMethod)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('\n');
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(leadEmailSubject(lead))}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1a1a1a">',
    `<p>A visitor asked for a quote on ${escapeHtml(`${config.siteUrl}${lead.consent.page}`)} at ${escapeHtml(lead.createdAt)}.</p>`,
    `<table style="border-collapse:collapse">\n${rows}\n</table>`,
    '<h3 style="margin-bottom:4px">Notes</h3>',
    notes,
    consent,
    `<p>Lead: <code>${escapeHtml(lead.id)}</code>${lead.reference ? `<br>Reference the visitor was shown: <code>${escapeHtml(lead.reference)}</code>` : ''}<br>Open it with: <code>blogpost leads show ${escapeHtml(lead.id)}</code></p>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The notification of one lead. */
export function leadEmail(lead: LeadRecord, config: SiteConfig): LeadEmail {
  return {
    subject: leadEmailSubject(lead),
    text: textBody(lead, config),
    html: htmlBody(lead, config),
    replyTo: lead.email ? { name: oneLine(lead.name), address: lead.email } : null,
  };
}

export interface LeadMailer {
  /** Sends one lead's notification; rejects with nodemailer's error when the server does not take it. */
  send(lead: LeadRecord, deliveryId: string): Promise<void>;
  /** Sends a follow-up e-mail (follow-up-email.ts) of one lead. */
  sendMessage(message: FollowUpMessage, deliveryId: string, leadId: string): Promise<void>;
  /** Releases the transport. */
  close(): void;
}

/** The domain of the sender, for Message-IDs (a resend keeps its id, so mail clients show it once). */
function senderDomain(from: string): string {
  return /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/**
 * A mailer over one nodemailer transport, made at the first e-mail (nodemailer is 650 kB of code a
 * start would otherwise compile: decision 0014) and closed by `close`.
 */
export function leadMailer(settings: EmailSettings, config: SiteConfig): LeadMailer {
  let transport: Promise<Transporter> | undefined;
  const open = () => (transport ??= import('nodemailer').then(({ createTransport }) => createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS })));
  return {
    async send(lead, deliveryId) {
      const message = leadEmail(lead, config);
      await (await open()).sendMail({
        from: settings.from,
        to: settings.to,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${deliveryId}@${senderDomain(settings.from)}>`,
        headers: { 'X-Lead-Id': lead.id },
      });
    },
    async sendMessage(message, deliveryId, leadId) {
      await (await open()).sendMail({
        from: settings.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: `<${deliveryId}@${senderDomain(settings.from)}>`,
        headers: { 'X-Lead-Id': leadId },
      });
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}
