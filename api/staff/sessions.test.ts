/**
 * Staff sessions as a staff member and an attacker meet them, on the SQLite store's repositories: the
 * cookies' names and attributes, which session ids are good (idle and absolute expiry, a disabled
 * account), sign-in (right and wrong password, unknown e-mail, throttling) with its audit entries,
 * sign-out of one session or all, and the CSRF and sign-in tokens forms carry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store/store';
import { openSqliteStore } from '../store/sql/sql-store';
import {
  clearedSessionCookie,
  cookie,
  cookieNames,
  csrfTokenFor,
  hashSessionId,
  loginCookie,
  loginTokenFor,
  newRandomId,
  sameToken,
  SESSION_ABSOLUTE_MS,
  SESSION_IDLE_MS,
  sessionCookie,
  StaffSessions,
} from './sessions';
import type { ThrottleSettings } from './sign-in-throttle';
import { StaffService, type StaffStores } from './staff-service';

const PASSWORD = 'a quiet harbour at dawn';
/** PASSWORD hashed with a small scrypt cost (the hash names its parameters), so sign-ins here are quick. */
const CHEAP_HASH = 'scrypt$1024$8$1$qw--87cwedkJ6q8dFQ8ycg$piQ7f8mF1JC1qMxOA6Ad5gW2Stg4EgSpgXk7q_EYKAw';
const CLIENT = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0' };
let dir = '';
let store: Store;
let stores: StaffStores;
let now = new Date('2026-11-25T10:00:00.000Z');
const clock = () => now;
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

beforeEach(async () => {
  now = new Date('2026-11-25T10:00:00.000Z');
  dir = mkdtempSync(path.join(os.tmpdir(), 'iul-staff-sessions-'));
  store = await openSqliteStore(dir);
  stores = { staff: store.staff, sessions: store.sessions, audit: store.audit };
  await stores.staff.add({
    id: 'stf_AAAAAAAAAAAAAAAA',
    email: 'jane@example.com',
    name: 'Jane',
    passwordHash: CHEAP_HASH,
    createdAt: now.toISOString(),
    passwordChangedAt: now.toISOString(),
    disabledAt: null,
  });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const sessions = (throttle?: Partial<ThrottleSettings>) => new StaffSessions(stores, { now: clock, ...(throttle ? { throttle } : {}) });

async function signedIn(service = sessions()) {
  const result = await service.signIn(' Jane@Example.com ', PASSWORD, CLIENT);
  if (!result.ok) throw new Error('sign-in should succeed');
  return result;
}

describe('cookies', () => {
  it('uses __Host- names over HTTPS and bare names over plain HTTP', () => {
    expect(cookieNames(true)).toEqual({ session: '__Host-staff_session', login: '__Host-staff_login', device: '__Host-staff_device' });
    expect(cookieNames(false)).toEqual({ session: 'staff_session', login: 'staff_login', device: 'staff_device' });
  });

  it('sets HttpOnly, SameSite=Lax, Path=/ and Secure only over HTTPS, for 12 hours (session) or 1 hour (sign-in form)', () => {
    expect(cookie('n', 'v', { secure: true, maxAgeSeconds: 5 })).toBe('n=v; Path=/; Max-Age=5; HttpOnly; SameSite=Lax; Secure');
    expect(sessionCookie('abc', false)).toBe('staff_session=abc; Path=/; Max-Age=43200; HttpOnly; SameSite=Lax');
    expect(loginCookie('xyz', true)).toBe('__Host-staff_login=xyz; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure');
    expect(clearedSessionCookie(true)).toBe('__Host-staff_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure');
    expect(SESSION_IDLE_MS).toBe(30 * 60 * 1000);
    expect(SESSION_ABSOLUTE_MS).toBe(12 * 60 * 60 * 1000);
  });
});

describe('tokens', () => {
  it('derives a CSRF token per session and a sign-in token per cookie, different from each other', () => {
    const id = newRandomId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newRandomId()).not.toBe(id);
    expect(csrfTokenFor(id)).toBe(csrfTokenFor(id));
    expect(csrfTokenFor(id)).not.toBe(csrfTokenFor(newRandomId()));
    expect(loginTokenFor(id)).not.toBe(csrfTokenFor(id));
    expect(csrfTokenFor('s')).toBe('nT0odu-1KT8rLtH45HpqkiM4JvN9zQcHTqlqjwjV89A');
    expect(loginTokenFor('s')).toBe('Z7Wc8yyfCukVTrHdjBZLK_LGAN39TVCr7cK7PhCMQ5U');
  });

  it('compares tokens exactly', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abc', 'abd')).toBe(false);
    expect(sameToken('abc', 'abcd')).toBe(false);
    expect(sameToken('abc', '')).toBe(false);
  });

  it('stores a session id only as its SHA-256', () => {
    expect(hashSessionId('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('StaffSessions', () => {
  it('signs in with the right password (any case and spaces in the e-mail), storing the session and auditing it', async () => {
    const result = await signedIn();
    expect(result.staff.email).toBe('jane@example.com');
    const stored = await stores.sessions.get(hashSessionId(result.sessionId));
    expect(stored).toMatchObject({
      staffId: result.staff.id,
      createdAt: '2026-11-25T10:00:00.000Z',
      lastSeenAt: '2026-11-25T10:00:00.000Z',
      expiresAt: '2026-11-25T22:00:00.000Z',
      ip: CLIENT.ip,
      userAgent: CLIENT.userAgent,
    });
    expect((await stores.audit.list()).at(-1)).toEqual({
      at: '2026-11-25T10:00:00.000Z',
      actor: 'staff:jane@example.com',
      action: 'staff.signed_in',
      target: 'jane@example.com',
      detail: {},
      ip: CLIENT.ip,
    });
  });

  it('keeps at most 512 characters of the user agent', async () => {
    const result = await sessions().signIn('jane@example.com', PASSWORD, { ip: CLIENT.ip, userAgent: 'u'.repeat(600) });
    if (!result.ok) throw new Error('sign-in should succeed');
    expect((await stores.sessions.get(hashSessionId(result.sessionId)))?.userAgent).toBe('u'.repeat(512));
  });

  it('refuses a wrong password and an unknown e-mail alike, auditing each, an unknown e-mail only as a keyed hash', async () => {
    const service = sessions();
    expect(await service.signIn('jane@example.com', 'wrong password here', CLIENT)).toEqual({ ok: false, retryAfterSeconds: null });
    expect(await service.signIn('nobody@example.com', PASSWORD, CLIENT)).toEqual({ ok: false, retryAfterSeconds: null });
    expect(await service.signIn(' Nobody@Example.com', PASSWORD, CLIENT)).toEqual({ ok: false, retryAfterSeconds: null });
    expect(await service.signIn('someone.else@example.com', PASSWORD, CLIENT)).toEqual({ ok: false, retryAfterSeconds: null });
    const audit = (await stores.audit.list()).slice(-4);
    expect(audit.map((entry) => [entry.actor, entry.action, entry.target, entry.detail.reason])).toEqual([
      ['visitor', 'staff.sign_in_failed', 'jane@example.com', 'wrong'],
      ['visitor', 'staff.sign_in_failed', null, 'unknown_email'],
      ['visitor', 'staff.sign_in_failed', null, 'unknown_email'],
      ['visitor', 'staff.sign_in_failed', null, 'unknown_email'],
    ]);
    // The same text typed again has the same hash, another text another; the text itself is nowhere.
    const hashes = audit.slice(1).map((entry) => entry.detail.emailHash);
    expect(hashes[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(hashes[1]).toBe(hashes[0]);
    expect(hashes[2]).not.toBe(hashes[0]);
    expect(JSON.stringify(await stores.audit.list())).not.toMatch(/nobody|someone\.else/i);
  });

  it('refuses a disabled account even with the right password, and ends its sessions', async () => {
    const service = sessions();
    const { sessionId } = await signedIn(service);
    await new StaffService(stores, clock).disable('jane@example.com', 'cli:root');
    expect(await service.signIn('jane@example.com', PASSWORD, CLIENT)).toEqual({ ok: false, retryAfterSeconds: null });
    expect((await stores.audit.list()).at(-1)?.detail).toEqual({ reason: 'disabled' });
    expect(await service.resolve(sessionId)).toBeNull();
  });

  it('throttles an account at an address after its free failures, even for the right password, and says how long to wait', async () => {
    const service = sessions({ pairFree: 2 });
    await service.signIn('jane@example.com', 'wrong one', CLIENT);
    await service.signIn('jane@example.com', 'wrong two', CLIENT);
    const throttled = await service.signIn('jane@example.com', PASSWORD, CLIENT);
    expect(throttled.ok).toBe(false);
    expect(!throttled.ok && throttled.retryAfterSeconds).toBeGreaterThan(0);
    expect((await stores.audit.list()).at(-1)).toMatchObject({ action: 'staff.sign_in_failed', detail: { reason: 'throttled' } });
  });

  it('lets the staff member in on a device they signed in on, however many failures come from elsewhere', async () => {
    const service = sessions({ accountFree: 3 });
    const { deviceToken } = await signedIn(service);
    const elsewhere = { ip: '198.51.100.1', userAgent: 'curl/8' };
    for (let i = 0; i < 3; i++) await service.signIn('jane@example.com', `guess ${i}`, { ...elsewhere, ip: `198.51.100.${i}` });
    const laptop = { ip: '192.0.2.44', userAgent: 'Mozilla/5.0' };
    // A browser that never signed in as Jane waits; hers does not, from a new address too.
    expect(await service.signIn('jane@example.com', PASSWORD, laptop)).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
    expect((await service.signIn('jane@example.com', PASSWORD, laptop, deviceToken)).ok).toBe(true);
    // Altered, or from before a new password: not her device.
    const [id, issued, mac = ''] = deviceToken.split('.');
    const altered = `${id}.${issued}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await service.signIn('jane@example.com', PASSWORD, laptop, altered)).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
    await new StaffService(stores, clock).resetPassword('jane@example.com', 'a brand new passphrase 77', 'cli:root');
    expect(await service.signIn('jane@example.com', 'a brand new passphrase 77', laptop, deviceToken)).toMatchObject({ ok: false, retryAfterSeconds: expect.any(Number) });
  });

  it('resolves a good session, moving its idle expiry, and none for an unknown, empty or oversized id', async () => {
    const service = sessions();
    const { sessionId, staff } = await signedIn(service);
    advance(10 * 60 * 1000);
    const active = await service.resolve(sessionId);
    expect(active).toMatchObject({ sessionId, staff: { id: staff.id } });
    expect((await stores.sessions.get(hashSessionId(sessionId)))?.lastSeenAt).toBe('2026-11-25T10:10:00.000Z');
    expect(await service.resolve(undefined)).toBeNull();
    expect(await service.resolve('')).toBeNull();
    expect(await service.resolve(newRandomId())).toBeNull();
    expect(await service.resolve('x'.repeat(201))).toBeNull();
  });

  it('ends a session idle for more than 30 minutes', async () => {
    const service = sessions();
    const { sessionId } = await signedIn(service);
    advance(SESSION_IDLE_MS);
    expect(await service.resolve(sessionId)).not.toBeNull();
    advance(SESSION_IDLE_MS + 1);
    expect(await service.resolve(sessionId)).toBeNull();
    expect(await stores.sessions.get(hashSessionId(sessionId))).toBeNull();
  });

  it('ends a session 12 hours after sign-in, however active', async () => {
    const service = sessions();
    const { sessionId } = await signedIn(service);
    for (let step = 0; step < 24; step++) {
      advance(SESSION_IDLE_MS - 1);
      expect(await service.resolve(sessionId), `step ${step}`).not.toBeNull();
    }
    advance(SESSION_ABSOLUTE_MS - 24 * (SESSION_IDLE_MS - 1));
    expect(await service.resolve(sessionId)).toBeNull();
    expect(await stores.sessions.get(hashSessionId(sessionId))).toBeNull();
  });

  it('signs out one session, or every session of the account, auditing which', async () => {
    const service = sessions();
    const first = await signedIn(service);
    const second = await signedIn(service);
    const active = await service.resolve(first.sessionId);
    if (!active) throw new Error('the session should be good');
    await service.signOut(active, false, CLIENT);
    expect(await service.resolve(first.sessionId)).toBeNull();
    expect(await service.resolve(second.sessionId)).not.toBeNull();
    expect((await stores.audit.list()).at(-1)).toMatchObject({ actor: 'staff:jane@example.com', action: 'staff.signed_out', target: 'jane@example.com' });
    const third = await signedIn(service);
    const again = await service.resolve(second.sessionId);
    if (!again) throw new Error('the session should be good');
    await service.signOut(again, true, CLIENT);
    expect(await service.resolve(second.sessionId)).toBeNull();
    expect(await service.resolve(third.sessionId)).toBeNull();
    expect((await stores.audit.list()).at(-1)).toMatchObject({ action: 'staff.signed_out_everywhere' });
  });

  it('purges idle and expired sessions, keeping good ones', async () => {
    const service = sessions();
    const old = await signedIn(service);
    advance(SESSION_IDLE_MS - 1000);
    const fresh = await signedIn(service);
    advance(2000);
    expect(await service.purgeExpired()).toBe(1);
    expect(await stores.sessions.get(hashSessionId(old.sessionId))).toBeNull();
    expect(await stores.sessions.get(hashSessionId(fresh.sessionId))).not.toBeNull();
  });

  it('ends the sessions of an account disabled behind its back, and of one removed', async () => {
    const service = sessions();
    const { sessionId, staff } = await signedIn(service);
    await stores.staff.update(staff.id, { disabledAt: now.toISOString() });
    expect(await service.resolve(sessionId)).toBeNull();
    expect(await stores.sessions.get(hashSessionId(sessionId))).toBeNull();
  });

  it('audits a failed sign-in under the e-mail as typed, trimmed and lower-cased', async () => {
    await sessions().signIn('  Jane@Example.com ', 'wrong password here', CLIENT);
    expect((await stores.audit.list()).at(-1)).toMatchObject({ target: 'jane@example.com', detail: { reason: 'wrong' } });
  });

  it('dates sessions by the real clock when given none', async () => {
    const before = Date.now();
    const result = await new StaffSessions(stores).signIn('jane@example.com', PASSWORD, CLIENT);
    if (!result.ok) throw new Error('sign-in should succeed');
    const createdAt = Date.parse((await stores.sessions.get(hashSessionId(result.sessionId)))?.createdAt ?? '');
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000);
  });
});
