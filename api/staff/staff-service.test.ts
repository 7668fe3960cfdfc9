/** StaffService on the SQLite store in a temporary directory: rules, sessions ended, audit entries. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { openSqliteStore } from '../store/sql/sql-store';
import { sessionRecord } from '../../tests/support/store-contract';
import { verifyPassword } from './passwords';
import { StaffError, StaffService, type StaffStores } from './staff-service';

const PASSWORD = 'a quiet harbour at dawn';
const NOW = new Date('2026-11-25T10:00:00.000Z');
let dir = '';
let store: Store;
let stores: StaffStores;
let service: StaffService;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'iul-staff-service-'));
  store = await openSqliteStore(dir);
  stores = { staff: store.staff, sessions: store.sessions, audit: store.audit };
  service = new StaffService(stores, () => NOW);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A live session of `staffId`, started now. */
const session = (idHash: string, staffId: string) => sessionRecord(idHash, { staffId, createdAt: NOW.toISOString() });

async function problemOf(work: Promise<unknown>): Promise<string> {
  const error: unknown = await work.then(() => null, (caught: unknown) => caught);
  return error instanceof StaffError ? error.problem : `not a StaffError: ${String(error)}`;
}

describe('StaffService', () => {
  it('adds an account with a lower-cased e-mail and a hashed password, and audits it', async () => {
    const added = await service.add({ email: '  Jane@Example.COM ', name: ' Jane   Agent ', password: PASSWORD }, 'cli:root');
    expect(added).toMatchObject({ email: 'jane@example.com', name: 'Jane Agent', createdAt: NOW.toISOString(), disabledAt: null });
    expect(added.id).toMatch(/^stf_[A-Za-z0-9]{16}$/);
    expect(added).not.toHaveProperty('passwordHash');
    expect(await verifyPassword(PASSWORD, (await stores.staff.findById(added.id))?.passwordHash ?? '')).toBe(true);
    expect(await stores.audit.list()).toEqual([{ at: NOW.toISOString(), actor: 'cli:root', action: 'staff.added', target: 'jane@example.com', detail: { id: added.id }, ip: null }]);
  });

  it('refuses an invalid e-mail or name, a taken e-mail and a weak password, storing and auditing nothing', async () => {
    await service.add({ email: 'jane@example.com', name: 'Jane', password: PASSWORD }, 'cli:root');
    expect(await problemOf(service.add({ email: 'jane at example', name: 'X', password: PASSWORD }, 'cli:root'))).toBe('invalid_email');
    expect(await problemOf(service.add({ email: 'sam@example.com', name: '  ', password: PASSWORD }, 'cli:root'))).toBe('invalid_name');
    expect(await problemOf(service.add({ email: 'JANE@example.com', name: 'Jane', password: PASSWORD }, 'cli:root'))).toBe('email_taken');
    expect(await problemOf(service.add({ email: 'sam@example.com', name: 'Sam', password: 'password1234' }, 'cli:root'))).toBe('weak_password');
    expect(await stores.staff.list()).toHaveLength(1);
    expect(await stores.audit.list()).toHaveLength(1);
  });

  it('disables an account, ending its sessions only; a second disable is already_disabled', async () => {
    const jane = await service.add({ email: 'jane@example.com', name: 'Jane', password: PASSWORD }, 'cli:root');
    const sam = await service.add({ email: 'sam@example.com', name: 'Sam', password: 'seven green lanterns by the river' }, 'cli:root');
    await stores.sessions.create(session('a'.repeat(64), jane.id));
    await stores.sessions.create(session('b'.repeat(64), sam.id));
    const { staff, sessionsEnded } = await service.disable('Jane@example.com', 'cli:root', 'left the agency');
    expect(staff.disabledAt).toBe(NOW.toISOString());
    expect(sessionsEnded).toBe(1);
    expect(await stores.sessions.get('b'.repeat(64))).not.toBeNull();
    expect((await stores.audit.list()).at(-1)).toMatchObject({ action: 'staff.disabled', target: 'jane@example.com', detail: { id: jane.id, sessionsEnded: 1, reason: 'left the agency' } });
    expect(await problemOf(service.disable(jane.id, 'cli:root'))).toBe('already_disabled');
  });

  it('resets a password, ending the sessions, and checks the new one like a new account', async () => {
    const jane = await service.add({ email: 'jane@example.com', name: 'Jane Agent', password: PASSWORD }, 'cli:root');
    await stores.sessions.create(session('c'.repeat(64), jane.id));
    expect(await problemOf(service.resetPassword('jane@example.com', 'JaneAgent', 'cli:root'))).toBe('weak_password');
    const { sessionsEnded } = await service.resetPassword('jane@example.com', 'seven green lanterns by the river', 'staff:jane@example.com');
    expect(sessionsEnded).toBe(1);
    expect(await verifyPassword('seven green lanterns by the river', (await stores.staff.findById(jane.id))?.passwordHash ?? '')).toBe(true);
    expect((await stores.audit.list()).at(-1)).toMatchObject({ actor: 'staff:jane@example.com', action: 'staff.password_reset', detail: { sessionsEnded: 1 } });
    // Searched by another process (opening and closing the database file here would drop this process's
    // SQLite locks on it); grep exits 1 when nothing matches.
    const search = (text: string) => spawnSync('grep', ['-r', '-l', '-F', '-a', text, dir], { encoding: 'utf8' });
    expect(search('staff.password_reset').stdout).toContain('store.sqlite');
    expect(search('lanterns').status).toBe(1);
    expect(search('harbour').status).toBe(1);
  });

  it('suggests the closest e-mail for an unknown account', async () => {
    await service.add({ email: 'jane@example.com', name: 'Jane', password: PASSWORD }, 'cli:root');
    await expect(service.find('jane@exampel.com')).rejects.toThrow('Did you mean jane@example.com?');
    await expect(service.find('nobody@elsewhere.org')).rejects.toThrow(/^No staff account has the e-mail or id "nobody@elsewhere.org"\. List the accounts with: blogpost staff list$/);
  });
});
