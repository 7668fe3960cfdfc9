/**
 * Staff accounts, their sign-in sessions and the audit log in the database (`staff`, `staff_sessions`,
 * `audit_log`), each record whole as JSON. An account's e-mail is also kept trimmed and in lower case in
 * the unique `email` column, so two accounts differing only in case are refused by the database itself,
 * even when two processes add them at once. Sessions live in the database, so a visitor signed in on one
 * server is signed in on all, and `blogpost staff disable` ends them everywhere. Nothing is held in memory.
 */
import { randomBytes } from 'node:crypto';
import type { AuditEntry, SessionRecord, StaffRecord } from '../../../contract/staff';
import { auditEntrySchema } from '../records';
import type { AuditLog, SessionRepository, StaffPatch, StaffRepository } from '../store';
import { StoreError } from '../store-error';
import type { Db, SqlDatabase, Tx } from './database';

/** `touch` skips the write when `lastSeenAt` would move less than this: a busy session does not write on every request (the idle expiry is then at most a minute generous). */
export const TOUCH_RESOLUTION_MS = 60_000;

/** The hex SHA-256 of a session id. */
export const ID_HASH = /^[0-9a-f]{64}$/;

/** The e-mail as the unique column holds it: accounts are matched without regard to case. */
const emailKey = (email: string) => email.trim().toLowerCase();

export class SqlStaffRepository implements StaffRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  /** In the order they were added. */
  async list(): Promise<StaffRecord[]> {
    const rows = await this.#database.read('read the staff accounts', (db) => db.selectFrom('staff').select('record').orderBy('seq').execute());
    return rows.map((row) => JSON.parse(row.record) as StaffRecord);
  }

  async findById(id: string): Promise<StaffRecord | undefined> {
    const row = await this.#database.read('read a staff account', (db) => db.selectFrom('staff').select('record').where('id', '=', id).executeTakeFirst());
    return row ? (JSON.parse(row.record) as StaffRecord) : undefined;
  }

  async findByEmail(email: string): Promise<StaffRecord | undefined> {
    const row = await this.#database.read('read a staff account', (db) => db.selectFrom('staff').select('record').where('email', '=', emailKey(email)).executeTakeFirst());
    return row ? (JSON.parse(row.record) as StaffRecord) : undefined;
  }

  /**
   * A StoreError ('conflict') naming what is taken when the id or the e-mail (in any case) exists, also
   * when another process added it between the check and the insert (the unique columns refuse it then).
   */
  async add(record: StaffRecord): Promise<void> {
    const taken = (what: string) => new StoreError('conflict', this.#database.where, `A staff account with ${what} exists already.`);
    await this.#database.write('add a staff account', async (tx) => {
      const existing = await tx
        .selectFrom('staff')
        .select(['id', 'email'])
        .where((eb) => eb.or([eb('id', '=', record.id), eb('email', '=', emailKey(record.email))]))
        .executeTakeFirst();
      if (existing) throw taken(existing.id === record.id ? `the id ${record.id}` : `the e-mail ${record.email}`);
      await tx.insertInto('staff').values({ id: record.id, email: emailKey(record.email), record: JSON.stringify(record) }).execute();
    }).catch((error: unknown) => {
      if (error instanceof StoreError && error.problem === 'conflict' && !error.message.startsWith('A staff account')) {
        throw taken(/email/i.test(error.message) ? `the e-mail ${record.email}` : `the id ${record.id}`);
      }
      throw error;
    });
  }

  /** The patch applied to the account as stored; a field given as undefined keeps its value. */
  update(id: string, patch: StaffPatch): Promise<StaffRecord | undefined> {
    return this.#database.write('change a staff account', async (tx) => {
      const row = await tx
        .selectFrom('staff')
        .select('record')
        .where('id', '=', id)
        .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) return undefined;
      const current = JSON.parse(row.record) as StaffRecord;
      const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as StaffPatch;
      const updated: StaffRecord = { ...current, ...given, id: current.id };
      await tx.updateTable('staff').set({ email: emailKey(updated.email), record: JSON.stringify(updated) }).where('id', '=', id).execute();
      return updated;
    });
  }
}

/** A time as milliseconds, for the columns purges compare (a time that does not parse counts as long past). */
const ms = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? 0 : time;
};

export class SqlSessionRepository implements SessionRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  /** Stores a session (one stored again under its hash is replaced). */
  async create(record: SessionRecord): Promise<void> {
    if (!ID_HASH.test(record.idHash)) throw new StoreError('corrupt', record.idHash, 'A session is stored under the hex SHA-256 of its id (64 characters 0-9a-f).');
    const values = { staff_id: record.staffId, expires_at_ms: ms(record.expiresAt), last_seen_at_ms: ms(record.lastSeenAt), record: JSON.stringify(record) };
    await this.#database.write('store a sign-in session', (tx) =>
      tx
        .insertInto('staff_sessions')
        .values({ id_hash: record.idHash, ...values })
        .onConflict((oc) => oc.column('id_hash').doUpdateSet(values))
        .execute(),
    );
  }

  async get(idHash: string): Promise<SessionRecord | null> {
    if (!ID_HASH.test(idHash)) return null;
    const row = await this.#database.read('read a sign-in session', (db) => db.selectFrom('staff_sessions').select('record').where('id_hash', '=', idHash).executeTakeFirst());
    return row ? (JSON.parse(row.record) as SessionRecord) : null;
  }

  /** Moves `lastSeenAt` only when it moves a minute or more (TOUCH_RESOLUTION_MS). */
  async touch(idHash: string, at: string): Promise<void> {
    if (!ID_HASH.test(idHash)) return;
    await this.#database.write('note that a session was used', async (tx) => {
      const row = await tx
        .selectFrom('staff_sessions')
        .select('record')
        .where('id_hash', '=', idHash)
        .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) return;
      const record = JSON.parse(row.record) as SessionRecord;
      if (Date.parse(at) - Date.parse(record.lastSeenAt) < TOUCH_RESOLUTION_MS) return;
      await tx
        .updateTable('staff_sessions')
        .set({ last_seen_at_ms: ms(at), record: JSON.stringify({ ...record, lastSeenAt: at }) })
        .where('id_hash', '=', idHash)
        .execute();
    });
  }

  async delete(idHash: string): Promise<boolean> {
    if (!ID_HASH.test(idHash)) return false;
    const result = await this.#database.write('end a sign-in session', (tx) => tx.deleteFrom('staff_sessions').where('id_hash', '=', idHash).executeTakeFirst());
    return Number(result.numDeletedRows) > 0;
  }

  async deleteForStaff(staffId: string): Promise<number> {
    const result = await this.#database.write("end a staff member's sessions", (tx) => tx.deleteFrom('staff_sessions').where('staff_id', '=', staffId).executeTakeFirst());
    return Number(result.numDeletedRows);
  }

  /** Sessions at or past their end, or last seen before `idleCutoff` (seen exactly at it is not idle), compared as times. */
  async purgeExpired(now: string, idleCutoff: string): Promise<number> {
    const result = await this.#database.write('remove ended sign-in sessions', (tx) =>
      tx
        .deleteFrom('staff_sessions')
        .where((eb) => eb.or([eb('expires_at_ms', '<=', ms(now)), eb('last_seen_at_ms', '<', ms(idleCutoff))]))
        .executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }
}

/** An ISO time in one form (UTC, milliseconds), so times compare as text exactly as Date.parse compares them. */
const sortableTime = (iso: string) => new Date(Date.parse(iso)).toISOString();

/**
 * The audit log's row for `entry`, checked first: a StoreError 'corrupt' when it is not an entry, so
 * nothing is logged (and nothing of a change written in the same transaction is stored).
 */
export function auditRow(entry: AuditEntry, where: string): { at: string; entry: string } {
  const checked = auditEntrySchema.safeParse(entry);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new StoreError('corrupt', where, `Not an audit entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}); nothing was logged.`);
  }
  return { at: sortableTime(checked.data.at), entry: JSON.stringify(checked.data) };
}

/** store_meta's row holding the audit's pseudonym key. */
const PSEUDONYM_KEY = 'audit_pseudonym_key';

export class SqlAuditLog implements AuditLog {
  readonly #database: SqlDatabase;
  #pseudonymKey: Promise<Buffer> | undefined;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  /** Checked first (a StoreError 'corrupt', nothing logged, when it is not an entry); committed before it resolves. */
  async append(entry: AuditEntry): Promise<void> {
    const row = auditRow(entry, this.#database.where);
    await this.#database.write('log an audit entry', (tx) => tx.insertInto('audit_log').values(row).execute());
  }

  /**
   * Made once by whichever server asks first (an insert that does nothing when the row is there), then
   * read; kept by this process once read (it never changes), so a failed sign-in costs no write for it.
   */
  pseudonymKey(): Promise<Buffer> {
    this.#pseudonymKey ??= this.#loadPseudonymKey().catch((error: unknown) => {
      this.#pseudonymKey = undefined;
      throw error;
    });
    return this.#pseudonymKey;
  }

  async #loadPseudonymKey(): Promise<Buffer> {
    const select = (db: Db | Tx) => db.selectFrom('store_meta').select('value').where('name', '=', PSEUDONYM_KEY).executeTakeFirst();
    const stored =
      (await this.#database.read("read the audit's pseudonym key", select)) ??
      (await this.#database.write("make the audit's pseudonym key", async (tx) => {
        await tx
          .insertInto('store_meta')
          .values({ name: PSEUDONYM_KEY, value: randomBytes(32).toString('base64') })
          .onConflict((conflict) => conflict.column('name').doNothing())
          .execute();
        return select(tx);
      }));
    const key = Buffer.from(stored?.value ?? '', 'base64');
    if (key.length !== 32) throw new StoreError('corrupt', this.#database.where, `The audit's pseudonym key in ${this.#database.where} (store_meta '${PSEUDONYM_KEY}') is not 32 bytes of base64.`);
    return key;
  }

  /** Oldest first (entries at one time in the order appended); `since` inclusive; with `limit`, only the newest that many. */
  async list(query: { since?: string; limit?: number } = {}): Promise<AuditEntry[]> {
    if (query.since !== undefined && Number.isNaN(Date.parse(query.since))) {
      throw new StoreError('corrupt', this.#database.where, `"${query.since}" is not a time to read the audit log from.`);
    }
    const since = query.since === undefined ? null : sortableTime(query.since);
    // A limit below zero means none; a fraction counts as the next whole entry.
    const limit = query.limit !== undefined && query.limit >= 0 && Number.isFinite(query.limit) ? Math.ceil(query.limit) : null;
    const rows = await this.#database.read('read the audit log', (db) =>
      db
        .selectFrom('audit_log')
        .select('entry')
        .$if(since !== null, (q) => q.where('at', '>=', since ?? ''))
        .orderBy('at', 'desc')
        .orderBy('n', 'desc')
        .$if(limit !== null, (q) => q.limit(limit ?? 0))
        .execute(),
    );
    return rows.reverse().map((row) => JSON.parse(row.entry) as AuditEntry);
  }
}
