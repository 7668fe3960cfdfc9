/**
 * Quote requests and their notifications, the same on SQLite and PostgreSQL: `leads` (one row per lead)
 * and `outbox` (one row per notification, kept with `sentAt` once sent), each record whole as JSON text
 * beside the columns that order and filter them. A lead and its notifications are stored in one
 * transaction, so neither is ever there without the other. A change to a lead applies to the lead as
 * stored inside one write transaction (its row locked on PostgreSQL; SQLite runs write transactions one
 * at a time), so changes from two instances (or the CLI) apply one after the other and none is lost.
 * Nothing is held in memory but, on SQLite, this server's holds on notifications (see `claim`). Ids
 * are checked as the file store checked them, so an imported data directory's names are refused and
 * ignored the same way. One request per intent (decision 0018) is the database's to keep: a form's
 * token is the primary key of `lead_intents`, claimed in the lead's own transaction, so of two
 * requests with one token (on any servers, at the same moment) one stores its lead and the other gets
 * that lead back, having stored nothing.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DeliveryRecord, LeadRecord } from '../../../contract/leads';
import type { LeadCreateOutcome, LeadIntent, LeadQuery, LeadRepository, OutboxRepository } from '../store';
import { StoreError } from '../store-error';
import { type Db, Rollback, type SqlDatabase, type Tx } from './database';
import type { OutboxTable } from './schema';

/** The opt-out table's key of an e-mail address: no address is kept in clear beside it. */
function addressKey(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase(), 'utf8').digest('hex');
}

/** The names the file store could give a file (lead-files.ts): a notification id must be one. */
const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;
const LEAD_ID = /^lead_[A-Za-z0-9]{20}$/;

/** A notification id the file store could name a file after; a StoreError ('corrupt') otherwise. */
function checkedDeliveryId(id: string): string {
  if (!SAFE_NAME.test(id)) throw new StoreError('corrupt', id, `"${id}" is not a notification id.`);
  return id;
}

/** The row of a notification (a new hold starts unheld). (Also the bench's seeding.) */
export function deliveryRow(record: DeliveryRecord): OutboxTable {
  return { id: checkedDeliveryId(record.id), lead_id: record.leadId, held_until: null, next_attempt_at: record.nextAttemptAt, sent_at: record.sentAt, record: JSON.stringify(record) };
}

/** Stores a notification, or its state after an attempt over the one before (ending any hold on it). */
async function upsertDelivery(db: Db, row: OutboxTable): Promise<void> {
  await db
    .insertInto('outbox')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({
        lead_id: eb.ref('excluded.lead_id'),
        next_attempt_at: eb.ref('excluded.next_attempt_at'),
        sent_at: eb.ref('excluded.sent_at'),
        record: eb.ref('excluded.record'),
        held_until: null,
      })),
    )
    .execute();
}

/**
 * Claims `intent.token` for `leadId` unless an unexpired claim holds it. A request with the same token
 * in another transaction (PostgreSQL) waits here until that one commits or rolls back.
 */
async function claimIntent(tx: Tx, intent: LeadIntent, leadId: string): Promise<boolean> {
  const held = await tx
    .insertInto('lead_intents')
    .values({ token: intent.token, lead_id: leadId, expires_at_ms: intent.expiresAtMs })
    .onConflict((conflict) =>
      conflict
        .column('token')
        .doUpdateSet((eb) => ({ lead_id: eb.ref('excluded.lead_id'), expires_at_ms: eb.ref('excluded.expires_at_ms') }))
        .where('lead_intents.expires_at_ms', '<=', intent.nowMs),
    )
    .returning('token')
    .executeTakeFirst();
  return held !== undefined;
}

/** Plain string order (not the database's collation), the same on both engines. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** A lead's notifications by channel, then id. */
const byChannel = (a: DeliveryRecord, b: DeliveryRecord) => byText(a.channel, b.channel) || byText(a.id, b.id);
/** Lead ids a query of `forLeads` names (SQLite allows 32,766 bound values, PostgreSQL 65,535). */
const IDS_PER_QUERY = 500;
/** Leads a page of `batches` reads: a few megabytes of records, and one `forLeads` query's worth of ids. */
const LEAD_BATCH = IDS_PER_QUERY;

export class SqlOutboxRepository implements OutboxRepository {
  readonly #database: SqlDatabase;
  /** SQLite only: the notifications this server holds for an attempt, and until when (ISO 8601). */
  readonly #held = new Map<string, string>();

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  /** Not yet sent, the earliest due first (no time first, as the file store ordered them), then by id. */
  async pending(): Promise<DeliveryRecord[]> {
    const rows = await this.#database.read('read the notifications waiting to be sent', (db) =>
      db
        .selectFrom('outbox')
        .select('record')
        .where('sent_at', 'is', null)
        // NULLS FIRST, spelled so both engines read it.
        .orderBy(sql`case when next_attempt_at is null then 0 else 1 end`)
        .orderBy('next_attempt_at')
        .orderBy('id')
        .execute(),
    );
    return rows.map((row) => this.#database.parse<DeliveryRecord>(row.record, 'notification'));
  }

  /** Every notification of one lead, sent or not, by channel (then id). */
  async forLead(leadId: string): Promise<DeliveryRecord[]> {
    const rows = await this.#database.read("read a lead's notifications", (db) => db.selectFrom('outbox').select('record').where('lead_id', '=', leadId).execute());
    return rows
      .map((row) => this.#database.parse<DeliveryRecord>(row.record, 'notification'))
      .sort(byChannel);
  }

  /** Read in chunks of ids (within both engines' limits on bound values), each one query. */
  async forLeads(leadIds: readonly string[]): Promise<Map<string, DeliveryRecord[]>> {
    const found = new Map<string, DeliveryRecord[]>(leadIds.map((id) => [id, []]));
    for (let first = 0; first < leadIds.length; first += IDS_PER_QUERY) {
      const ids = leadIds.slice(first, first + IDS_PER_QUERY);
      const rows = await this.#database.read("read the leads' notifications", (db) => db.selectFrom('outbox').select('record').where('lead_id', 'in', ids).execute());
      for (const row of rows) {
        const delivery = this.#database.parse<DeliveryRecord>(row.record, 'notification');
        found.get(delivery.leadId)?.push(delivery);
      }
    }
    for (const deliveries of found.values()) deliveries.sort(byChannel);
    return found;
  }

  /**
   * PostgreSQL, shared by several servers: one statement, so of two servers claiming a notification at
   * once one gets it, the other null; the hold is in the row until `until`. SQLite has one server (the CLI
   * never sends), so the hold is kept in this process only, as the interface allows: a server killed
   * mid-attempt leaves nothing behind, and the next start sends at once.
   */
  async claim(id: string, now: string, until: string): Promise<DeliveryRecord | null> {
    checkedDeliveryId(id);
    if (this.#database.kind === 'sqlite') {
      const heldUntil = this.#held.get(id);
      if (heldUntil !== undefined && heldUntil > now) return null;
      const row = await this.#database.read('take a notification for sending', (db) =>
        db.selectFrom('outbox').select('record').where('id', '=', id).where('sent_at', 'is', null).executeTakeFirst(),
      );
      if (!row) return null;
      this.#held.set(id, until);
      return this.#database.parse<DeliveryRecord>(row.record, 'notification');
    }
    const row = await this.#database.write('take a notification for sending', (tx) =>
      tx
        .updateTable('outbox')
        .set({ held_until: until })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '<=', now)]))
        .returning('record')
        .executeTakeFirst(),
    );
    return row ? this.#database.parse<DeliveryRecord>(row.record, 'notification') : null;
  }

  async save(record: DeliveryRecord): Promise<void> {
    const row = deliveryRow(record);
    await this.#database.write('store a notification', (tx) => upsertDelivery(tx, row));
    this.#held.delete(record.id);
  }

  async remove(id: string): Promise<void> {
    checkedDeliveryId(id);
    await this.#database.write('remove a notification', (tx) => tx.deleteFrom('outbox').where('id', '=', id).execute());
    this.#held.delete(id);
  }
}

/** What a change to a lead came to: the stored result (null: no such lead), or the error `change` threw. */
type UpdateOutcome = { changed: LeadRecord | null } | { refused: unknown };

export class SqlLeadRepository implements LeadRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  /**
   * The token's claim (when there is one), the notifications, then the lead, in one transaction; a lead
   * stored again under its id is replaced, as the file store did.
   */
  async create(lead: LeadRecord, deliveries: readonly DeliveryRecord[], intent?: LeadIntent): Promise<LeadCreateOutcome> {
    if (!LEAD_ID.test(lead.id)) throw new StoreError('corrupt', lead.id, `"${lead.id}" is not a lead id.`);
    const rows = deliveries.map(deliveryRow);
    return this.#database.write<LeadCreateOutcome, LeadCreateOutcome>('store a quote request', async (tx) => {
      if (intent && !(await claimIntent(tx, intent, lead.id))) {
        throw new Rollback<LeadCreateOutcome>({ kind: 'replayed', lead: await this.#intended(tx, intent.token) });
      }
      for (const row of rows) await upsertDelivery(tx, row);
      await tx
        .insertInto('leads')
        .values({ id: lead.id, created_at: lead.createdAt, reference: lead.reference ?? null, record: JSON.stringify(lead) })
        .onConflict((conflict) =>
          conflict.column('id').doUpdateSet((eb) => ({ created_at: eb.ref('excluded.created_at'), reference: eb.ref('excluded.reference'), record: eb.ref('excluded.record') })),
        )
        .execute();
      return { kind: 'created' };
    });
  }

  /** The lead a claimed token names (read inside the transaction that found the claim taken). */
  async #intended(tx: Tx, token: string): Promise<LeadRecord> {
    const row = await tx.selectFrom('lead_intents as i').innerJoin('leads as l', 'l.id', 'i.lead_id').select('l.record').where('i.token', '=', token).executeTakeFirst();
    if (!row) throw new Error("The quote form's token changed hands while it was read; the request can be sent again.");
    return this.#database.parse<LeadRecord>(row.record, 'quote request');
  }

  async byIntent(token: string, nowMs: number): Promise<LeadRecord | null> {
    const row = await this.#database.read('read the quote request of a form', (db) =>
      db
        .selectFrom('lead_intents as i')
        .innerJoin('leads as l', 'l.id', 'i.lead_id')
        .select('l.record')
        .where('i.token', '=', token)
        .where('i.expires_at_ms', '>', nowMs)
        .executeTakeFirst(),
    );
    return row ? this.#database.parse<LeadRecord>(row.record, 'quote request') : null;
  }

  async byReference(reference: string): Promise<LeadRecord | null> {
    const row = await this.#database.read('read a quote request by its reference', (db) => db.selectFrom('leads').select('record').where('reference', '=', reference).executeTakeFirst());
    return row ? this.#database.parse<LeadRecord>(row.record, 'quote request') : null;
  }

  async purgeExpiredIntents(nowMs: number): Promise<number> {
    const result = await this.#database.write('forget expired quote form tokens', (tx) => tx.deleteFrom('lead_intents').where('expires_at_ms', '<=', nowMs).executeTakeFirst());
    return Number(result.numDeletedRows);
  }

  async get(id: string): Promise<LeadRecord | null> {
    if (!LEAD_ID.test(id)) return null;
    const row = await this.#database.read('read a quote request', (db) => db.selectFrom('leads').select('record').where('id', '=', id).executeTakeFirst());
    return row ? this.#database.parse<LeadRecord>(row.record, 'quote request') : null;
  }

  /**
   * Newest first; real requests only unless `spam` says otherwise. Status and spam live only in the
   * record, so they are filtered here after reading (a store holds thousands of leads, not millions).
   */
  async list(query: LeadQuery = {}): Promise<LeadRecord[]> {
    const rows = await this.#database.read('list the quote requests', (db) =>
      db.selectFrom('leads').select('record').orderBy('created_at', 'desc').orderBy('id', 'desc').execute(),
    );
    return this.#matching(rows, query);
  }

  /**
   * Keyset pages over the index `list` reads in order (created_at, id, both descending): each query
   * starts after the last row of the one before, so a page costs the same at the end as at the start.
   */
  async *batches(query: LeadQuery = {}, size = LEAD_BATCH): AsyncGenerator<LeadRecord[]> {
    let after: { createdAt: string; id: string } | null = null;
    for (;;) {
      const from: { createdAt: string; id: string } | null = after;
      const rows: Array<{ id: string; created_at: string; record: string }> = await this.#database.read('list the quote requests', (db) => {
        const page = db.selectFrom('leads').select(['id', 'created_at', 'record']).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size);
        if (!from) return page.execute();
        return page.where((eb) => eb.or([eb('created_at', '<', from.createdAt), eb.and([eb('created_at', '=', from.createdAt), eb('id', '<', from.id)])])).execute();
      });
      const last = rows.at(-1);
      if (!last) return;
      const leads = this.#matching(rows, query);
      if (leads.length > 0) yield leads;
      if (rows.length < size) return;
      after = { createdAt: last.created_at, id: last.id };
    }
  }

  /** The stored records of `rows` that `query` asks for. */
  #matching(rows: ReadonlyArray<{ record: string }>, query: LeadQuery): LeadRecord[] {
    const spam = query.spam ?? false;
    return rows
      .map((row) => this.#database.parse<LeadRecord>(row.record, 'quote request'))
      .filter((lead) => (query.status === undefined || lead.status === query.status) && (spam === 'any' || ((lead.spam ?? null) !== null) === spam));
  }

  /**
   * Applies `change` to the lead as stored, inside one write transaction (its row locked on PostgreSQL):
   * a change on another instance waits, then applies to this one's result. An error thrown by `change`
   * comes back as it was, with nothing stored.
   */
  async update(id: string, change: (lead: LeadRecord) => LeadRecord): Promise<LeadRecord | null> {
    if (!LEAD_ID.test(id)) return null;
    const outcome = await this.#database.write<UpdateOutcome, UpdateOutcome>('change a quote request', async (tx) => {
      const row = await tx
        .selectFrom('leads')
        .select('record')
        .where('id', '=', id)
        .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) return { changed: null };
      const lead = this.#database.parse<LeadRecord>(row.record, 'quote request');
      let changed: LeadRecord;
      try {
        // The id and the reference stay what they are (the reference's column is not rewritten).
        changed = { ...change(lead), id: lead.id, ...(lead.reference === undefined ? {} : { reference: lead.reference }) };
      } catch (error) {
        // Nothing was written: rolling back only releases the lock.
        throw new Rollback({ refused: error });
      }
      await tx.updateTable('leads').set({ created_at: changed.createdAt, record: JSON.stringify(changed) }).where('id', '=', id).execute();
      return { changed };
    });
    if ('refused' in outcome) throw outcome.refused;
    return outcome.changed;
  }

  async nextTurn(): Promise<number> {
    const row = await this.#database.write('take the next turn of lead assignment', (tx) =>
      tx
        .updateTable('store_meta')
        .set({ value: sql<string>`CAST(CAST(value AS BIGINT) + 1 AS TEXT)` })
        .where('name', '=', 'lead_assign_seq')
        .returning('value')
        .executeTakeFirst(),
    );
    return Number(row?.value ?? 0);
  }

  async addOptOut(optOut: { address: string; leadId: string; at: string; channel: string }): Promise<void> {
    await this.#database.write("record a visitor's opt-out", (tx) =>
      tx
        .insertInto('lead_opt_outs')
        .values({ address_sha256: addressKey(optOut.address), lead_id: optOut.leadId, at: optOut.at, channel: optOut.channel })
        .onConflict((conflict) => conflict.column('address_sha256').doNothing())
        .execute(),
    );
  }

  async isOptedOut(address: string): Promise<boolean> {
    const row = await this.#database.read("read a visitor's opt-out", (db) => db.selectFrom('lead_opt_outs').select('at').where('address_sha256', '=', addressKey(address)).executeTakeFirst());
    return row !== undefined;
  }

  /** The lead and every notification of it, in one transaction. */
  async delete(id: string): Promise<boolean> {
    if (!LEAD_ID.test(id)) return false;
    return this.#database.write('remove a quote request', async (tx) => {
      await tx.deleteFrom('outbox').where('lead_id', '=', id).execute();
      // Its attribution (decision 0032) goes with it.
      await tx.deleteFrom('analytics_conversions').where('lead_id', '=', id).execute();
      const result = await tx.deleteFrom('leads').where('id', '=', id).executeTakeFirst();
      return result.numDeletedRows > 0n;
    });
  }
}
