/**
 * `blogpost leads list|show|set|delete` (through the CLI's own entry, tests/support/cli.ts) on a data directory the store filled with
 * quote requests (real, spam, notified, one notification still pending): output, exit codes, and
 * what is stored afterwards, read back through the store.
 */
import { existsSync, rmSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsentRecord, DeliveryRecord, LeadRecord } from '../../contract/leads';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { deliveryRecord, leadRecord } from '../support/store-contract';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir } from '../support/server';
import { inStore } from './data-dir-store';

const dataDir = makeTempDir('iul-cli-leads-');
const emptyDir = makeTempDir('iul-cli-leads-empty-');
const at = ['--data-dir', dataDir];

/** Local times are shown in the runner's zone: UTC here, so the expected text is fixed. */
function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { TZ: 'UTC' } });
}

const leadId = (seed: string) => `lead_${seed.padEnd(20, '0')}`;
const JANE = leadId('JaneDoe');
const FORMULA = leadId('Formula');
const SAM = leadId('SamClosed');
const ROBOT = leadId('Robot');
const FORMULA_NAME = '=HYPERLINK("https://evil.example","Click")';
const CONSENT_TEXT = 'I agree that Max-Funded IUL and its licensed agents may call or text me at the number I gave.';

const NOTES = 'Interested in a policy loan strategy.\nCall after 5pm.';

/** A lead who asked by e-mail and gave no phone, with the consent text and browser the `show` checks name. */
function lead(id: string, fields: Partial<LeadRecord> & Pick<LeadRecord, 'name' | 'createdAt'>, consent: Partial<ConsentRecord> = {}): LeadRecord {
  const base = leadRecord(id, { phone: null, preferredContactMethod: 'email', retirementAge: 65, additionalNotes: NOTES, ...fields });
  return { ...base, consent: { ...base.consent, text: CONSENT_TEXT, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', ...consent } };
}

/** A notification tried once, not due again. */
function delivery(of: LeadRecord, channel: DeliveryRecord['channel'], fields: Partial<DeliveryRecord>): DeliveryRecord {
  return deliveryRecord(of, channel, { attempts: 1, nextAttemptAt: null, ...fields });
}

/** RFC 4180 fields and records (quoted fields may hold commas, quotes and line breaks), by csv-parse. */
const parseCsv = (text: string): string[][] => parse(text) as string[][];

beforeAll(async () => {
  const store = await openSqliteStore(dataDir);
  try {
    const jane = lead(JANE, { name: 'Jane Doe', createdAt: '2026-11-20T15:04:00.000Z' });
    await store.leads.create(jane, [delivery(jane, 'email', { sentAt: '2026-11-20T15:04:02.000Z' })]);
    const formula = lead(FORMULA, {
      name: FORMULA_NAME,
      email: null,
      phone: '+1 512 555 0142',
      preferredContactMethod: 'phone',
      annualContribution: 48_500,
      status: 'in-progress',
      createdAt: '2026-11-22T09:30:00.000Z',
      reference: '7K3M-Q9XD-4RTA',
    });
    await store.leads.create(formula, [delivery(formula, 'webhook', { attempts: 3, lastError: 'connect ECONNREFUSED 127.0.0.1:9', nextAttemptAt: '2026-11-22T10:00:00.000Z' })]);
    await store.leads.create(
      lead(SAM, { name: 'Sam Closed', status: 'closed', createdAt: '2026-11-21T12:00:00.000Z' }, { given: false, globalPrivacyControl: true, contactOnlyBy: 'email' }),
      [],
    );
    await store.leads.create(lead(ROBOT, { name: 'Robot Filler', spam: 'honeypot', createdAt: '2026-11-23T08:00:00.000Z' }), []);
  } finally {
    await store.close();
  }
});
afterAll(() => {
  for (const dir of [dataDir, emptyDir]) rmSync(dir, { recursive: true, force: true });
});

describe('blogpost leads list', () => {
  it('is in the help, with its subcommands', async () => {
    const help = await blogpost(['--help']);
    expect(help.stdout).toMatch(/leads\s+Quote requests from \/get-quote/);
    const leads = await blogpost(['leads', '--help']);
    expect(leads.code).toBe(0);
    for (const sub of ['list [options]', 'show [options] <id>', 'set [options] <id>', 'delete [options] <id>']) expect(leads.stdout).toContain(sub);
    const completion = await blogpost(['completion', 'bash']);
    expect(completion.stdout).toContain('"leads") args="list show set delete"');
  });

  it('shows the real requests newest first as a table, with contact, amount, notifications and a count', async () => {
    const run = await blogpost(['leads', 'list', ...at]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+RECEIVED\s+STATUS\s+NAME\s+CONTACT\s+AGE\s+YEARLY\s+NOTIFIED$/);
    expect(lines.slice(1).map((line) => line.split(' ')[0])).toEqual([FORMULA, SAM, JANE]);
    expect(lines[1]).toMatch(/2026-11-22 09:30\s+in-progress\s+=HYPERLINK.*phone \+1 512 555 0142\s+45\s+\$48,500\s+webhook pending \(3 tries\)$/);
    expect(lines[2]).toMatch(/closed\s+Sam Closed.*\s-$/);
    expect(lines[3]).toMatch(/2026-11-20 15:04\s+new\s+Jane Doe\s+email jane@example.com\s+45\s+\$12,000\s+email sent$/);
    expect(run.stdout).not.toContain('Robot Filler');
    expect(run.stderr).toContain('3 quote requests, newest first.');
  });

  it('--status filters, and says so when nothing matches', async () => {
    const run = await blogpost(['leads', 'list', '--status', 'closed', ...at]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(SAM);
    expect(run.stdout).not.toContain(JANE);
    expect(run.stderr).toContain('1 quote request with status closed');
    const bad = await blogpost(['leads', 'list', '--status', 'done', ...at]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('new, in-progress, closed');
  });

  it('--spam lists only the requests kept aside as spam, with the reason', async () => {
    const run = await blogpost(['leads', 'list', '--spam', ...at]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/SPAM REASON/);
    expect(run.stdout).toContain(ROBOT);
    expect(run.stdout).toContain('honeypot filled');
    expect(run.stdout).not.toContain(JANE);
    expect(run.stderr).toContain('1 request kept aside as spam');
  });

  it('--json gives the array of records', async () => {
    const run = await blogpost(['leads', 'list', '--json', ...at]);
    expect(run.code).toBe(0);
    const leads = JSON.parse(run.stdout) as LeadRecord[];
    expect(leads.map((record) => record.id)).toEqual([FORMULA, SAM, JANE]);
    expect(leads[2]).toMatchObject({ name: 'Jane Doe', consent: { version: '2026-11-25', ip: '203.0.113.7' } });
    const both = await blogpost(['leads', 'list', '--json', '--format', 'csv', ...at]);
    expect(both.code).toBe(2);
  });

  it('--format csv has a header and every field, with formulas neutralised', async () => {
    const run = await blogpost(['leads', 'list', '--format', 'csv', ...at]);
    expect(run.code).toBe(0);
    const [header = [], ...rows] = parseCsv(run.stdout);
    expect(rows).toHaveLength(3);
    for (const column of ['id', 'name', 'email', 'phone', 'annual_contribution', 'additional_notes', 'consent_given', 'consent_version', 'contact_only_by', 'consent_gpc', 'notified']) {
      expect(header).toContain(column);
    }
    const record = (id: string) => Object.fromEntries(header.map((column, i) => [column, rows.find((row) => row[0] === id)?.[i]]));
    expect(record(FORMULA).name).toBe(`'${FORMULA_NAME}`);
    expect(record(FORMULA).phone).toBe("'+1 512 555 0142");
    expect(record(JANE)).toMatchObject({ name: 'Jane Doe', additional_notes: 'Interested in a policy loan strategy.\nCall after 5pm.', consent_given: 'yes', notified: 'email sent' });
    expect(record(SAM)).toMatchObject({ consent_given: 'no', consent_version: '2026-11-25', contact_only_by: 'email', consent_gpc: 'yes' });
  });

  it('on a data directory without a store says where requests come from', async () => {
    const run = await blogpost(['leads', 'list', '--data-dir', emptyDir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`There is no store in ${emptyDir} yet`);
    expect(run.stderr).toContain('/get-quote');
    const csv = await blogpost(['leads', 'list', '--format', 'csv', '--data-dir', emptyDir]);
    expect(csv.code).toBe(0);
    expect(parseCsv(csv.stdout)).toEqual([expect.arrayContaining(['id', 'name', 'consent_given', 'notified'])]);
    expect(csv.stderr).toContain(`There is no store in ${emptyDir} yet`);
    const show = await blogpost(['leads', 'show', JANE, '--data-dir', emptyDir]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain('There is no store');
    expect(existsSync(path.join(emptyDir, 'store.sqlite'))).toBe(false);
  });
});

describe('blogpost leads show', () => {
  it('shows every field, the consent record and a pending notification', async () => {
    const run = await blogpost(['leads', 'show', FORMULA, ...at]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Quote request ${FORMULA}`);
    expect(run.stdout).toMatch(/Yearly contribution\s+\$48,500/);
    // The reference the visitor saw on the thank-you page, which they may quote on the phone.
    expect(run.stdout).toMatch(/Reference\s+7K3M-Q9XD-4RTA/);
    expect(run.stdout).toMatch(/Health rating\s+Good/);
    expect(run.stdout).toContain('Call after 5pm.');
    expect(run.stdout).toContain(`"${CONSENT_TEXT}"`);
    expect(run.stdout).toMatch(/Text SHA-256\s+a{64}/);
    expect(run.stdout).toMatch(/IP\s+203\.0\.113\.7/);
    expect(run.stdout).toMatch(/User agent\s+Mozilla\/5\.0/);
    expect(run.stdout).toMatch(/Page\s+\/get-quote/);
    expect(run.stdout).toMatch(/Contact only by\s+any way/);
    expect(run.stdout).toMatch(/webhook\s+pending: 3 attempts, last error: connect ECONNREFUSED 127\.0\.0\.1:9, next attempt 2026-11-22 10:00:00/);
    const jane = await blogpost(['leads', 'show', JANE, ...at]);
    expect(jane.stdout).toMatch(/email\s+sent 2026-11-20 15:04:02/);
    expect(jane.stdout).toMatch(/Reference\s+-/);
    const sam = await blogpost(['leads', 'show', SAM, ...at]);
    expect(sam.stdout).toMatch(/GPC\s+yes/);
    expect(sam.stdout).toMatch(/Contact only by\s+email/);
  });

  it('--json gives the record and its notifications', async () => {
    const run = await blogpost(['leads', 'show', JANE, '--json', ...at]);
    expect(run.code).toBe(0);
    const shown = JSON.parse(run.stdout) as { lead: LeadRecord; notifications: DeliveryRecord[] };
    expect(shown.lead.id).toBe(JANE);
    expect(shown.notifications).toEqual([expect.objectContaining({ channel: 'email', sentAt: '2026-11-20T15:04:02.000Z' })]);
  });

  it('an unknown id fails with 1 and says how to list ids; a near miss gets "did you mean"', async () => {
    const typo = `${JANE.slice(0, -1)}1`;
    const near = await blogpost(['leads', 'show', typo, ...at]);
    expect(near.code).toBe(1);
    expect(near.stderr).toContain(`Did you mean ${JANE}?`);
    expect(near.stderr).toContain('blogpost leads list');
    const far = await blogpost(['leads', 'show', 'lead_nothingLikeAnyIdXYZ', ...at]);
    expect(far.code).toBe(1);
    expect(far.stderr).not.toContain('Did you mean');
    expect(far.stderr).toContain('List the ids with: blogpost leads list');
  });
});

describe('blogpost leads set', () => {
  it('changes the status and appends a note, stored with the time', async () => {
    const run = await blogpost(['leads', 'set', JANE, '--status', 'in-progress', '--note', 'Called, sending the illustration', '--by', 'Ann Agent', ...at]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Quote request ${JANE}: status new → in-progress; note added by Ann Agent`);
    const note = await blogpost(['leads', 'set', JANE, '--note', 'Left a voicemail', ...at]);
    expect(note.code).toBe(0);
    expect(note.stderr).toContain('status stays in-progress; note added by cli');

    const stored = await inStore(dataDir, (store) => store.leads.get(JANE));
    expect(stored?.status).toBe('in-progress');
    expect(stored?.agentNotes.map((n) => [n.by, n.text])).toEqual([
      ['Ann Agent', 'Called, sending the illustration'],
      ['cli', 'Left a voicemail'],
    ]);
    expect(stored?.updatedAt).not.toBe('2026-11-20T15:04:00.000Z');
    const shown = await blogpost(['leads', 'show', JANE, ...at]);
    expect(shown.stdout).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} by Ann Agent: Called, sending the illustration/);
  });

  it('refuses an invalid status (2) or nothing to change (2), storing nothing', async () => {
    const bad = await blogpost(['leads', 'set', SAM, '--status', 'won', '--note', 'should not be stored', ...at]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('new, in-progress, closed');
    const nothing = await blogpost(['leads', 'set', SAM, ...at]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--status');
    const stored = await inStore(dataDir, (store) => store.leads.get(SAM));
    expect(stored).toMatchObject({ status: 'closed', agentNotes: [], updatedAt: '2026-11-21T12:00:00.000Z' });
  });

  it('an unknown id fails with 1', async () => {
    const run = await blogpost(['leads', 'set', leadId('Nobody'), '--status', 'closed', ...at]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No quote request');
  });
});

describe('blogpost leads delete', () => {
  it('refuses without --yes, then removes the lead and its notifications for good', async () => {
    const refused = await blogpost(['leads', 'delete', FORMULA, ...at]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    // Open all along, as a running server's would be: it sees the deletion.
    const opened = await openSqliteStore(dataDir);
    try {
      expect(await opened.leads.get(FORMULA)).not.toBeNull();
      const run = await blogpost(['leads', 'delete', FORMULA, '--yes', ...at]);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`Deleted quote request ${FORMULA} and its 1 notification for good.`);
      expect(await opened.leads.get(FORMULA)).toBeNull();
      expect(await opened.outbox.forLead(FORMULA)).toEqual([]);
    } finally {
      await opened.close();
    }
    const list = await blogpost(['leads', 'list', ...at]);
    expect(list.stdout).not.toContain(FORMULA);
    const again = await blogpost(['leads', 'delete', FORMULA, '--yes', ...at]);
    expect(again.code).toBe(1);
  });
});
