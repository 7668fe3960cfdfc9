/**
 * The store's repositories of keys, leads, staff, sessions, the audit log, media and the shared rate
 * limits on PostgreSQL, as two app servers use them: two stores opened through the seam
 * (openPostgresStore, each with its own connection pool) on one database of the throwaway test server.
 * What one instance changes, the other sees on its next call; changes made at once on both apply one
 * after the other (none lost); uniqueness (a key id, an active key's name and a staff e-mail in any
 * case, one picture) holds across instances; and a lead, a medium or a delete is stored whole or not at all.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { LeadRecord } from '../../contract/leads';
import { StoreError } from '../../api/store/store-error';
import { auditEntry, deliveryRecord, keyRecord, leadRecord, mediaFiles, mediaRecord, sessionRecord, staffRecord } from '../support/store-contract';
import type { SharedRateLimits, Store } from '../../api/store/store';
import { type OpenSqlStoreOptions, openPostgresStore } from '../../api/store/sql/sql-store';
import { freshDatabase } from '../support/postgres-cluster';

const opened: Store[] = [];

/** One app server's store over its own pool. */
async function instance(url: string, options: OpenSqlStoreOptions = {}): Promise<Store> {
  const store = await openPostgresStore(url, 'PostgreSQL', options);
  opened.push(store);
  return store;
}

/** A new database on the test server, migrated by A, and two instances on it; B may be given options (a failing statement, a clock). */
async function twoInstances(optionsOfB: OpenSqlStoreOptions = {}, optionsOfA: OpenSqlStoreOptions = {}): Promise<{ a: Store; b: Store }> {
  const url = await freshDatabase(inject('postgresUrl'), 'repositories');
  const a = await instance(url, optionsOfA);
  const b = await instance(url, optionsOfB);
  return { a, b };
}

/** The shared rate limits of a PostgreSQL store (every server on the database draws from the same buckets). */
function rateLimitsOf(store: Store): SharedRateLimits {
  if (!store.rateLimits) throw new Error('a PostgreSQL store shares its rate limits');
  return store.rateLimits;
}

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
});

const note = (text: string) => (lead: LeadRecord): LeadRecord => ({ ...lead, agentNotes: [...lead.agentNotes, { at: '2026-03-04T00:00:00.000Z', by: 'test', text }] });

describe('The store on PostgreSQL shared by two instances', () => {
  it('applies every one of many changes made at once to one lead from two instances', async () => {
    const { a, b } = await twoInstances();
    const lead = leadRecord('lead_AAAAAAAAAAAAAAAAAAAA');
    await a.leads.create(lead, [deliveryRecord(lead, 'email')]);
    const texts = Array.from({ length: 20 }, (_, index) => `note ${index}`);
    await Promise.all(texts.map((text, index) => (index % 2 === 0 ? a : b).leads.update(lead.id, note(text))));
    const stored = await b.leads.get(lead.id);
    expect([...(stored?.agentNotes.map((item) => item.text) ?? [])].sort()).toEqual([...texts].sort());
    // An error thrown by the change comes back as it was, and nothing is stored.
    const refusal = new Error('not allowed');
    await expect(a.leads.update(lead.id, () => { throw refusal; })).rejects.toBe(refusal);
    expect(await a.leads.get(lead.id)).toEqual(stored);
  });

  it('stores a lead and its notifications together or not at all, and deletes both', async () => {
    // Armed, the second insert into leads or outbox fails as a full disk does: whichever of the
    // lead and its notifications is written first was written when the other failed.
    let insertsToFail: number | null = null;
    const { a, b } = await twoInstances({
      beforeQuery: (sql) => {
        if (insertsToFail === null || !/^\s*insert into "?(leads|outbox)\b/i.test(sql)) return;
        insertsToFail += 1;
        if (insertsToFail === 2) throw Object.assign(new Error('could not extend file: No space left on device'), { code: '53100' });
      },
    });
    const lead = leadRecord('lead_BBBBBBBBBBBBBBBBBBBB');
    insertsToFail = 0;
    const error = await b.leads.create(lead, [deliveryRecord(lead, 'email'), deliveryRecord(lead, 'webhook')]).catch((e: unknown) => e);
    const inserts = insertsToFail;
    insertsToFail = null;
    expect(inserts, 'the lead and its notifications are two inserts at least').toBe(2);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).problem).toBe('full');
    // What was written before the failure went with it.
    expect(await a.outbox.pending()).toEqual([]);
    expect(await a.leads.get(lead.id)).toBeNull();

    await b.leads.create(lead, [deliveryRecord(lead, 'email'), deliveryRecord(lead, 'webhook')]);
    expect((await a.outbox.forLead(lead.id)).map((delivery) => delivery.channel)).toEqual(['email', 'webhook']);
    expect(await a.leads.delete(lead.id)).toBe(true);
    expect(await b.leads.get(lead.id)).toBeNull();
    expect(await b.outbox.forLead(lead.id)).toEqual([]);
    expect(await b.leads.delete(lead.id)).toBe(false);
  });

  it('lists pending notifications earliest due first across instances, and a sent one no more', async () => {
    const { a, b } = await twoInstances();
    const first = leadRecord('lead_CCCCCCCCCCCCCCCCCCCC', { createdAt: '2026-03-01T10:00:00.000Z' });
    const second = leadRecord('lead_DDDDDDDDDDDDDDDDDDDD', { createdAt: '2026-03-02T10:00:00.000Z' });
    await a.leads.create(first, [deliveryRecord(first, 'email', { nextAttemptAt: '2026-03-05T00:00:00.000Z' }), deliveryRecord(first, 'webhook', { nextAttemptAt: null })]);
    await b.leads.create(second, [deliveryRecord(second, 'email', { nextAttemptAt: '2026-03-03T00:00:00.000Z' })]);
    expect((await b.outbox.pending()).map((delivery) => delivery.id)).toEqual([`${first.id}.webhook`, `${second.id}.email`, `${first.id}.email`]);
    await a.outbox.save(deliveryRecord(second, 'email', { attempts: 1, sentAt: '2026-03-03T00:00:01.000Z', nextAttemptAt: null }));
    expect((await b.outbox.pending()).map((delivery) => delivery.id)).toEqual([`${first.id}.webhook`, `${first.id}.email`]);
    expect(await b.outbox.forLead(second.id)).toEqual([deliveryRecord(second, 'email', { attempts: 1, sentAt: '2026-03-03T00:00:01.000Z', nextAttemptAt: null })]);
    await b.outbox.remove(`${first.id}.webhook`);
    expect((await a.outbox.pending()).map((delivery) => delivery.id)).toEqual([`${first.id}.email`]);
    expect((await a.leads.list()).map((lead) => lead.id)).toEqual([second.id, first.id]);
  });

  it('keeps key changes made at once on two instances, and refuses a key id taken on the other', async () => {
    const { a, b } = await twoInstances();
    await a.keys.add(keyRecord('AAAAAAAAAA'));
    const taken = await b.keys.add(keyRecord('AAAAAAAAAA', { name: 'again' })).catch((e: unknown) => e);
    expect(taken).toMatchObject({ problem: 'conflict' });
    const uses = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? a : b).keys.update('AAAAAAAAAA', { lastUsedAt: `2026-02-01T00:00:0${index}.000Z` }));
    await Promise.all([...uses, b.keys.update('AAAAAAAAAA', { revokedAt: '2026-02-02T00:00:00.000Z', revokedBy: 'cli:jane' })]);
    expect(await a.keys.findById('AAAAAAAAAA')).toMatchObject({ name: 'key AAAAAAAAAA', revokedAt: '2026-02-02T00:00:00.000Z', revokedBy: 'cli:jane', lastUsedAt: expect.stringMatching(/^2026-02-01T/) });
    await b.keys.add(keyRecord('BBBBBBBBBB'));
    expect((await a.keys.list()).map((key) => key.id)).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB']);
    expect(await a.keys.demoKeyIssuedAt()).toBeNull();
    await b.keys.markDemoKeyIssued(new Date('2026-01-02T00:00:00.000Z'));
    expect(await a.keys.demoKeyIssuedAt()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('adds one active key of a name when both instances add one of that name (in any case) at once, several times over', async () => {
    const { a, b } = await twoInstances();
    for (const round of [1, 2, 3]) {
      const answers = await Promise.all([a.keys.add(keyRecord(`A00000000${round}`, { name: `Twin ${round}` })), b.keys.add(keyRecord(`B00000000${round}`, { name: `TWIN ${round}` }))]);
      expect([...answers].sort()).toEqual(['added', 'name_taken']);
    }
    expect(await a.keys.list()).toHaveLength(3);
  });

  it('refuses a staff e-mail that differs only in case, even when both instances add it at once', async () => {
    const { a, b } = await twoInstances();
    const added = await Promise.allSettled([
      a.staff.add(staffRecord('stf_AAAAAAAAAAAAAAAA', { email: 'jane@example.com' })),
      b.staff.add(staffRecord('stf_BBBBBBBBBBBBBBBB', { email: ' JANE@Example.COM' })),
    ]);
    expect(added.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const refused = added.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(StoreError);
    expect((refused?.reason as StoreError).problem).toBe('conflict');
    expect((refused?.reason as StoreError).message).toContain('e-mail');
    expect(await b.staff.list()).toHaveLength(1);
    const jane = await a.staff.findByEmail('Jane@example.com');
    expect(jane).toBeDefined();
    const sameId = await b.staff.add(staffRecord(jane?.id ?? '', { email: 'other@example.com' })).catch((e: unknown) => e);
    expect(sameId).toMatchObject({ problem: 'conflict', message: expect.stringContaining('the id') });
    // Changes on both instances at once both apply.
    await Promise.all([a.staff.update(jane?.id ?? '', { name: 'Jane A. Agent' }), b.staff.update(jane?.id ?? '', { disabledAt: '2026-11-04T00:00:00.000Z' })]);
    expect(await b.staff.findById(jane?.id ?? '')).toMatchObject({ name: 'Jane A. Agent', disabledAt: '2026-11-04T00:00:00.000Z' });
  });

  it('signs a session in on one instance and ends it from the other', async () => {
    const { a, b } = await twoInstances();
    const session = sessionRecord('1'.repeat(64), { createdAt: '2026-11-01T10:00:00.000Z' });
    await a.sessions.create(session);
    await a.sessions.create(sessionRecord('2'.repeat(64), { staffId: session.staffId }));
    expect(await b.sessions.get(session.idHash)).toEqual(session);
    await b.sessions.touch(session.idHash, '2026-11-01T10:00:30.000Z');
    expect((await a.sessions.get(session.idHash))?.lastSeenAt).toBe(session.lastSeenAt);
    await b.sessions.touch(session.idHash, '2026-11-01T10:05:00.000Z');
    expect((await a.sessions.get(session.idHash))?.lastSeenAt).toBe('2026-11-01T10:05:00.000Z');
    expect(await a.sessions.purgeExpired('2026-11-01T10:30:00.000Z', '2026-11-01T10:05:00.000Z')).toBe(1);
    expect(await b.sessions.get('2'.repeat(64))).toBeNull();
    expect(await b.sessions.deleteForStaff(session.staffId)).toBe(1);
    expect(await a.sessions.get(session.idHash)).toBeNull();
  });

  it('lists audit entries of both instances oldest first by time, whatever the time zone they were written in', async () => {
    const { a, b } = await twoInstances();
    await a.audit.append(auditEntry({ at: '2026-11-02T08:00:00.000Z', target: 'third' }));
    // 09:30 in UTC+2 is 07:30 UTC: before the entry above.
    await b.audit.append(auditEntry({ at: '2026-11-02T09:30:00.000+02:00', target: 'second' }));
    await a.audit.append(auditEntry({ at: '2026-11-01T00:00:00.000Z', target: 'first' }));
    await b.audit.append(auditEntry({ at: '2026-11-02T08:00:00.000Z', target: 'fourth' }));
    expect((await a.audit.list()).map((entry) => entry.target)).toEqual(['first', 'second', 'third', 'fourth']);
    expect((await b.audit.list({ since: '2026-11-02T07:30:00.000Z' })).map((entry) => entry.target)).toEqual(['second', 'third', 'fourth']);
    expect((await b.audit.list({ limit: 2 })).map((entry) => entry.target)).toEqual(['third', 'fourth']);
    await expect(a.audit.list({ since: 'yesterday' })).rejects.toMatchObject({ problem: 'corrupt' });
    await expect(a.audit.append({ ...auditEntry(), actor: '' })).rejects.toMatchObject({ problem: 'corrupt' });
    expect(await b.audit.list()).toHaveLength(4);
  });

  it('stores one picture uploaded on two instances at once once, with both owners and its files', async () => {
    const { a, b } = await twoInstances();
    const id = 'a'.repeat(32);
    const record = mediaRecord(id, { owners: ['alice'] });
    const files = mediaFiles(record);
    const outcomes = await Promise.all([a.media.save(record, files), b.media.save(mediaRecord(id, { owners: ['bob'] }), files)]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['created', 'existing']);
    expect([...((await b.media.get(id))?.owners ?? [])].sort()).toEqual(['alice', 'bob']);
    expect(await b.media.read(`${id}-960.webp`)).toEqual(files.get(`${id}-960.webp`));
    expect((await a.media.list({ owner: 'bob' })).map((medium) => medium.id)).toEqual([id]);
    expect(await b.media.delete(id)).toBe(true);
    expect(await a.media.get(id)).toBeNull();
    expect(await a.media.read(`${id}-480.webp`)).toBeNull();
  });

  it('refills a shared rate limit to exactly its size one window after it was drained, on either instance', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const clock = { now: () => new Date(now) };
    const { a, b } = await twoInstances(clock, clock);
    // 59 a minute: 59 / 60,000 a millisecond, times 60,000, would be 58.99999999999999.
    const onA = rateLimitsOf(a).limit('writes', 59);
    const onB = rateLimitsOf(b).limit('writes', 59);
    for (let i = 0; i < 59; i++) await (i % 2 === 0 ? onA : onB).take('key-1');
    expect(await onB.take('key-1')).toEqual({ allowed: false, retryAfterSeconds: 2 });
    now += 60_000;
    expect(await onA.take('key-1')).toEqual({ allowed: true, remaining: 58 });
  });
});
