/**
 * The notification settings an operator sets: each working combination, every wrong or half-set one
 * refused with a message that names the variable and the fix (never the password or the secret), and
 * the start-up banner.
 */
import { DEFAULT_FOLLOW_UP } from './follow-up-settings';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { SiteConfigError } from '../../contract/site-config-env';
import { deliveryBanner, readLeadDeliverySettings, type LeadDeliverySettings } from './delivery-settings';

const SECRET = 'k'.repeat(40);
const config = { ...DEFAULT_SITE_CONFIG, siteUrl: 'https://www.hartwell.example', agencyName: 'Hartwell Family Insurance' };

function problem(env: NodeJS.ProcessEnv): string {
  try {
    readLeadDeliverySettings(env, config);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteConfigError);
    return (error as SiteConfigError).message;
  }
  throw new Error(`expected the settings ${JSON.stringify(Object.keys(env))} to be refused`);
}

describe('readLeadDeliverySettings', () => {
  it('configures nothing when no variable is set (empty values count as unset)', () => {
    expect(readLeadDeliverySettings({}, config)).toEqual({ email: null, webhook: null, followUp: DEFAULT_FOLLOW_UP });
    expect(readLeadDeliverySettings({ SMTP_URL: '  ', LEAD_WEBHOOK_URL: '' }, config)).toEqual({ email: null, webhook: null, followUp: DEFAULT_FOLLOW_UP });
  });

  it('reads e-mail with a default sender on the site domain, and several recipients', () => {
    const settings = readLeadDeliverySettings({ SMTP_URL: 'smtp://user:pw@smtp.example.com:587', LEAD_NOTIFY_TO: 'a@example.com, b@example.com ,' }, config);
    expect(settings.email).toEqual({
      smtpUrl: 'smtp://user:pw@smtp.example.com:587',
      to: ['a@example.com', 'b@example.com'],
      from: '"Hartwell Family Insurance website" <no-reply@www.hartwell.example>',
    });
    expect(settings.webhook).toBeNull();
  });

  it('keeps LEAD_MAIL_FROM when it is a sender address', () => {
    const env = { SMTP_URL: 'smtps://smtp.example.com', LEAD_NOTIFY_TO: 'a@example.com', LEAD_MAIL_FROM: '"Quotes" <quotes@example.com>' };
    expect(readLeadDeliverySettings(env, config).email?.from).toBe('"Quotes" <quotes@example.com>');
  });

  it('reads the webhook', () => {
    const settings = readLeadDeliverySettings({ LEAD_WEBHOOK_URL: 'https://hooks.example.com/leads', LEAD_WEBHOOK_SECRET: SECRET }, config);
    expect(settings).toEqual({ email: null, webhook: { url: 'https://hooks.example.com/leads', secret: SECRET }, followUp: DEFAULT_FOLLOW_UP });
  });

  it.each([
    [{ SMTP_URL: 'smtp://smtp.example.com' }, 'SMTP_URL is set but LEAD_NOTIFY_TO is not: set LEAD_NOTIFY_TO'],
    [{ LEAD_NOTIFY_TO: 'a@example.com' }, 'LEAD_NOTIFY_TO is set but SMTP_URL is not: set SMTP_URL'],
    [{ LEAD_MAIL_FROM: 'x@example.com' }, 'LEAD_MAIL_FROM is set but SMTP_URL and LEAD_NOTIFY_TO are not'],
    [{ SMTP_URL: 'http://smtp.example.com', LEAD_NOTIFY_TO: 'a@example.com' }, 'SMTP_URL is not an smtp:// or smtps:// address'],
    [{ SMTP_URL: 'smtp.example.com:587', LEAD_NOTIFY_TO: 'a@example.com' }, 'SMTP_URL is not an smtp:// or smtps:// address'],
    [{ SMTP_URL: 'smtp://smtp.example.com', LEAD_NOTIFY_TO: 'a@example.com, agents' }, 'LEAD_NOTIFY_TO has "agents", which is not an e-mail address'],
    [{ SMTP_URL: 'smtp://smtp.example.com', LEAD_NOTIFY_TO: ' , ' }, 'LEAD_NOTIFY_TO holds no address'],
    [{ SMTP_URL: 'smtp://smtp.example.com', LEAD_NOTIFY_TO: 'a@example.com', LEAD_MAIL_FROM: 'Quotes desk' }, 'LEAD_MAIL_FROM is not a sender address'],
    [{ LEAD_WEBHOOK_URL: 'https://hooks.example.com/x' }, 'LEAD_WEBHOOK_URL is set but LEAD_WEBHOOK_SECRET is not: set LEAD_WEBHOOK_SECRET'],
    [{ LEAD_WEBHOOK_SECRET: SECRET }, 'LEAD_WEBHOOK_SECRET is set but LEAD_WEBHOOK_URL is not: set LEAD_WEBHOOK_URL'],
    [{ LEAD_WEBHOOK_URL: 'https://hooks.example.com/x', LEAD_WEBHOOK_SECRET: 'short-secret' }, 'LEAD_WEBHOOK_SECRET is shorter than 32 characters'],
    [{ LEAD_WEBHOOK_URL: 'ftp://hooks.example.com/x', LEAD_WEBHOOK_SECRET: SECRET }, 'LEAD_WEBHOOK_URL is not an http:// or https:// address'],
    [{ LEAD_WEBHOOK_URL: 'hooks.example.com', LEAD_WEBHOOK_SECRET: SECRET }, 'LEAD_WEBHOOK_URL is not an http:// or https:// address'],
  ])('refuses %j with a message naming the variable and the fix', (env, expected) => {
    expect(problem(env)).toContain(expected);
  });

  it('lists every problem at once', () => {
    const message = problem({ SMTP_URL: 'smtp://smtp.example.com', LEAD_WEBHOOK_SECRET: SECRET });
    expect(message).toContain('LEAD_NOTIFY_TO is not');
    expect(message).toContain('LEAD_WEBHOOK_URL is not');
  });

  it('never puts the SMTP password or the webhook secret into a message', () => {
    const secret = 'short-but-secret-value';
    const messages = [
      problem({ SMTP_URL: 'smtp://agent:hunter2pass@smtp.example.com', LEAD_NOTIFY_TO: 'nobody' }),
      problem({ SMTP_URL: 'ftp://agent:hunter2pass@smtp.example.com', LEAD_NOTIFY_TO: 'a@example.com' }),
      problem({ LEAD_WEBHOOK_URL: 'https://hooks.example.com/x', LEAD_WEBHOOK_SECRET: secret }),
    ];
    for (const message of messages) {
      expect(message).not.toContain('hunter2pass');
      expect(message).not.toContain(secret);
    }
  });
});

describe('deliveryBanner', () => {
  const email = { smtpUrl: 'smtp://agent:hunter2pass@smtp.example.com:587', to: ['a@b.c'], from: 'x@example.com' };
  const webhook = { url: 'https://hooks.example.com/catch/123/token', secret: SECRET };

  it('says where quote requests go', () => {
    const both: LeadDeliverySettings = { email, webhook };
    expect(deliveryBanner(both)).toBe(
      'Quote requests: stored in the data directory and e-mailed to a@b.c (SMTP smtp.example.com:587) and posted to https://hooks.example.com/….',
    );
    expect(deliveryBanner({ email: null, webhook })).toBe('Quote requests: stored in the data directory and posted to https://hooks.example.com/….');
    expect(deliveryBanner({ email: { ...email, smtpUrl: 'smtps://mail.example.com' }, webhook: null })).toContain('(SMTP mail.example.com:465)');
  });

  it('says how to turn notifications on when none is configured', () => {
    expect(deliveryBanner({ email: null, webhook: null })).toBe(
      'Quote requests: stored only (no notifications): set SMTP_URL and LEAD_NOTIFY_TO to e-mail them, ' +
        'LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET to post them to a webhook.',
    );
  });

  it('never prints credentials from the SMTP URL, the webhook secret or a token in its path', () => {
    const banner = deliveryBanner({ email, webhook: { url: 'https://user:pw@hooks.example.com/hook/s3cr3tToken', secret: SECRET } });
    for (const hidden of ['agent', 'hunter2pass', SECRET, 's3cr3tToken', 'user:pw']) expect(banner).not.toContain(hidden);
  });
});
