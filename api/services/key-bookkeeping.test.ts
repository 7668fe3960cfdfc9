/**
 * A key's failure bookkeeping and revocation details against real files: a failure is recorded (once a
 * minute for the same code), a revocation keeps who and why, and a blog.json written before these
 * fields existed still loads.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openKeyStore } from '../store/file-store';
import { KeyService } from './keys';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function keysIn(dir: string, now: () => Date): Promise<KeyService> {
  const store = await openKeyStore(dir, { create: true, now });
  if (!store) throw new Error('the key file should open');
  return new KeyService(store, now);
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

  it('loads a blog.json written before failures, revocation details and owners were kept', async () => {
    const dir = tempDir();
    const now = () => new Date('2026-03-03T00:00:00Z');
    const keys = await keysIn(dir, now);
    const { key } = await keys.create({ name: 'Old', permissions: ['blog:write'] });
    const file = path.join(dir, 'blog.json');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { keys: Array<Record<string, unknown>> };
    expect(Object.keys(manifest.keys[0] ?? {}).sort()).toEqual(['createdAt', 'hash', 'id', 'lastUsedAt', 'name', 'owner', 'permissions', 'revokedAt']);
    const older = manifest.keys.map(({ owner: _owner, ...record }) => ({ ...record, revokedAt: '2026-03-03T00:00:00.000Z' }));
    writeFileSync(file, JSON.stringify({ ...manifest, keys: older }));
    const reopened = await keysIn(dir, now);
    expect(await reopened.find(key.id)).toMatchObject({ owner: 'Old', revokedAt: '2026-03-03T00:00:00.000Z', revokedBy: null, revokeReason: null, lastFailedAt: null, lastFailureCode: null });
  });
});
