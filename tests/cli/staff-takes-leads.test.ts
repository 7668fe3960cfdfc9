/**
 * `blogpost staff takes-leads <email> yes|no` on a data directory: an account left out of the round
 * robin says so in `staff list` and in the audit; a wrong answer is a usage error (2) that changes
 * nothing; an unknown account fails (1). `blogpost leads show` prints a lead's follow-up: assignee,
 * contact attempts, escalation and the visitor's "stop contacting me".
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir } from '../support/server';
import { leadRecord } from '../support/store-contract';
import { inStore } from './data-dir-store';

const dataDir = makeTempDir('iul-cli-takes-leads-');
const at = ['--data-dir', dataDir];
const PASSWORD = 'a quiet harbour at dawn';

function blogpost(args: string[], input = ''): Promise<CliRun> {
  return runBlogpost([...args, ...at], { input });
}

beforeAll(async () => {
  await inStore(dataDir, async () => undefined);
  expect((await blogpost(['staff', 'add', '--email', 'pat@example.com', '--name', 'Pat Agent', '--password-stdin'], PASSWORD)).code).toBe(0);
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost staff takes-leads', () => {
  it('leaves an account out of the round robin and back in, audited', async () => {
    const off = await blogpost(['staff', 'takes-leads', 'PAT@example.com', 'no']);
    expect(off.code).toBe(0);
    expect(off.stdout + off.stderr).toContain('pat@example.com takes no new leads; the leads they have stay theirs.');
    expect((await blogpost(['staff', 'list'])).stdout).toContain('active, takes no leads');
    expect(await inStore(dataDir, async (store) => (await store.staff.findByEmail('pat@example.com'))?.takesLeads)).toBe(false);

    const on = await blogpost(['staff', 'takes-leads', 'pat@example.com', 'yes', '--json']);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ success: true, staff: { email: 'pat@example.com' } });
    const audit = await inStore(dataDir, async (store) => (await store.audit.list()).filter((entry) => entry.action === 'staff.takes_leads_changed'));
    expect(audit.map((entry) => entry.detail.takesLeads)).toEqual([false, true]);
  });

  it('refuses an answer other than yes or no (2) and an unknown account (1)', async () => {
    const wrong = await blogpost(['staff', 'takes-leads', 'pat@example.com', 'maybe']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Answer yes or no (got "maybe")');
    const unknown = await blogpost(['staff', 'takes-leads', 'nobody@example.com', 'no']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No staff account has the e-mail or id "nobody@example.com"');
  });
});

describe('blogpost leads show', () => {
  it("prints the lead's follow-up", async () => {
    const lead = leadRecord('lead_CCCCCCCCCCCCCCCCCCCC', {
      assignee: { staffId: 'stf_0000000000000001', name: 'Pat Agent', email: 'pat@example.com', at: '2026-06-03T15:00:00.000Z', by: 'round-robin' },
      contactAttempts: [{ at: '2026-06-03T15:02:00.000Z', by: 'pat@example.com', channel: 'call', outcome: 'left-message', note: 'Voicemail' }],
      optOut: { at: '2026-06-03T16:00:00.000Z', channel: 'phone', by: 'staff:pat@example.com' },
    });
    await inStore(dataDir, (store) => store.leads.create(lead, []));
    const shown = await blogpost(['leads', 'show', lead.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Assigned to\s+Pat Agent <pat@example\.com> \(in turn, /);
    expect(shown.stdout).toMatch(/Stop contacting\s+asked .* \(by phone\)/);
    expect(shown.stdout).toContain('by pat@example.com: call, left a message: Voicemail');
  });
});
