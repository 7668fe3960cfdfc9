/**
 * Leads are kept as long as the privacy policy says, in a real SQLite store: spam goes after 30 days,
 * a closed request seven years after its last change (with its notifications), and an open request,
 * however old, stays.
 */
import { rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { openSqliteStore } from '../store/sql/sql-store';
import { deliveryRecord, leadRecord } from '../../tests/support/store-contract';
import type { Store } from '../store/store';
import { purgeExpiredLeads } from './lead-retention';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function lead(overrides: Partial<LeadRecord>): LeadRecord {
  counter += 1;
  return leadRecord(`lead_${String(counter).padStart(20, 'A')}`, overrides);
}

it('deletes spam after 30 days and closed requests seven years after their last change, and keeps everything else', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-retention-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir);
  stores.push(store);
  const now = new Date('2033-06-01T00:00:00.000Z');
  const oldSpam = lead({ spam: 'honeypot', createdAt: '2033-04-01T00:00:00.000Z' });
  const newSpam = lead({ spam: 'too-fast', createdAt: '2033-05-15T00:00:00.000Z' });
  const oldClosed = lead({ status: 'closed', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2026-05-31T00:00:00.000Z' });
  const recentlyClosed = lead({ status: 'closed', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2026-06-02T00:00:00.000Z' });
  const oldOpen = lead({ status: 'in-progress', createdAt: '2020-01-01T00:00:00.000Z' });
  for (const item of [oldSpam, newSpam, recentlyClosed, oldOpen]) await store.leads.create(item, []);
  await store.leads.create(oldClosed, [deliveryRecord(oldClosed, 'email', { attempts: 1, nextAttemptAt: null, sentAt: oldClosed.createdAt })]);

  expect(await purgeExpiredLeads(store.leads, now)).toBe(2);
  const kept = (await store.leads.list({ spam: 'any' })).map((item) => item.id).sort();
  expect(kept).toEqual([newSpam.id, recentlyClosed.id, oldOpen.id].sort());
  expect(await store.outbox.forLead(oldClosed.id)).toEqual([]);
  expect(await purgeExpiredLeads(store.leads, now)).toBe(0);
});
