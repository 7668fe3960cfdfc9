/**
 * `blogpost audit` (tests/support/cli.ts): the entries written by `blogpost staff`, `keys create|revoke` and
 * `leads set|delete` (run on the same data directory), oldest first, as a table and
 * as JSON, filtered by --since and --action; never a lead's personal data or a note's text; nothing
 * made where there is no store.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../contract/staff';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { auditEntry, leadRecord } from '../support/store-contract';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir } from '../support/server';

const dataDir = makeTempDir('iul-cli-audit-');
const at = ['--data-dir', dataDir];
const LEAD = `lead_${'AuditMe'.padEnd(20, '0')}`;
const GONE = `lead_${'ForgetMe'.padEnd(20, '0')}`;
const NOTE = 'Called back, prefers mornings';

function blogpost(args: string[], input = ''): Promise<CliRun> {
  return runBlogpost([...args, ...at], { input });
}

function entries(run: CliRun): AuditEntry[] {
  return JSON.parse(run.stdout) as AuditEntry[];
}

let keyId = '';

beforeAll(async () => {
  const store = await openSqliteStore(dataDir);
  try {
    await store.leads.create(leadRecord(LEAD, { name: 'Audrey Private', email: 'audrey@example.com', createdAt: '2026-11-20T10:00:00.000Z' }), []);
    await store.leads.create(leadRecord(GONE, { name: 'Forget Me', email: 'forget@example.com', createdAt: '2026-11-21T10:00:00.000Z' }), []);
    // An entry from long ago, for --since.
    await store.audit.append(auditEntry({ at: '2026-01-15T09:00:00.000Z', actor: 'cli:old', action: 'key.created', target: 'OldKey0000', detail: { name: 'Old' } }));
  } finally {
    await store.close();
  }
  const created = await blogpost(['keys', 'create', '--name', 'Audit Key', '--json']);
  keyId = (JSON.parse(created.stdout) as { key: { id: string } }).key.id;
  expect((await blogpost(['keys', 'revoke', keyId, '--reason', 'laptop stolen'])).code).toBe(0);
  expect((await blogpost(['staff', 'add', '--email', 'jane@example.com', '--name', 'Jane Agent'], 'a quiet harbour at dawn')).code).toBe(0);
  expect((await blogpost(['leads', 'set', LEAD, '--status', 'in-progress', '--note', NOTE, '--by', 'Jane'])).code).toBe(0);
  expect((await blogpost(['leads', 'delete', GONE, '--yes'])).code).toBe(0);
  expect((await blogpost(['staff', 'disable', 'jane@example.com', '--reason', 'left the agency'])).code).toBe(0);
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost audit', () => {
  it('lists what the commands did, oldest first, as a table', async () => {
    const run = await blogpost(['audit']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+ACTOR\s+ACTION\s+TARGET\s+DETAIL$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[2])).toEqual([
      'key.created',
      'key.created',
      'key.revoked',
      'staff.added',
      'lead.status_changed',
      'lead.noted',
      'lead.deleted',
      'staff.disabled',
    ]);
    expect(lines[1]).toMatch(/^2026-01-15 09:00:00\s+cli:old\s+key\.created\s+OldKey0000\s+name=Old$/);
    expect(run.stdout).toMatch(new RegExp(`cli:\\S+\\s+key\\.revoked\\s+${keyId}\\s+name="Audit Key" reason="laptop stolen"`));
    expect(run.stdout).toMatch(new RegExp(`lead\\.status_changed\\s+${LEAD}\\s+from=new to=in-progress`));
    expect(run.stdout).toMatch(/staff\.disabled\s+jane@example\.com\s+id=stf_\w+ sessionsEnded=0 reason="left the agency"/);
  });

  it('--json gives the entries, with who, what, to what and the facts', async () => {
    const run = await blogpost(['audit', '--json']);
    expect(run.code).toBe(0);
    const all = entries(run);
    expect(all).toHaveLength(8);
    const created = all.find((entry) => entry.action === 'key.created' && entry.target === keyId);
    expect(created).toMatchObject({ actor: expect.stringMatching(/^cli:/), detail: { name: 'Audit Key', owner: 'Audit Key', permissions: 'blog:write' }, ip: null });
    expect(all.find((entry) => entry.action === 'key.revoked')?.detail).toEqual({ name: 'Audit Key', reason: 'laptop stolen' });
    expect(all.find((entry) => entry.action === 'lead.noted')).toMatchObject({ target: LEAD, detail: { by: 'Jane' } });
    expect(all.find((entry) => entry.action === 'lead.deleted')).toMatchObject({ target: GONE, detail: {} });
    expect(all.find((entry) => entry.action === 'staff.added')).toMatchObject({ target: 'jane@example.com' });
  });

  it("never holds a lead's personal data, a note's text or a password", async () => {
    const store = await openSqliteStore(dataDir);
    const text = JSON.stringify(await store.audit.list());
    await store.close();
    for (const secret of ['Audrey', 'audrey@example.com', 'Forget Me', 'forget@example.com', NOTE, 'harbour']) expect(text).not.toContain(secret);
  });

  it('--since takes a duration or a date, and --action one action', async () => {
    const recent = entries(await blogpost(['audit', '--since', '2h', '--json']));
    expect(recent.map((entry) => entry.target)).not.toContain('OldKey0000');
    expect(recent).toHaveLength(7);
    const fromDate = entries(await blogpost(['audit', '--since', '2026-01-01', '--json']));
    expect(fromDate).toHaveLength(8);
    const revoked = await blogpost(['audit', '--action', 'key.revoked']);
    expect(revoked.stdout.trim().split('\n')).toHaveLength(2);
    expect(revoked.stdout).toContain('laptop stolen');
    const none = await blogpost(['audit', '--action', 'post.restored']);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('No audit entry matches');
  });

  it('refuses a --since or --action it cannot read with exit code 2', async () => {
    const since = await blogpost(['audit', '--since', 'yesterday']);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since takes a duration like 30m');
    const action = await blogpost(['audit', '--action', 'key.burned']);
    expect(action.code).toBe(2);
    expect(action.stderr).toContain('key.revoked');
  });

  it('says where it looked when there is no audit log yet', async () => {
    const empty = makeTempDir('iul-cli-audit-empty-');
    try {
      const run = await runBlogpost(['audit', '--data-dir', empty]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`No audit entries in ${empty} yet`);
      expect(existsSync(path.join(empty, 'store.sqlite'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
