/**
 * Where quote requests ("leads") are sent besides the data directory, read from the environment once at
 * start-up: e-mail through SMTP (SMTP_URL, LEAD_NOTIFY_TO, LEAD_MAIL_FROM) and a signed webhook
 * (LEAD_WEBHOOK_URL, LEAD_WEBHOOK_SECRET). Anything half set or wrong stops the start with a message that
 * names the variable and the fix; no message or banner ever shows the SMTP password or the webhook secret.
 */
import { z } from 'zod';
import { SiteConfigError } from '../../contract/site-config-env';
import type { SiteConfig } from '../../contract/site-config';
import { type LeadFollowUpSettings, readLeadFollowUpSettings } from './follow-up-settings';

export interface LeadDeliverySettings {
  email: { smtpUrl: string; to: string[]; from: string } | null;
  webhook: { url: string; secret: string } | null;
  /** Speed to lead (follow-up-settings.ts): the first-contact deadline, office hours, who gets escalations; default DEFAULT_FOLLOW_UP. */
  followUp?: LeadFollowUpSettings;
}

export const WEBHOOK_SECRET_MIN_LENGTH = 32;

const EMAIL = z.email();
const EXAMPLE_SMTP_URL = 'smtp://user:password@smtp.example.com:587 (or smtps://... for port 465)';

/** The variable's value, trimmed; empty counts as not set. */
function read(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** The address inside `"Name" <address>` or `Name <address>`, or the whole value. */
function mailboxAddress(value: string): string {
  const angled = /<([^<>]*)>\s*$/.exec(value);
  return (angled?.[1] ?? value).trim();
}

function quotedName(name: string): string {
  return `"${name.replace(/[\\"]/g, (char) => `\\${char}`)}"`;
}

/** `"<agency> website" <no-reply@<site host>>`: a sender the agency's own domain can vouch for. */
export function defaultMailFrom(config: SiteConfig): string {
  const host = parseUrl(config.siteUrl)?.hostname || 'localhost';
  return `${quotedName(`${config.agencyName} website`)} <no-reply@${host}>`;
}

function checkSmtpUrl(value: string, problems: string[]): void {
  const url = parseUrl(value);
  if (!url || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')) {
    problems.push(`SMTP_URL is not an smtp:// or smtps:// address: set it like ${EXAMPLE_SMTP_URL}.`);
  } else if (!url.hostname) {
    problems.push(`SMTP_URL has no host name: set it like ${EXAMPLE_SMTP_URL}.`);
  }
}

function parseRecipients(value: string, problems: string[]): string[] {
  const to = value
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const wrong = to.filter((address) => !EMAIL.safeParse(address).success);
  if (to.length === 0) problems.push('LEAD_NOTIFY_TO holds no address: set it to one or more e-mail addresses, separated by commas.');
  if (wrong.length > 0) {
    problems.push(
      `LEAD_NOTIFY_TO has ${wrong.map((address) => `"${address}"`).join(', ')}, which is not an e-mail address: ` +
        'set it to addresses like agent@example.com, separated by commas.',
    );
  }
  return to;
}

function readEmail(env: NodeJS.ProcessEnv, config: SiteConfig, problems: string[]): LeadDeliverySettings['email'] {
  const smtpUrl = read(env, 'SMTP_URL');
  const notifyTo = read(env, 'LEAD_NOTIFY_TO');
  const from = read(env, 'LEAD_MAIL_FROM');
  if (!smtpUrl && !notifyTo) {
    if (from) problems.push('LEAD_MAIL_FROM is set but SMTP_URL and LEAD_NOTIFY_TO are not: set both to e-mail quote requests, or unset LEAD_MAIL_FROM.');
    return null;
  }
  if (smtpUrl && !notifyTo) {
    problems.push('SMTP_URL is set but LEAD_NOTIFY_TO is not: set LEAD_NOTIFY_TO to the address(es) that should receive quote requests.');
  }
  if (!smtpUrl && notifyTo) {
    problems.push(`LEAD_NOTIFY_TO is set but SMTP_URL is not: set SMTP_URL to the mail server that sends them, like ${EXAMPLE_SMTP_URL}.`);
  }
  if (smtpUrl) checkSmtpUrl(smtpUrl, problems);
  const to = notifyTo ? parseRecipients(notifyTo, problems) : [];
  if (from && !EMAIL.safeParse(mailboxAddress(from)).success) {
    problems.push('LEAD_MAIL_FROM is not a sender address: set it like "Agency website" <no-reply@example.com>, or unset it for the default.');
  }
  return smtpUrl && notifyTo ? { smtpUrl, to, from: from ?? defaultMailFrom(config) } : null;
}

function readWebhook(env: NodeJS.ProcessEnv, problems: string[]): LeadDeliverySettings['webhook'] {
  const url = read(env, 'LEAD_WEBHOOK_URL');
  const secret = read(env, 'LEAD_WEBHOOK_SECRET');
  if (!url && !secret) return null;
  if (!url) {
    problems.push('LEAD_WEBHOOK_SECRET is set but LEAD_WEBHOOK_URL is not: set LEAD_WEBHOOK_URL to the https:// address that receives quote requests, or unset the secret.');
    return null;
  }
  const parsed = parseUrl(url);
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || !parsed.hostname) {
    problems.push('LEAD_WEBHOOK_URL is not an http:// or https:// address: set it like https://hooks.example.com/quote-requests.');
  }
  if (!secret) {
    problems.push(
      `LEAD_WEBHOOK_URL is set but LEAD_WEBHOOK_SECRET is not: set LEAD_WEBHOOK_SECRET to a random string of at least ${WEBHOOK_SECRET_MIN_LENGTH} ` +
        'characters (for example the output of `openssl rand -hex 32`) and give the same secret to the receiver.',
    );
  } else if (secret.length < WEBHOOK_SECRET_MIN_LENGTH) {
    problems.push(
      `LEAD_WEBHOOK_SECRET is shorter than ${WEBHOOK_SECRET_MIN_LENGTH} characters: set a longer random one ` +
        '(for example the output of `openssl rand -hex 32`) and give the same secret to the receiver.',
    );
  }
  return secret ? { url, secret } : null;
}

/** The notification settings of this start; throws one SiteConfigError listing every problem. */
export function readLeadDeliverySettings(env: NodeJS.ProcessEnv, config: SiteConfig): LeadDeliverySettings {
  const problems: string[] = [];
  const email = readEmail(env, config, problems);
  const webhook = readWebhook(env, problems);
  const followUp = readLeadFollowUpSettings(env, problems);
  if (problems.length === 1) throw new SiteConfigError(problems[0]);
  if (problems.length > 1) throw new SiteConfigError(`Invalid quote request notification settings:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  return { email, webhook, followUp };
}

/** `host:port` of the SMTP server, without the user name or password. */
export function smtpServerLabel(smtpUrl: string): string {
  const url = parseUrl(smtpUrl);
  if (!url) return 'the SMTP server';
  const port = url.port || (url.protocol === 'smtps:' ? '465' : '587');
  return `${url.hostname}:${port}`;
}

/** The webhook's origin, with "/…" when it has a path (which may hold a token), never credentials. */
export function webhookLabel(webhookUrl: string): string {
  const url = parseUrl(webhookUrl);
  if (!url) return 'the webhook';
  return url.pathname === '/' && !url.search ? url.origin : `${url.origin}/…`;
}

/** The start-up line that says where quote requests go. */
export function deliveryBanner(settings: LeadDeliverySettings): string {
  const channels: string[] = [];
  if (settings.email) channels.push(`e-mailed to ${settings.email.to.join(', ')} (SMTP ${smtpServerLabel(settings.email.smtpUrl)})`);
  if (settings.webhook) channels.push(`posted to ${webhookLabel(settings.webhook.url)}`);
  if (channels.length === 0) {
    return (
      'Quote requests: stored only (no notifications): set SMTP_URL and LEAD_NOTIFY_TO to e-mail them, ' +
      'LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET to post them to a webhook.'
    );
  }
  return `Quote requests: stored in the data directory and ${channels.join(' and ')}.`;
}
