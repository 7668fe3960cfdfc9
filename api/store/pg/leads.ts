/**
 * Quote requests and their notifications in PostgreSQL: `leads` (one row per lead) and `outbox` (one row
 * per notification, kept with `sentAt` once sent), each record whole as `json` beside the columns that
 * order and filter them. A lead and its notifications are stored in one transaction, so neither is
 * ever there without the other. A change to a lead locks its row (SELECT ... FOR UPDATE) and applies
 * to the lead as stored, so changes from two instances (or the CLI) apply one after the other and
 * none is lost. Nothing is held in memory. Ids are checked as lead-files.ts checks them, so both stores
 * refuse and ignore the same ones.
 */
import type { DeliveryRecord, LeadRecord } from '../../../contract/leads';
import type { LeadQuery, LeadRepository, OutboxRepository } from '../store';
import { SAFE_NAME } from '../file/lead-files';
import { StoreError } from '../store-error';
import type { Database } from './database';

const LEAD_ID = /^lead_[A-Za-z0-9]{20}$/;

/** A notification stored, or its state after an attempt stored over the one before. */
const UPSERT_DELIVERY = `INSERT INTO outbox (id, lead_id, next_attempt_at, sent_at, record) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (id) DO UPDATE SET lead_id = EXCLUDED.lead_id, next_attempt_at = EXCLUDED.next_attempt_at, sent_at = EXCLUDED.sent_at, record = EXCLUDED.record, held_until = NULL`;

/** A notification id the file store could name a file after; a StoreError ('corrupt') otherwise. */
function checkedDeliveryId(id: string): string {
  if (!SAFE_NAME.test(id)) throw new StoreError('corrupt', id, `"${id}" is not a notification id.`);
  return id;
}

/** The values of UPSERT_DELIVERY for a notification. */
function deliveryValues(record: DeliveryRecord): unknown[] {
  return [checkedDeliveryId(record.id), record.leadId, record.nextAttemptAt, record.sentAt, JSON.stringify(record)];
}

export class PgOutboxRepository implements OutboxRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Not yet sent, the earliest due first (no time first, as the file store orders them), then by id. */
  async pending(): Promise<DeliveryRecord[]> {
    const result = await this.#db.query<{ record: DeliveryRecord }>(
      'read the notifications waiting to be sent',
      'SELECT record FROM outbox WHERE sent_at IS NULL ORDER BY next_attempt_at NULLS FIRST, id',
    );
    return result.rows.map((row) => row.record);
  }

  /** Every notification of one lead, sent or not, by channel. */
  async forLead(leadId: string): Promise<DeliveryRecord[]> {
    const result = await this.#db.query<{ record: DeliveryRecord }>(
      "read a lead's notifications",
      "SELECT record FROM outbox WHERE lead_id = $1 ORDER BY record->>'channel', id",
      [leadId],
    );
    return result.rows.map((row) => row.record);
  }

  /** One statement: of two servers claiming a notification at once, one gets it, the other null. */
  async claim(id: string, now: string, until: string): Promise<DeliveryRecord | null> {
    const result = await this.#db.query<{ record: DeliveryRecord }>(
      'take a notification for sending',
      'UPDATE outbox SET held_until = $3 WHERE id = $1 AND sent_at IS NULL AND (held_until IS NULL OR held_until <= $2) RETURNING record',
      [checkedDeliveryId(id), now, until],
    );
    return result.rows[0]?.record ?? null;
  }

  async save(record: DeliveryRecord): Promise<void> {
    await this.#db.query('store a notification', UPSERT_DELIVERY, deliveryValues(record));
  }

  async remove(id: string): Promise<void> {
    await this.#db.query('remove a notification', 'DELETE FROM outbox WHERE id = $1', [checkedDeliveryId(id)]);
  }
}

export class PgLeadRepository implements LeadRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** The lead and its notifications in one transaction; a lead stored again under its id is replaced, as the file store does. */
  async create(lead: LeadRecord, deliveries: readonly DeliveryRecord[]): Promise<void> {
    if (!LEAD_ID.test(lead.id)) throw new StoreError('corrupt', lead.id, `"${lead.id}" is not a lead id.`);
    const deliveryRows = deliveries.map(deliveryValues);
    await this.#db.transaction('store a quote request', async (query) => {
      for (const values of deliveryRows) await query(UPSERT_DELIVERY, values);
      await query(
        'INSERT INTO leads (id, created_at, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET created_at = EXCLUDED.created_at, record = EXCLUDED.record',
        [lead.id, lead.createdAt, JSON.stringify(lead)],
      );
    });
  }

  async get(id: string): Promise<LeadRecord | null> {
    if (!LEAD_ID.test(id)) return null;
    const result = await this.#db.query<{ record: LeadRecord }>('read a quote request', 'SELECT record FROM leads WHERE id = $1', [id]);
    return result.rows[0]?.record ?? null;
  }

  /** Newest first; real requests only unless `spam` says otherwise (lead-files.ts). */
  async list(query: LeadQuery = {}): Promise<LeadRecord[]> {
    const spam = query.spam ?? false;
    const conditions: string[] = [];
    const values: unknown[] = [];
    if (query.status !== undefined) {
      values.push(query.status);
      conditions.push(`record->>'status' = $${values.length}`);
    }
    if (spam !== 'any') conditions.push(spam ? "record->>'spam' IS NOT NULL" : "record->>'spam' IS NULL");
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const result = await this.#db.query<{ record: LeadRecord }>('list the quote requests', `SELECT record FROM leads ${where} ORDER BY created_at DESC, id DESC`, values);
    return result.rows.map((row) => row.record);
  }

  /**
   * Applies `change` to the lead as stored, its row locked until the change is committed: a change on
   * another instance waits, then applies to this one's result. An error thrown by `change` comes back
   * as it was, with nothing stored.
   */
  async update(id: string, change: (lead: LeadRecord) => LeadRecord): Promise<LeadRecord | null> {
    if (!LEAD_ID.test(id)) return null;
    const outcome = await this.#db.transaction('change a quote request', async (query) => {
      const lead = (await query<{ record: LeadRecord }>('SELECT record FROM leads WHERE id = $1 FOR UPDATE', [id])).rows[0]?.record;
      if (!lead) return { changed: null };
      let changed: LeadRecord;
      try {
        changed = { ...change(lead), id: lead.id };
      } catch (error) {
        // Nothing was written: committing only releases the lock.
        return { refused: error };
      }
      await query('UPDATE leads SET created_at = $2, record = $3 WHERE id = $1', [id, changed.createdAt, JSON.stringify(changed)]);
      return { changed };
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.changed;
  }

  /** The lead and every notification of it, in one transaction. */
  async delete(id: string): Promise<boolean> {
    if (!LEAD_ID.test(id)) return false;
    return this.#db.transaction('remove a quote request', async (query) => {
      await query('DELETE FROM outbox WHERE lead_id = $1', [id]);
      return ((await query('DELETE FROM leads WHERE id = $1', [id])).rowCount ?? 0) > 0;
    });
  }
}
