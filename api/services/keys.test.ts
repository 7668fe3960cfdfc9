/**
 * KeyService against real files: what verify() answers for right, wrong, mistyped, unknown and revoked
 * keys, when it records a key's use, and that a revocation written by another process (the CLI) counts
 * on the very next request. Also: that random ids and secrets use every character equally often, and
 * what revoke() answers when the key file changed under it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_SECRET_LENGTH, BASE62_ALPHABET, checkApiKey, formatApiKey } from '../../contract/keys';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { failingOn, withMember } from '../../tests/support/failing';
import { hashApiKey, KeyError, KeyService, randomBase62 } from './keys';

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
  const store = await openSqliteStore(dir);
  stores.push(store);
  const keys = new KeyService(store.keys, clock.now);
  const { key, secret } = await keys.create({ name: 'Writer', permissions: ['blog:write'] });
  // Another process's connection to the same database (the CLI beside a running server).
  const cli = await openSqliteStore(dir);
  stores.push(cli);
  return { store, keys, key, secret, clock, cliKeys: new KeyService(cli.keys, clock.now) };
}

/**
 * `real` with every call it answers followed, and `idle()`, which resolves once no call is pending and
 * none was started since: how a test waits for bookkeeping that is not awaited, even for one that
 * decided not to write.
 */
function followed<T extends object>(real: T): { repository: T; idle: () => Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  const repository = new Proxy(real, {
    get(object, property) {
      const member: unknown = Reflect.get(object, property, object);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        const answer: unknown = (member as (...args: unknown[]) => unknown).apply(object, args);
        if (answer instanceof Promise) {
          pending.add(answer);
          answer.then(
            () => pending.delete(answer),
            () => pending.delete(answer),
          );
        }
        return answer;
      };
    },
  });
  const idle = async () => {
    do {
      await Promise.allSettled([...pending]);
      await new Promise((resolve) => setTimeout(resolve, 0));
    } while (pending.size > 0);
  };
  return { repository, idle };
}

describe('randomBase62', () => {
  it('gives exactly the length asked, in base62, from 0 characters up', () => {
    for (const length of [0, 1, 2, 3, 10, 32]) expect(randomBase62(length)).toMatch(new RegExp(`^[0-9A-Za-z]{${length}}$`));
  });

  it('uses every character of the alphabet equally often', () => {
    // 620,000 characters: each is expected 10,000 times (standard deviation about 99), so a count outside
    // 9,000-11,000 is 10 deviations away by chance. A bias towards the first characters (taking the
    // bytes 248-255 too, 5 in 256 or 5 in 249 instead of 1 in 62) puts them at 12,100 or more.
    const counts = new Map<string, number>();
    for (const character of randomBase62(620_000)) counts.set(character, (counts.get(character) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe([...BASE62_ALPHABET].sort().join(''));
    const outside = [...counts].filter(([, count]) => count < 9_000 || count > 11_000);
    expect(outside).toEqual([]);
  });
});

describe('KeyService.verify', () => {
  it('accepts the key and records its first use', async () => {
    const { store, keys, key, secret } = await setUp();
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { id: key.id, lastUsedAt: '2026-01-01T00:00:00.000Z' } });
    // Recorded without holding up the request: stored a moment later.
    await vi.waitFor(async () => expect((await store.keys.findById(key.id))?.lastUsedAt).toBe('2026-01-01T00:00:00.000Z'));
  });

  it('records a use again only after a minute', async () => {
    const { store, keys, key, secret, clock } = await setUp();
    await keys.verify(secret);
    await vi.waitFor(async () => expect((await store.keys.findById(key.id))?.lastUsedAt).toBe('2026-01-01T00:00:00.000Z'));
    clock.advance(59_000);
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { lastUsedAt: '2026-01-01T00:00:00.000Z' } });
    clock.advance(1_000);
    expect(await keys.verify(secret)).toMatchObject({ ok: true, key: { lastUsedAt: '2026-01-01T00:01:00.000Z' } });
    await vi.waitFor(async () => expect((await store.keys.findById(key.id))?.lastUsedAt).toBe('2026-01-01T00:01:00.000Z'));
  });

  it('refuses a real id with a wrong but well-formed secret, every time', async () => {
    const { keys, key, secret } = await setUp();
    const forged = formatApiKey(key.id, 'A'.repeat(API_KEY_SECRET_LENGTH));
    expect(forged).not.toBe(secret);
    for (let i = 0; i < 2; i++) expect(await keys.verify(forged)).toEqual({ ok: false, reason: 'unknown', publicId: key.id });
    // A valid use in between does not open a path around the secret check.
    expect(await keys.verify(secret)).toMatchObject({ ok: true });
    expect(await keys.verify(forged)).toEqual({ ok: false, reason: 'unknown', publicId: key.id });
  });

  it('tells a mistyped key (bad checksum) from an unknown one', async () => {
    const { keys, secret } = await setUp();
    const mistyped = `${secret.slice(0, 20)}${secret[20] === 'a' ? 'b' : 'a'}${secret.slice(21)}`;
    expect(await keys.verify(mistyped)).toMatchObject({ ok: false, reason: 'malformed' });
    const stranger = await setUp();
    expect(await keys.verify(stranger.secret)).toEqual({ ok: false, reason: 'unknown', publicId: stranger.key.id });
  });

  it('sees a revocation another process wrote on the very next check', async () => {
    const { keys, key, secret, cliKeys } = await setUp();
    expect(await keys.verify(secret)).toMatchObject({ ok: true });
    await cliKeys.revoke(key.id);
    expect(await keys.verify(secret)).toEqual({ ok: false, reason: 'revoked', publicId: key.id });
  });

  it('accepts a valid key when recording its use fails (the bookkeeping is best effort)', async () => {
    const { store, key, secret, clock } = await setUp();
    const failing = new KeyService(failingOn(store.keys, 'update'), clock.now);
    expect(await failing.verify(secret)).toMatchObject({ ok: true, key: { id: key.id } });
  });
});

describe('KeyService.verify of a pasted key', () => {
  it('accepts a key with spaces or a line break around it', async () => {
    const { keys, key, secret } = await setUp();
    expect(await keys.verify(`  ${secret}\n`)).toMatchObject({ ok: true, key: { id: key.id } });
  });
});

describe('KeyService.create', () => {
  it('makes a key in the checked format, stored only as its hash, with a trimmed name and its owner', async () => {
    const { store, keys } = await setUp();
    const { key, secret } = await keys.create({ name: '  CI bot ', permissions: ['blog:write', 'blog:write', 'blog:read'], owner: ' acme ' });
    expect(checkApiKey(secret)).toMatchObject({ ok: true, publicId: key.id });
    expect(key).toEqual({ id: key.id, name: 'CI bot', owner: 'acme', permissions: ['blog:write', 'blog:read'], createdAt: '2026-01-01T00:00:00.000Z', lastUsedAt: null, revokedAt: null });
    const stored = await store.keys.findById(key.id);
    expect(stored?.hash).toBe(hashApiKey(secret));
    expect(JSON.stringify(stored)).not.toContain(secret.slice(15, 47));
    const { key: ownKey } = await keys.create({ name: 'Solo', permissions: ['blog:read'], owner: '  ' });
    expect(ownKey.owner).toBe('Solo');
    const ids = new Set([key.id, ownKey.id, (await keys.create({ name: 'Third', permissions: ['blog:read'] })).key.id]);
    expect(ids.size).toBe(3);
  });

  it('refuses a bad name or owner, no permissions, and the name of an active key in any case', async () => {
    const { keys } = await setUp();
    const error: unknown = await keys.create({ name: '', permissions: ['blog:read'] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyError);
    expect((error as Error).name).toBe('KeyError');
    const problem = (work: Promise<unknown>) =>
      work.then(
        () => 'created',
        (error: unknown) => (error instanceof KeyError ? `${error.problem}: ${error.message}` : String(error)),
      );
    expect(await problem(keys.create({ name: 'semi;colon', permissions: ['blog:read'] }))).toBe(
      'invalid_name: A key name is 1 to 60 letters, digits, spaces or . _ - @ : characters.',
    );
    expect(await problem(keys.create({ name: 'Fine', permissions: ['blog:read'], owner: 'bad/owner' }))).toBe(
      'invalid_name: An owner is 1 to 60 letters, digits, spaces or . _ - @ : characters.',
    );
    expect(await problem(keys.create({ name: 'Fine', permissions: [] }))).toBe('no_permissions: A key needs at least one permission.');
    expect(await problem(keys.create({ name: 'WRITER', permissions: ['blog:read'] }))).toBe(
      'duplicate_name: An active key is already named "WRITER"; pick another name or revoke that key first.',
    );
  });

  it('stamps a key with the time it was made when given no clock', async () => {
    const { store } = await setUp();
    const before = Date.now();
    const { key } = await new KeyService(store.keys).create({ name: 'Unclocked', permissions: ['blog:read'] });
    expect(Date.parse(key.createdAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(key.createdAt)).toBeLessThanOrEqual(Date.now());
  });

  it('lets a revoked key’s name be used again', async () => {
    const { keys, key } = await setUp();
    await keys.revoke(key.id);
    expect((await keys.create({ name: 'Writer', permissions: ['blog:write'] })).key.name).toBe('Writer');
  });

  it('makes one key of two creations of one name at once, by the server and by the CLI, and refuses the other', async () => {
    const { keys, cliKeys } = await setUp();
    // Both pass the early check before either adds its key: the store's add has to refuse the second.
    const outcomes = await Promise.allSettled([keys.create({ name: 'Twin', permissions: ['blog:write'] }), cliKeys.create({ name: 'twin', permissions: ['blog:write'] })]);
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(KeyError);
    expect(refused[0]).toMatchObject({ problem: 'duplicate_name', message: expect.stringMatching(/^An active key is already named "(Twin|twin)"; pick another name or revoke that key first\.$/) });
    expect((await keys.list()).filter((key) => key.name.toLowerCase() === 'twin')).toHaveLength(1);
  });
});

describe('KeyService.revoke', () => {
  it('revokes by id or by the name of exactly one key, and says when it already was', async () => {
    const { keys, key } = await setUp();
    const first = await keys.revoke('Writer');
    expect(first).toMatchObject({ alreadyRevoked: false, key: { id: key.id, revokedAt: '2026-01-01T00:00:00.000Z', revokedBy: null, revokeReason: null } });
    expect(await keys.revoke(key.id)).toMatchObject({ alreadyRevoked: true, key: { id: key.id } });
    expect((await keys.verify((await keys.create({ name: 'Other', permissions: ['blog:read'] })).secret)).ok).toBe(true);
  });

  it('refuses an unknown id or name, and a name that several keys carry', async () => {
    const { keys, key } = await setUp();
    const problem = (work: Promise<unknown>) =>
      work.then(
        () => 'revoked',
        (error: unknown) => (error instanceof KeyError ? `${error.problem}: ${error.message}` : String(error)),
      );
    expect(await problem(keys.revoke('Nobody'))).toBe('not_found: No key has the id or name "Nobody".');
    await keys.revoke(key.id);
    await keys.create({ name: 'Writer', permissions: ['blog:write'] });
    // One active and one revoked "Writer": the name means the active one.
    expect((await keys.revoke('Writer')).alreadyRevoked).toBe(false);
    // Two revoked keys of that name: ambiguous.
    expect(await problem(keys.revoke('Writer'))).toBe('ambiguous: More than one key is named "Writer"; revoke by id instead.');
    await keys.create({ name: 'Writer', permissions: ['blog:write'] });
    const { key: other } = await keys.create({ name: 'Other', permissions: ['blog:write'] });
    expect((await keys.revoke(other.id)).key.name).toBe('Other');
  });

  it('refuses a name that two active keys carry, as two creations at the same moment could leave before the store checked names', async () => {
    const { store, keys, key } = await setUp();
    // Two `blogpost keys create Writer` run at once used to both pass the duplicate-name check before either
    // added its key. Restored as an export made back then holds them: add itself refuses the name now.
    const stored = await store.keys.findById(key.id);
    if (!stored) throw new Error('the key should be stored');
    await store.keys.restore({ ...stored, id: 'Twin000001', hash: hashApiKey('another secret') });
    const error: unknown = await keys.revoke('Writer').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyError);
    expect(error).toMatchObject({ problem: 'ambiguous', message: 'More than one key is named "Writer"; revoke by id instead.' });
    expect((await keys.list()).map((listed) => listed.revokedAt)).toEqual([null, null]);
  });

  it('says not_found when the key is gone from the store by the time it is revoked', async () => {
    const { store, clock } = await setUp();
    // Listed, then gone before the revocation is written (the file replaced by another process in between).
    const [stored] = await store.keys.list();
    if (!stored) throw new Error('the key should be stored');
    const ghost = { ...stored, id: 'Gone000001', name: 'Ghost' };
    const keys = new KeyService(withMember(store.keys, 'list', async () => [...(await store.keys.list()), ghost]), clock.now);
    const error: unknown = await keys.revoke('Ghost').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeyError);
    expect(error).toMatchObject({ problem: 'not_found', message: 'No key has the id "Gone000001".' });
  });

  it('names a single revoked key by its name', async () => {
    const { keys, key } = await setUp();
    await keys.revoke(key.id);
    expect(await keys.revoke('Writer')).toMatchObject({ alreadyRevoked: true, key: { id: key.id } });
  });
});

describe('KeyService lists', () => {
  it('lists and finds keys with their bookkeeping, never the hash', async () => {
    const { keys, key } = await setUp();
    await keys.revoke(key.id, { by: 'cli:jane', reason: '  left\n' });
    expect(await keys.list()).toEqual([{ id: key.id, name: 'Writer', owner: 'Writer', permissions: ['blog:write'], createdAt: '2026-01-01T00:00:00.000Z', lastUsedAt: null, revokedAt: '2026-01-01T00:00:00.000Z' }]);
    const details = { lastFailedAt: null, lastFailureCode: null, revokedBy: 'cli:jane', revokeReason: 'left' };
    expect(await keys.details()).toEqual([expect.objectContaining(details)]);
    expect(await keys.find(key.id)).toEqual(expect.objectContaining({ id: key.id, ...details }));
    expect(JSON.stringify(await keys.details())).not.toContain('sha256');
    expect(await keys.find('NoSuchKey1')).toBeUndefined();
  });
});

describe('KeyService.recordFailure', () => {
  it('writes a failure, skips the same code within a minute, and writes it again after', async () => {
    const { keys, key, clock } = await setUp();
    keys.recordFailure(key.id, 'invalid_api_key');
    await expect.poll(async () => (await keys.find(key.id))?.lastFailedAt).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(59_000);
    keys.recordFailure(key.id, 'invalid_api_key');
    clock.advance(500);
    keys.recordFailure(key.id, 'insufficient_permissions');
    await expect.poll(async () => (await keys.find(key.id))?.lastFailureCode).toBe('insufficient_permissions');
    expect((await keys.find(key.id))?.lastFailedAt).toBe('2026-01-01T00:00:59.500Z');
    clock.advance(30_000);
    keys.recordFailure(key.id, 'insufficient_permissions');
    clock.advance(30_000);
    keys.recordFailure(key.id, 'insufficient_permissions');
    await expect.poll(async () => (await keys.find(key.id))?.lastFailedAt).toBe('2026-01-01T00:01:59.500Z');
  });

  it('keeps the first time of a failure repeated within the minute', async () => {
    const { store, key, clock } = await setUp();
    const { repository, idle } = followed(store.keys);
    const keys = new KeyService(repository, clock.now);
    keys.recordFailure(key.id, 'invalid_api_key');
    await idle();
    clock.advance(59_999);
    keys.recordFailure(key.id, 'invalid_api_key');
    await idle();
    expect(await keys.find(key.id)).toMatchObject({ lastFailedAt: '2026-01-01T00:00:00.000Z', lastFailureCode: 'invalid_api_key' });
    clock.advance(1);
    keys.recordFailure(key.id, 'invalid_api_key');
    await idle();
    expect(await keys.find(key.id)).toMatchObject({ lastFailedAt: '2026-01-01T00:01:00.000Z', lastFailureCode: 'invalid_api_key' });
  });
});
