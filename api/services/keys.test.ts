/**
 * KeyService against real files: what verify() answers for right, wrong, mistyped, unknown and revoked
 * keys, when it records a key's use, and that a revocation written by another process (the CLI) counts
 * on the very next request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_SECRET_LENGTH, formatApiKey } from '../../contract/keys';
import { openFileStore, openKeyStore } from '../store/file-store';
import type { Store } from '../store/store';
import { KeyService } from './keys';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function setUp() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-keys-unit-'));
  dirs.push(dir);
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = {
    now: () => now,
    advance(ms: number) {
      now = new Date(now.getTime() + ms);
    },
  };
  const store = await openFileStore(dir);
  stores.push(store);
  const keys = new KeyService(store.keys, clock.now);
  const { key, secret } = await keys.create({ name: 'Writer', permissions: ['blog:write'] });
  const cli = await openKeyStore(dir, { create: false });
  if (!cli) throw new Error('the key file should exist');
  return { store, keys, key, secret, clock, cliKeys: new KeyService(cli, clock.now) };
}

describe('KeyService.verify', () => {
  it('accepts the key and records its first use', async () => {
    const { store, keys, key, secret } = await setUp();
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { id: key.id, lastUsedAt: '2026-01-01T00:00:00.000Z' } });
    await store.flush();
    expect((await store.keys.findById(key.id))?.lastUsedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('records a use again only after a minute', async () => {
    const { store, keys, key, secret, clock } = await setUp();
    await keys.verify(secret);
    clock.advance(59_000);
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { lastUsedAt: '2026-01-01T00:00:00.000Z' } });
    clock.advance(1_000);
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { lastUsedAt: '2026-01-01T00:01:00.000Z' } });
    await store.flush();
    expect((await store.keys.findById(key.id))?.lastUsedAt).toBe('2026-01-01T00:01:00.000Z');
  });

  it('refuses a real id with a wrong but well-formed secret, every time', async () => {
    const { keys, key, secret } = await setUp();
    const forged = formatApiKey(key.id, 'A'.repeat(API_KEY_SECRET_LENGTH));
    expect(forged).not.toBe(secret);
    for (let i = 0; i < 2; i++) expect(await keys.verify(forged)).toEqual({ ok: false, reason: 'unknown' });
    // A valid use in between does not open a path around the secret check.
    expect(await keys.verify(secret)).toMatchObject({ ok: true });
    expect(await keys.verify(forged)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('tells a mistyped key (bad checksum) from an unknown one', async () => {
    const { keys, secret } = await setUp();
    const mistyped = `${secret.slice(0, 20)}${secret[20] === 'a' ? 'b' : 'a'}${secret.slice(21)}`;
    expect(await keys.verify(mistyped)).toMatchObject({ ok: false, reason: 'malformed' });
    const stranger = (await setUp()).secret;
    expect(await keys.verify(stranger)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('sees a revocation another process wrote on the very next check', async () => {
    const { keys, key, secret, cliKeys } = await setUp();
    expect(await keys.verify(secret)).toMatchObject({ ok: true });
    await cliKeys.revoke(key.id);
    expect(await keys.verify(secret)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('accepts a valid key when recording its use fails (the bookkeeping is best effort)', async () => {
    const { store, key, secret, clock } = await setUp();
    const keys = store.keys;
    const failing = new KeyService(
      {
        list: () => keys.list(),
        findById: (id) => keys.findById(id),
        add: (record) => keys.add(record),
        update: () => Promise.reject(new Error('ENOSPC: no space left on device')),
        demoKeyIssuedAt: () => keys.demoKeyIssuedAt(),
        markDemoKeyIssued: (at) => keys.markDemoKeyIssued(at),
      },
      clock.now,
    );
    expect(await failing.verify(secret)).toMatchObject({ ok: true, key: { id: key.id } });
  });
});
