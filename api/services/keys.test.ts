/**
 * KeyService against real files: what verify() and its synchronous form verifyNow() answer, and when
 * verifyNow() leaves the answer to verify() (a key file another process changed, a use to record).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBlogStore, openKeyStore } from '../store/blog-store';
import { KeyService } from './keys';

const dirs: string[] = [];
afterEach(() => {
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
  const store = await openBlogStore(dir);
  const keys = new KeyService(store.keys, clock.now);
  const { key, secret } = await keys.create({ name: 'Writer', permissions: ['blog:write'] });
  const cli = await openKeyStore(dir, { create: false });
  if (!cli) throw new Error('the key file should exist');
  return { keys, key, secret, clock, cliKeys: new KeyService(cli, clock.now) };
}

describe('KeyService.verifyNow', () => {
  it('leaves a key whose first use is to be recorded to verify(), then answers at once', async () => {
    const { keys, key, secret } = await setUp();
    expect(keys.verifyNow(secret)).toBeUndefined();
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { id: key.id, lastUsedAt: '2026-01-01T00:00:00.000Z' } });
    expect(keys.verifyNow(secret)).toMatchObject({ ok: true, key: { id: key.id, lastUsedAt: '2026-01-01T00:00:00.000Z' } });
  });

  it('records a use again only after a minute', async () => {
    const { keys, secret, clock } = await setUp();
    await keys.verify(secret);
    clock.advance(59_000);
    expect(keys.verifyNow(secret)).toMatchObject({ ok: true });
    clock.advance(1_000);
    expect(keys.verifyNow(secret)).toBeUndefined();
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { lastUsedAt: '2026-01-01T00:01:00.000Z' } });
  });

  it('answers malformed and unknown keys at once, as verify() does', async () => {
    const { keys, secret } = await setUp();
    await keys.verify(secret);
    const mistyped = `${secret.slice(0, 20)}${secret[20] === 'a' ? 'b' : 'a'}${secret.slice(21)}`;
    expect(keys.verifyNow(mistyped)).toMatchObject({ ok: false, reason: 'malformed' });
    expect(await keys.verify(mistyped)).toEqual(keys.verifyNow(mistyped));
    const stranger = (await setUp()).secret;
    expect(keys.verifyNow(stranger)).toEqual({ ok: false, reason: 'unknown' });
    expect(await keys.verify(stranger)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('sees a revocation another process wrote on the very next check', async () => {
    const { keys, key, secret, cliKeys } = await setUp();
    await keys.verify(secret);
    expect(keys.verifyNow(secret)).toMatchObject({ ok: true });
    await cliKeys.revoke(key.id);
    // The file changed on disk: not answered from memory, and verify() reads the change.
    expect(keys.verifyNow(secret)).toBeUndefined();
    expect(await keys.verify(secret)).toEqual({ ok: false, reason: 'revoked' });
    expect(keys.verifyNow(secret)).toEqual({ ok: false, reason: 'revoked' });
  });
});
