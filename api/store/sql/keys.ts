/**
 * API keys in the database: one `api_keys` row per key (the record whole as JSON, `seq` keeping the
 * order keys were added), and the time the demo key was issued in `store_meta`. Every call reads what is
 * stored, so a key revoked by the CLI or another server is refused on its next request. A change applies
 * its patch to the record as stored inside a write transaction (the row locked on PostgreSQL), so
 * last-used bookkeeping beside a revocation elsewhere keeps both. Adding a key checks its name and adds
 * it under one lock, so two processes cannot both add an active key of one name.
 */
import type { KeyRecord } from '../records';
import type { KeyPatch, KeyRepository } from '../store';
import { StoreError } from '../store-error';
import { Rollback, type SqlDatabase } from './database';

const DEMO_KEY_ISSUED_AT = 'demo_key_issued_at';

/**
 * The lock every key creation holds while it checks the name and adds the key (PostgreSQL's advisory
 * lock; SQLite's write transactions are one at a time already): creations wait for one another; reads,
 * revocations and bookkeeping do not.
 */
const KEY_NAME_LOCK = 7_235_905_113_402_002;

/** A key name as names are compared: trimmed, without regard to case. */
const nameKey = (name: string) => name.trim().toLowerCase();

export class SqlKeyRepository implements KeyRepository {
  readonly #database: SqlDatabase;

  constructor(database: SqlDatabase) {
    this.#database = database;
  }

  #takenId(id: string): StoreError {
    return new StoreError('conflict', this.#database.where, `A key with id ${id} already exists.`);
  }

  async list(): Promise<KeyRecord[]> {
    const rows = await this.#database.read('read the API keys', (db) => db.selectFrom('api_keys').select('record').orderBy('seq').execute());
    return rows.map((row) => JSON.parse(row.record) as KeyRecord);
  }

  async findById(id: string): Promise<KeyRecord | undefined> {
    const row = await this.#database.read('read an API key', (db) => db.selectFrom('api_keys').select('record').where('id', '=', id).executeTakeFirst());
    return row ? (JSON.parse(row.record) as KeyRecord) : undefined;
  }

  /**
   * One transaction holding the key-name lock: the check for an active key of that name and the insert
   * cannot interleave with another process's. A lock, not a unique index, because a store may already
   * hold two active keys with one name from before names were checked atomically (an import).
   */
  add(record: KeyRecord): Promise<'added' | 'name_taken'> {
    return this.#database.write<'added' | 'name_taken', 'name_taken'>('add an API key', async (tx) => {
      await this.#database.lock(tx, KEY_NAME_LOCK);
      const rows = await tx.selectFrom('api_keys').select(['id', 'record']).execute();
      if (rows.some((row) => row.id === record.id)) throw this.#takenId(record.id);
      const wanted = nameKey(record.name);
      const taken = rows.some((row) => {
        const key = JSON.parse(row.record) as KeyRecord;
        return key.revokedAt === null && nameKey(key.name) === wanted;
      });
      if (taken) throw new Rollback('name_taken' as const);
      await tx.insertInto('api_keys').values({ id: record.id, record: JSON.stringify(record) }).execute();
      return 'added';
    });
  }

  async restore(record: KeyRecord): Promise<void> {
    const result = await this.#database.write('restore an API key', (tx) =>
      tx
        .insertInto('api_keys')
        .values({ id: record.id, record: JSON.stringify(record) })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst(),
    );
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) throw this.#takenId(record.id);
  }

  /** The patch applied to the key as stored; a field given as undefined is removed (as JSON drops it). */
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    return this.#database.write('change an API key', async (tx) => {
      const row = await tx
        .selectFrom('api_keys')
        .select('record')
        .where('id', '=', id)
        .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!row) return undefined;
      const updated = JSON.parse(JSON.stringify({ ...(JSON.parse(row.record) as KeyRecord), ...patch })) as KeyRecord;
      await tx.updateTable('api_keys').set({ record: JSON.stringify(updated) }).where('id', '=', id).execute();
      return updated;
    });
  }

  async demoKeyIssuedAt(): Promise<string | null> {
    const row = await this.#database.read('read when the demo key was issued', (db) =>
      db.selectFrom('store_meta').select('value').where('name', '=', DEMO_KEY_ISSUED_AT).executeTakeFirst(),
    );
    return row?.value ?? null;
  }

  /** One statement: of processes claiming at once, the update of a still-empty value goes through once. */
  async claimDemoKey(at: Date): Promise<boolean> {
    const result = await this.#database.write('claim the issue of the demo key', (tx) =>
      tx.updateTable('store_meta').set({ value: at.toISOString() }).where('name', '=', DEMO_KEY_ISSUED_AT).where('value', 'is', null).executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  async markDemoKeyIssued(at: Date | null): Promise<void> {
    await this.#database.write('remember that the demo key was issued', (tx) =>
      tx.updateTable('store_meta').set({ value: at?.toISOString() ?? null }).where('name', '=', DEMO_KEY_ISSUED_AT).execute(),
    );
  }
}
