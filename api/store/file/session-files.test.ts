/** Sign-in sessions in sessions/<idHash>.json: through the SessionRepository interface, on real files, reopened. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../../contract/staff';
import { sessionRecord } from '../store-contract';
import { DurableWriter } from './durable-writer';
import { FileSessionRepository } from './session-files';

const dirs: string[] = [];
/** A sessions folder (as openFileStore makes it), or only where it would be. */
function sessionsDir(made = true): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-sessions-'));
  dirs.push(dir);
  const sessions = path.join(dir, 'sessions');
  if (made) mkdirSync(sessions);
  return sessions;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

/** A session of stf_AAAAAAAAAAAAAAAA created 2026-11-01T10:00Z, ending 12 hours later, stored under the hash of `id`. */
const session = (id: string, overrides: Partial<SessionRecord> = {}): SessionRecord => sessionRecord(hashOf(id), overrides);

describe('FileSessionRepository', () => {
  it('creates a session under the hash of its id and reads it back after a reopen; never the id itself', async () => {
    const dir = sessionsDir();
    const sessions = new FileSessionRepository(dir, new DurableWriter());
    await sessions.create(session('secret-session-id'));
    expect(readdirSync(dir)).toEqual([`${hashOf('secret-session-id')}.json`]);
    const reopened = new FileSessionRepository(dir, new DurableWriter());
    expect(await reopened.get(hashOf('secret-session-id'))).toEqual(session('secret-session-id'));
    expect(await reopened.get(hashOf('another'))).toBeNull();
  });

  it('never builds a path from anything but 64 hex characters', async () => {
    const sessions = new FileSessionRepository(sessionsDir(), new DurableWriter());
    for (const bad of ['../staff', `${'a'.repeat(63)}/`, 'A'.repeat(64), '']) {
      expect(await sessions.get(bad)).toBeNull();
      expect(await sessions.delete(bad)).toBe(false);
      await sessions.touch(bad, '2026-11-01T11:00:00.000Z');
    }
    await expect(sessions.create(session('x', { idHash: '../../etc/passwd' }))).rejects.toMatchObject({ problem: 'corrupt' });
  });

  it('touch moves lastSeenAt only when it moved a minute or more', async () => {
    const sessions = new FileSessionRepository(sessionsDir(), new DurableWriter());
    await sessions.create(session('a'));
    await sessions.touch(hashOf('a'), '2026-11-01T10:00:59.000Z');
    expect((await sessions.get(hashOf('a')))?.lastSeenAt).toBe('2026-11-01T10:00:00.000Z');
    await sessions.touch(hashOf('a'), '2026-11-01T10:01:00.000Z');
    expect((await sessions.get(hashOf('a')))?.lastSeenAt).toBe('2026-11-01T10:01:00.000Z');
    await sessions.touch(hashOf('gone'), '2026-11-01T10:05:00.000Z');
    expect(await sessions.get(hashOf('gone'))).toBeNull();
  });

  it('deletes one session, and every session of one staff member', async () => {
    const dir = sessionsDir();
    const sessions = new FileSessionRepository(dir, new DurableWriter());
    await sessions.create(session('a'));
    await sessions.create(session('b'));
    await sessions.create(session('c', { staffId: 'stf_BBBBBBBBBBBBBBBB' }));
    expect(await sessions.delete(hashOf('a'))).toBe(true);
    expect(await sessions.delete(hashOf('a'))).toBe(false);
    expect(await sessions.deleteForStaff('stf_AAAAAAAAAAAAAAAA')).toBe(1);
    expect(await new FileSessionRepository(dir, new DurableWriter()).get(hashOf('c'))).not.toBeNull();
    expect(readdirSync(dir)).toEqual([`${hashOf('c')}.json`]);
  });

  it('purges sessions past their end or idle since before the cutoff, and damaged session files', async () => {
    const dir = sessionsDir();
    const sessions = new FileSessionRepository(dir, new DurableWriter());
    await sessions.create(session('ended', { expiresAt: '2026-11-01T11:00:00.000Z' }));
    await sessions.create(session('idle', { lastSeenAt: '2026-11-01T09:00:00.000Z' }));
    await sessions.create(session('active', { lastSeenAt: '2026-11-01T10:30:00.000Z' }));
    writeFileSync(path.join(dir, `${hashOf('damaged')}.json`), '{"idHash":');
    expect(await sessions.get(hashOf('damaged'))).toBeNull();
    expect(await sessions.purgeExpired('2026-11-01T11:00:00.000Z', '2026-11-01T10:00:00.000Z')).toBe(3);
    expect(readdirSync(dir)).toEqual([`${hashOf('active')}.json`]);
  });

  it('has nothing to end when the folder does not exist yet', async () => {
    const sessions = new FileSessionRepository(sessionsDir(false), new DurableWriter());
    expect(await sessions.deleteForStaff('stf_AAAAAAAAAAAAAAAA')).toBe(0);
    expect(await sessions.purgeExpired('2026-11-01T11:00:00.000Z', '2026-11-01T10:00:00.000Z')).toBe(0);
  });
});
