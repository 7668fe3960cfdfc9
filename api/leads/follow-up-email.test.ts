/**
 * The follow-up e-mails' words: the visitor's acknowledgement says what happens next and when, gives
 * the phone, the reference and the stop link, passes the compliance rules every post meets (the site's
 * own copy does, docs/compliance.md), and shows nothing the visitor typed as HTML; the staff e-mails
 * carry none of the visitor's answers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInText } from '../../contract/compliance';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { leadRecord } from '../../tests/support/store-contract';
import { acknowledgementEmail, assigneeEmail, escalationEmail } from './follow-up-email';

const STOP = 'http://localhost:3000/stop-contacting-me?t=lead_AAAAAAAAAAAAAAAAAAAA.abc';
const lead = leadRecord('lead_AAAAAAAAAAAAAAAAAAAA', {
  reference: '7K3M-Q9XD-4RTA',
  name: 'Jane Carter',
  email: 'jane@example.com',
  additionalNotes: 'Call me after 5',
  assignee: { staffId: 'stf_0000000000000001', name: 'Alex Agent', email: 'alex@example.com', at: '2026-06-03T15:00:00.000Z', by: 'round-robin' },
});

describe('acknowledgementEmail', () => {
  it('says what happens next and when, with the phone, the reference and the stop link', () => {
    const mail = acknowledgementEmail(lead, DEFAULT_SITE_CONFIG, 5, STOP);
    expect(mail.to).toEqual(['jane@example.com']);
    expect(mail.subject).toBe('We received your quote request (reference 7K3M-Q9XD-4RTA)');
    expect(mail.text).toContain('we aim to reach you within 5 minutes');
    expect(mail.text).toContain(`call ${DEFAULT_SITE_CONFIG.phoneDisplay} and give your reference`);
    expect(mail.text).toContain(`Stop contacting me: ${STOP}`);
    expect(mail.html).toContain(`<a href="${STOP}">Stop contacting me</a>`);
  });

  it('passes the compliance rules', () => {
    const mail = acknowledgementEmail(lead, DEFAULT_SITE_CONFIG, 5, STOP);
    expect(findInText(mail.text, 'text').map((match) => `${match.rule.id}: ${match.text}`)).toEqual([]);
  });

  it('never lets a name become markup', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (name) => {
        const mail = acknowledgementEmail({ ...lead, name: `<b>${name}</b>` }, DEFAULT_SITE_CONFIG, 5, STOP);
        expect(mail.html).not.toContain('<b>');
      }),
    );
  });
});

describe('staff e-mails', () => {
  it("carry the reference and the lead's link, none of the visitor's answers", () => {
    for (const mail of [assigneeEmail(lead, DEFAULT_SITE_CONFIG, '2026-06-03T15:05:00.000Z'), escalationEmail(lead, DEFAULT_SITE_CONFIG, ['boss@example.com'], 5)]) {
      expect(mail.text).toContain('7K3M-Q9XD-4RTA');
      expect(mail.text).toContain('http://localhost:3000/admin/leads/lead_AAAAAAAAAAAAAAAAAAAA');
      for (const answer of ['Jane', 'jane@example.com', 'Call me after 5', String(lead.age)]) expect(mail.text).not.toContain(answer);
    }
  });
});
