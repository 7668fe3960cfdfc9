/**
 * The demo key of a fresh install, against real files: announced once with its secret, never again,
 * one key however many starts race for it, and tried again on the next start when it could not be made.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { failingOn } from '../../tests/support/failing';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { announceDemoKey, demoKeyFile, issueDemoKey } from './demo-key';
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

describe('where its secret goes', () => {
  it('shows it on a terminal, where a person reads it', async () => {
    const store = await freshStore();
    const demo = await issueDemoKey(over(store), config);
    if (!demo) throw new Error('the demo key should be made');
    const lines = await announceDemoKey(demo, { interactive: true, dataDir: dirs[0] ?? '' });
    expect(lines[0]).toMatch(/^Created the demo API key "Demo Blog Key" \(id \w{10}, permission blog:write\)\. Its secret is shown only this once:$/);
    expect(lines[2]?.trim()).toBe(demo.secret);
    expect(existsSync(demoKeyFile(dirs[0] ?? '', demo.key))).toBe(false);
  });

  it('anywhere else, writes it to a file only its user can read and names the file, never the secret', async () => {
    const store = await freshStore();
    const dataDir = dirs[0] ?? '';
    const demo = await issueDemoKey(over(store), config);
    if (!demo) throw new Error('the demo key should be made');
    const lines = await announceDemoKey(demo, { interactive: false, dataDir });
    const file = demoKeyFile(dataDir, demo.key);
    expect(lines.join('\n')).not.toContain(demo.secret);
    expect(lines[0]).toContain(`it is in ${file}, readable by this user only`);
    expect(readFileSync(file, 'utf8')).toBe(`${demo.secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Never over a file that is there.
    await expect(announceDemoKey(demo, { interactive: false, dataDir })).rejects.toThrow('EEXIST');
    expect(readFileSync(file, 'utf8')).toBe(`${demo.secret}\n`);
  });
});

describe('the demo key', () => {
  it('is made once with a secret that publishes, and never again', async () => {
    const store = await freshStore();
    const demo = await issueDemoKey(over(store), config);
    expect(demo?.key).toMatchObject({ name: 'Demo Blog Key', permissions: ['blog:write'] });
    expect(await new KeyService(store.keys).verify(demo?.secret ?? '')).toMatchObject({ ok: true, key: { name: 'Demo Blog Key', permissions: ['blog:write'] } });
    expect(await store.keys.demoKeyIssuedAt()).toBe('2026-05-01T12:00:00.000Z');
    expect(await issueDemoKey(over(store), config)).toBeNull();
    expect(await store.keys.list()).toHaveLength(1);
  });

  it('is made once when several starts race for it', async () => {
    const store = await freshStore();
    const announcements = await Promise.all([1, 2, 3].map(() => issueDemoKey(over(store), config)));
    expect(announcements.filter((demo) => demo !== null)).toHaveLength(1);
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
