/**
 * Staff accounts, their sign-in sessions and the audit log in PostgreSQL (`staff`, `staff_sessions`,
 * `audit_log`), each record whole as `json`. An account's e-mail is also kept trimmed and in lower
 * case in the unique `email` column, so two accounts differing only in case are refused by the
 * database itself, even when two instances add them at once. Sessions live in the database, so a
 * visitor signed in on one instance is signed in on all, and `blogpost staff disable` ends them
 * everywhere. Expiry, `touch` and the audit log's order are decided as session-files.ts and
 * audit-file.ts decide them. Nothing is held in memory.
 */
import type { AuditEntry, SessionRecord, StaffRecord } from '../../../contract/staff';
import { auditEntrySchema } from '../file/audit-file';
import { ID_HASH, TOUCH_RESOLUTION_MS } from '../file/session-files';
import type { AuditLog, SessionRepository, StaffPatch, StaffRepository } from '../store';
import { StoreError } from '../store-error';
import type { Database } from './database';

/** The e-mail as the unique column holds it: accounts are matched without regard to case (staff-file.ts). */
const emailKey = (email: string) => email.trim().toLowerCase();

export class PgStaffRepository implements StaffRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** In the order they were added. */
  async list(): Promise<StaffRecord[]> {
    const result = await this.#db.query<{ record: StaffRecord }>('read the staff accounts', 'SELECT record FROM staff ORDER BY seq');
    return result.rows.map((row) => row.record);
  }

  async findById(id: string): Promise<StaffRecord | undefined> {
    const result = await this.#db.query<{ record: StaffRecord }>('read a staff account', 'SELECT record FROM staff WHERE id = $1', [id]);
    return result.rows[0]?.record;
  }

  async findByEmail(email: string): Promise<StaffRecord | undefined> {
    const result = await this.#db.query<{ record: StaffRecord }>('read a staff account', 'SELECT record FROM staff WHERE email = $1', [emailKey(email)]);
    return result.rows[0]?.record;
  }

  /** A StoreError ('conflict') naming what is taken when the id or the e-mail (in any case) exists. */
  async add(record: StaffRecord): Promise<void> {
    const added = await this.#db.query(
      'add a staff account',
      'INSERT INTO staff (id, email, record) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [record.id, emailKey(record.email), JSON.stringify(record)],
    );
    if (added.rowCount !== 0) return;
    const idTaken = (await this.#db.query('read a staff account', 'SELECT 1 FROM staff WHERE id = $1', [record.id])).rowCount !== 0;
    const what = idTaken ? `the id ${record.id}` : `the e-mail ${record.email}`;
    throw new StoreError('conflict', 'PostgreSQL', `A staff account with ${what} exists already.`);
  }

  /** The patch applied to the account as stored, its row locked meanwhile; a field given as undefined keeps its value. */
  update(id: string, patch: StaffPatch): Promise<StaffRecord | undefined> {
    return this.#db.transaction('change a staff account', async (query) => {
      const current = (await query<{ record: StaffRecord }>('SELECT record FROM staff WHERE id = $1 FOR UPDATE', [id])).rows[0]?.record;
      if (!current) return undefined;
      const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as StaffPatch;
      const updated: StaffRecord = { ...current, ...given, id: current.id };
      await query('UPDATE staff SET email = $2, record = $3 WHERE id = $1', [id, emailKey(updated.email), JSON.stringify(updated)]);
      return updated;
    });
  }
}

export class PgSessionRepository implements SessionRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Stores a session (one stored again under its hash is replaced, as the file store does). */
  async create(record: SessionRecord): Promise<void> {
    if (!ID_HASH.test(record.idHash)) throw new StoreError('corrupt', record.idHash, 'A session is stored under the hex SHA-256 of its id (64 characters 0-9a-f).');
    await this.#db.query(
      'store a sign-in session',
      'INSERT INTO staff_sessions (id_hash, staff_id, record) VALUES ($1, $2, $3) ON CONFLICT (id_hash) DO UPDATE SET staff_id = EXCLUDED.staff_id, record = EXCLUDED.record',
      [record.idHash, record.staffId, JSON.stringify(record)],
    );
  }

  async get(idHash: string): Promise<SessionRecord | null> {
    if (!ID_HASH.test(idHash)) return null;
    const result = await this.#db.query<{ record: SessionRecord }>('read a sign-in session', 'SELECT record FROM staff_sessions WHERE id_hash = $1', [idHash]);
    return result.rows[0]?.record ?? null;
  }

  /** Moves `lastSeenAt` only when it moves a minute or more (TOUCH_RESOLUTION_MS), as session-files.ts does. */
  async touch(idHash: string, at: string): Promise<void> {
    if (!ID_HASH.test(idHash)) return;
    await this.#db.transaction('note that a session was used', async (query) => {
      const record = (await query<{ record: SessionRecord }>('SELECT record FROM staff_sessions WHERE id_hash = $1 FOR UPDATE', [idHash])).rows[0]?.record;
      if (!record || Date.parse(at) - Date.parse(record.lastSeenAt) < TOUCH_RESOLUTION_MS) return;
      await query('UPDATE staff_sessions SET record = $2 WHERE id_hash = $1', [idHash, JSON.stringify({ ...record, lastSeenAt: at })]);
    });
  }

  async delete(idHash: string): Promise<boolean> {
    if (!ID_HASH.test(idHash)) return false;
    const result = await this.#db.query('end a sign-in session', 'DELETE FROM staff_sessions WHERE id_hash = $1', [idHash]);
    return (result.rowCount ?? 0) > 0;
  }

  async deleteForStaff(staffId: string): Promise<number> {
    const result = await this.#db.query("end a staff member's sessions", 'DELETE FROM staff_sessions WHERE staff_id = $1', [staffId]);
    return result.rowCount ?? 0;
  }

  /** Sessions at or past their end, or last seen before `idleCutoff` (seen exactly at it is not idle), compared as times. */
  async purgeExpired(now: string, idleCutoff: string): Promise<number> {
    const result = await this.#db.query(
      'remove ended sign-in sessions',
      `DELETE FROM staff_sessions
       WHERE (record->>'expiresAt')::timestamptz <= $1::timestamptz OR (record->>'lastSeenAt')::timestamptz < $2::timestamptz`,
      [now, idleCutoff],
    );
    return result.rowCount ?? 0;
  }
}

/** An ISO time in one form (UTC, milliseconds), so times compare as text exactly as Date.parse compares them. */
const sortableTime = (iso: string) => new Date(Date.parse(iso)).toISOString();

export class PgAuditLog implements AuditLog {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Checked as audit-file.ts checks it (a StoreError 'corrupt', nothing logged, when it is not an entry); committed before it resolves. */
  async append(entry: AuditEntry): Promise<void> {
    const checked = auditEntrySchema.safeParse(entry);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new StoreError('corrupt', 'PostgreSQL', `Not an audit entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}); nothing was logged.`);
    }
    await this.#db.query('log an audit entry', 'INSERT INTO audit_log (at, entry) VALUES ($1, $2)', [sortableTime(checked.data.at), JSON.stringify(checked.data)]);
  }

  /** Oldest first (entries at one time in the order appended); `since` inclusive; with `limit`, only the newest that many. */
  async list(query: { since?: string; limit?: number } = {}): Promise<AuditEntry[]> {
    if (query.since !== undefined && Number.isNaN(Date.parse(query.since))) {
      throw new StoreError('corrupt', 'PostgreSQL', `"${query.since}" is not a time to read the audit log from.`);
    }
    const since = query.since === undefined ? null : sortableTime(query.since);
    // A limit below zero means none, as in audit-file.ts; a fraction counts as the next whole entry.
    const limit = query.limit !== undefined && query.limit >= 0 && Number.isFinite(query.limit) ? Math.ceil(query.limit) : null;
    const result = await this.#db.query<{ entry: AuditEntry }>(
      'read the audit log',
      `SELECT entry FROM (
         SELECT n, at, entry FROM audit_log WHERE $1::text IS NULL OR at >= $1::text ORDER BY at DESC, n DESC LIMIT $2
       ) AS newest ORDER BY at, n`,
      [since, limit],
    );
    return result.rows.map((row) => row.entry);
  }
}
