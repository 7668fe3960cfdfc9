/**
 * The e-mail an agent gets for a lead: every answer in words (money, health, tobacco, contact), the
 * consent, the lead id and the CLI command, the visitor's details escaped in HTML; and the message as a
 * real SMTP server receives it (text and HTML parts, Reply-To the visitor, the recipients and sender).
 */
import type { ParsedMail } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { startSmtpServer, type TestSmtpServer } from '../../tests/support/smtp';
import { leadRecord } from '../../tests/support/store-contract';
import { leadEmail, leadMailer } from './lead-email';

const config = { ...DEFAULT_SITE_CONFIG, siteUrl: 'https://www.hartwell.example' };

/** A lead with the answers the summary checks below spell out. */
function testLead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return leadRecord('lead_Mail0000000000000001', {
    name: 'Jane Doe',
    phone: '(512) 555-0142',
    retirementAge: 65,
    healthRating: 'below-average',
    additionalNotes: 'Call after 5 pm, please.\nSecond line & more.',
    ...overrides,
  });
}

const smtpServers: TestSmtpServer[] = [];
afterEach(async () => {
  await Promise.all(smtpServers.splice(0).map((server) => server.close()));
});

async function smtpServer(): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer();
  smtpServers.push(smtp);
  return smtp;
}

describe('leadEmail', () => {
  it('has a subject with the name, age and yearly amount', () => {
    expect(leadEmail(testLead(), config).subject).toBe('New quote request: Jane Doe, age 45, $12,000 a year');
    expect(leadEmail(testLead({ name: 'Jane\nDoe', annualContribution: 1_250_000 }), config).subject).toBe(
      'New quote request: Jane Doe, age 45, $1,250,000 a year',
    );
  });

  it('summarises every answer in words, with the lead id and the CLI command', () => {
    const { text } = leadEmail(testLead(), config);
    expect(text).toMatch(/Name:\s+Jane Doe/);
    expect(text).toMatch(/E-mail:\s+jane@example\.com/);
    expect(text).toMatch(/Phone:\s+\(512\) 555-0142/);
    expect(text).toMatch(/Preferred contact:\s+phone/);
    expect(text).toMatch(/Age:\s+45/);
    expect(text).toMatch(/Yearly contribution:\s+\$12,000/);
    expect(text).toMatch(/Retirement age:\s+65/);
    expect(text).toMatch(/Current retirement savings:\s+\$250,000/);
    expect(text).toMatch(/Health:\s+Below average/);
    expect(text).toMatch(/Tobacco:\s+no/);
    expect(text).toContain('Call after 5 pm, please.\nSecond line & more.');
    expect(text).toContain('Consent: given');
    expect(text).toContain('https://www.hartwell.example/get-quote');
    expect(text).toContain('Lead: lead_Mail0000000000000001');
    expect(text).toContain('blogpost leads show lead_Mail0000000000000001');
  });

  it('says "not given" for empty answers and "yes" for tobacco', () => {
    const { text } = leadEmail(
      testLead({ email: null, retirementAge: null, currentRetirementSavings: null, healthRating: null, tobaccoUser: null, additionalNotes: null }),
      config,
    );
    for (const label of ['E-mail', 'Retirement age', 'Current retirement savings', 'Health', 'Tobacco']) expect(text).toMatch(new RegExp(`${label}:\\s+not given`));
    expect(leadEmail(testLead({ tobaccoUser: true }), config).text).toMatch(/Tobacco:\s+yes/);
  });

  it('says how the visitor may be contacted without consent, and a Global Privacy Control opt-out', () => {
    const lead = testLead({ preferredContactMethod: 'email', consent: { ...testLead().consent, given: false, contactOnlyBy: 'email', globalPrivacyControl: true } });
    const { text, html } = leadEmail(lead, config);
    expect(text).toContain('Consent: not given: contact only by e-mail.');
    expect(text).toContain('Global Privacy Control: opted out of marketing');
    expect(html).toContain('contact only by e-mail');
    expect(html).toContain('Global Privacy Control: opted out of marketing');
  });

  it('escapes every value the visitor typed in the HTML part', () => {
    const lead = testLead({ name: '<script>alert("x")</script>', additionalNotes: '<img src=x onerror=alert(1)> & "quotes"' });
    const { html, text } = leadEmail(lead, config);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    expect(text).toContain('<script>alert("x")</script>');
  });
});

describe('leadMailer', () => {
  it('sends a text and an HTML part to every recipient, Reply-To the visitor', async () => {
    const smtp = await smtpServer();
    const mailer = leadMailer({ smtpUrl: smtp.url, to: ['agent@example.com', 'boss@example.com'], from: '"Hartwell website" <no-reply@hartwell.example>' }, config);
    try {
      await mailer.send(testLead({ name: 'Jane <script>Doe</script>' }), 'lead_Mail0000000000000001.email');
    } finally {
      mailer.close();
    }
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0] as ParsedMail;
    expect(mail.subject).toBe('New quote request: Jane <script>Doe</script>, age 45, $12,000 a year');
    expect(mail.from?.value).toEqual([{ name: 'Hartwell website', address: 'no-reply@hartwell.example' }]);
    const to = Array.isArray(mail.to) ? mail.to.flatMap((list) => list.value) : (mail.to?.value ?? []);
    expect(to.map((address) => address.address)).toEqual(['agent@example.com', 'boss@example.com']);
    expect(mail.replyTo?.value).toEqual([{ name: 'Jane <script>Doe</script>', address: 'jane@example.com' }]);
    expect(mail.text).toContain('Yearly contribution:');
    expect(mail.html).toContain('Jane &lt;script&gt;Doe&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.messageId).toBe('<lead_Mail0000000000000001.email@hartwell.example>');
    expect(mail.headers.get('x-lead-id')).toBe('lead_Mail0000000000000001');
  });

  it('sends no Reply-To when the visitor gave no e-mail address', async () => {
    const smtp = await smtpServer();
    const mailer = leadMailer({ smtpUrl: smtp.url, to: ['agent@example.com'], from: 'no-reply@hartwell.example' }, config);
    try {
      await mailer.send(testLead({ email: null }), 'lead_Mail0000000000000001.email');
    } finally {
      mailer.close();
    }
    expect(smtp.received[0]?.replyTo).toBeUndefined();
  });
});
