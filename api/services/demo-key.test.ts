/**
 * The demo key of a fresh install, against real files: announced once with its secret, never again,
 * one key however many starts race for it, and tried again on the next start when it could not be made.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failingOn } from '../../tests/support/failing';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { issueDemoKey } from './demo-key';
import { KeyService } from './keys';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function freshStore(): Promise<Store> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-demo-key-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir);
  stores.push(store);
  return store;
}

const config = { demoKeyName: 'Demo Blog Key' };
const now = () => new Date('2026-05-01T12:00:00.000Z');

/** The services the demo key needs, over `store`. */
function over(store: Store) {
  return { store, keys: new KeyService(store.keys, now), clock: now };
}

describe('the demo key', () => {
  it('is announced once with a secret that publishes, and never again', async () => {
    const store = await freshStore();
    const lines = await issueDemoKey(over(store), config);
    expect(lines?.[0]).toMatch(/^Created the demo API key "Demo Blog Key" \(id \w{10}, permission blog:write\)\. Its secret is shown only this once:$/);
    const secret = lines?.[2]?.trim() ?? '';
    expect(await new KeyService(store.keys).verify(secret)).toMatchObject({ ok: true, key: { name: 'Demo Blog Key', permissions: ['blog:write'] } });
    expect(await store.keys.demoKeyIssuedAt()).toBe('2026-05-01T12:00:00.000Z');
    expect(await issueDemoKey(over(store), config)).toBeNull();
    expect(await store.keys.list()).toHaveLength(1);
  });

  it('is made once when several starts race for it', async () => {
    const store = await freshStore();
    const announcements = await Promise.all([1, 2, 3].map(() => issueDemoKey(over(store), config)));
    expect(announcements.filter((lines) => lines !== null)).toHaveLength(1);
    expect((await store.keys.list()).map((key) => key.name)).toEqual(['Demo Blog Key']);
  });

  it('is tried again on the next start when it could not be stored', async () => {
    const store = await freshStore();
    const full: Store = Object.create(store) as Store;
    full.keys = failingOn(store.keys, 'add');
    await expect(issueDemoKey(over(full), config)).rejects.toThrow('ENOSPC');
    expect(await store.keys.demoKeyIssuedAt()).toBeNull();
    expect(await issueDemoKey(over(store), config)).not.toBeNull();
    expect(await store.keys.list()).toHaveLength(1);
  });
});
