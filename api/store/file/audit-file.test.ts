/** The audit log in audit/audit-<YYYY-MM>.jsonl: appends, reading in order, since, limit and damaged lines. */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../contract/staff';
import { auditEntry } from '../store-contract';
import { FileAuditLog } from './audit-file';

const dirs: string[] = [];
function auditDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-audit-'));
  dirs.push(dir);
  return path.join(dir, 'audit');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = (at: string, overrides: Partial<AuditEntry> = {}): AuditEntry => auditEntry({ at, ...overrides });

describe('FileAuditLog', () => {
  it('appends one JSON line per entry to the file of its month, and lists them oldest first after a reopen', async () => {
    const dir = auditDir();
    const log = new FileAuditLog(dir);
    await log.append(entry('2026-10-31T23:59:00.000Z'));
    await log.append(entry('2026-11-01T00:01:00.000Z', { action: 'lead.status_changed', target: 'lead_x', detail: { from: 'new', to: 'contacted' } }));
    await log.append(entry('2026-11-02T08:00:00.000Z', { action: 'staff.added', target: 'sam@example.com', detail: {} }));
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-10.jsonl', 'audit-2026-11.jsonl']);
    expect(readFileSync(path.join(dir, 'audit-2026-11.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const listed = await new FileAuditLog(dir).list();
    expect(listed.map((e) => e.action)).toEqual(['key.revoked', 'lead.status_changed', 'staff.added']);
    expect(listed[1]).toEqual(entry('2026-11-01T00:01:00.000Z', { action: 'lead.status_changed', target: 'lead_x', detail: { from: 'new', to: 'contacted' } }));
  });

  it('keeps every line whole when many appends run at once', async () => {
    const dir = auditDir();
    const first = new FileAuditLog(dir);
    const second = new FileAuditLog(dir);
    await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? first : second).append(entry(`2026-11-05T10:00:${String(i).padStart(2, '0')}.000Z`, { detail: { n: i, reason: 'x'.repeat(2000) } }))));
    const { entries, damagedLines } = await first.read();
    expect(damagedLines).toBe(0);
    expect(entries.map((e) => e.detail.n)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('lists from a time on (inclusive), and only the newest entries with a limit', async () => {
    const log = new FileAuditLog(auditDir());
    for (const at of ['2026-09-10T00:00:00.000Z', '2026-10-10T00:00:00.000Z', '2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z']) await log.append(entry(at));
    expect((await log.list({ since: '2026-10-10T00:00:00.000Z' })).map((e) => e.at)).toEqual(['2026-10-10T00:00:00.000Z', '2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z']);
    expect((await log.list({ limit: 2 })).map((e) => e.at)).toEqual(['2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z']);
    expect(await log.list({ since: '2026-12-01T00:00:00.000Z' })).toEqual([]);
  });

  it('skips and counts a damaged line instead of failing', async () => {
    const dir = auditDir();
    const log = new FileAuditLog(dir);
    await log.append(entry('2026-11-01T10:00:00.000Z'));
    appendFileSync(path.join(dir, 'audit-2026-11.jsonl'), '{"at":"2026-11-01T10:01:00.000Z","actor":"cli:x","action":"no.such"}\n{"at":"2026-11-01T1');
    appendFileSync(path.join(dir, 'audit-2026-11.jsonl'), '\n');
    await log.append(entry('2026-11-01T10:02:00.000Z'));
    const { entries, damagedLines } = await log.read();
    expect(entries.map((e) => e.at)).toEqual(['2026-11-01T10:00:00.000Z', '2026-11-01T10:02:00.000Z']);
    expect(damagedLines).toBe(2);
  });

  it('refuses to write what is not an audit entry', async () => {
    const log = new FileAuditLog(auditDir());
    await expect(log.append({ ...entry('2026-11-01T10:00:00.000Z'), action: 'post.burned' as AuditEntry['action'] })).rejects.toThrow('Not an audit entry');
    expect(await log.list()).toEqual([]);
  });
});
