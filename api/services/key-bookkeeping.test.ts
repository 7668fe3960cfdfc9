/**
 * A key's failure bookkeeping and revocation details against a real database: a failure is recorded
 * (once a minute for the same code), a revocation keeps who and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSqliteStore } from '../store/sql/sql-store';
import { KeyService } from './keys';

const dirs: string[] = [];
const stores: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function keysIn(dir: string, now: () => Date): Promise<KeyService> {
  const store = await openSqliteStore(dir, { now });
  stores.push(store);
  return new KeyService(store.keys, now);
}

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-key-bookkeeping-'));
  dirs.push(dir);
  return dir;
}

describe('key bookkeeping', () => {
  it('records the last failure and its code, at most once a minute for the same code', async () => {
    let now = new Date('2026-03-01T10:00:00Z');
    const keys = await keysIn(tempDir(), () => now);
    const { key } = await keys.create({ name: 'Writer', permissions: ['blog:write'] });
    keys.recordFailure(key.id, 'invalid_api_key');
    await vi.waitFor(async () => expect(await keys.find(key.id)).toMatchObject({ lastFailedAt: '2026-03-01T10:00:00.000Z', lastFailureCode: 'invalid_api_key' }));
    now = new Date('2026-03-01T10:00:30Z');
    keys.recordFailure(key.id, 'insufficient_permissions');
    await vi.waitFor(async () => expect(await keys.find(key.id)).toMatchObject({ lastFailedAt: '2026-03-01T10:00:30.000Z', lastFailureCode: 'insufficient_permissions' }));
    keys.recordFailure('NoSuchKey1', 'invalid_api_key');
    expect((await keys.details()).map((details) => details.id)).toEqual([key.id]);
  });

  it('keeps who revoked a key and why; no reason is stored as none', async () => {
    const keys = await keysIn(tempDir(), () => new Date('2026-03-02T09:00:00Z'));
    const { key } = await keys.create({ name: 'Leaver', permissions: ['blog:write'] });
    const { key: other } = await keys.create({ name: 'Quiet', permissions: ['blog:write'] });
    expect((await keys.revoke(key.id, { by: 'cli:jane', reason: '  left the agency ' })).key).toMatchObject({
      revokedAt: '2026-03-02T09:00:00.000Z',
      revokedBy: 'cli:jane',
      revokeReason: 'left the agency',
    });
    expect((await keys.revoke(other.id, { by: 'cli:jane', reason: ' ' })).key).toMatchObject({ revokedBy: 'cli:jane', revokeReason: null });
  });
});
