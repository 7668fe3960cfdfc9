/**
 * API keys in PostgreSQL: one `api_keys` row per key (the record whole as `json`, `seq` keeping the order
 * keys were added), and the time the demo key was issued in `store_meta`. Every call reads what is
 * stored, so a key revoked on one instance (or by the CLI) is refused by every other on its next
 * request. A change locks the key's row (SELECT ... FOR UPDATE) and applies the patch to the record as
 * stored, so last-used bookkeeping beside a revocation on another instance keeps both. Adding a key
 * takes a lock of its own, so two instances cannot both add an active key of one name.
 */
import type { KeyRecord } from '../records';
import type { KeyPatch, KeyRepository } from '../store';
import { StoreError } from '../store-error';
import type { Database } from './database';

const DEMO_KEY_ISSUED_AT = 'demo_key_issued_at';

/**
 * The advisory lock every key creation holds while it checks the name and adds the key (a number of
 * this application's own, beside the migrations' lock): creations wait for one another; reads,
 * revocations and bookkeeping do not.
 */
const KEY_NAME_LOCK = 7_235_905_113_402_002;

function takenId(id: string): StoreError {
  return new StoreError('conflict', 'PostgreSQL', `A key with id ${id} already exists.`);
}

export class PgKeyRepository implements KeyRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async list(): Promise<KeyRecord[]> {
    const result = await this.#db.query<{ record: KeyRecord }>('read the API keys', 'SELECT record FROM api_keys ORDER BY seq');
    return result.rows.map((row) => row.record);
  }

  async findById(id: string): Promise<KeyRecord | undefined> {
    const result = await this.#db.query<{ record: KeyRecord }>('read an API key', 'SELECT record FROM api_keys WHERE id = $1', [id]);
    return result.rows[0]?.record;
  }

  /**
   * One transaction holding the key-name lock: the check for an active key of that name and the insert
   * cannot interleave with another instance's. A lock, not a unique index, because a database may
   * already hold two active keys with one name from before names were checked atomically.
   */
  add(record: KeyRecord): Promise<'added' | 'name_taken'> {
    return this.#db.transaction('add an API key', async (query) => {
      await query('SELECT pg_advisory_xact_lock($1)', [KEY_NAME_LOCK]);
      const taken = (
        await query<{ id_taken: boolean; name_taken: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = $1) AS id_taken,
                  EXISTS (SELECT 1 FROM api_keys WHERE lower(btrim(record->>'name')) = $2 AND record->>'revokedAt' IS NULL) AS name_taken`,
          [record.id, record.name.trim().toLowerCase()],
        )
      ).rows[0];
      if (taken?.id_taken) throw takenId(record.id);
      if (taken?.name_taken) return 'name_taken';
      await query('INSERT INTO api_keys (id, record) VALUES ($1, $2)', [record.id, JSON.stringify(record)]);
      return 'added';
    });
  }

  async restore(record: KeyRecord): Promise<void> {
    const result = await this.#db.query('restore an API key', 'INSERT INTO api_keys (id, record) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [record.id, JSON.stringify(record)]);
    if (result.rowCount === 0) throw takenId(record.id);
  }

  /** The patch applied to the key as stored, its row locked meanwhile; a field given as undefined is removed, as the file store does. */
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    return this.#db.transaction('change an API key', async (query) => {
      const current = (await query<{ record: KeyRecord }>('SELECT record FROM api_keys WHERE id = $1 FOR UPDATE', [id])).rows[0]?.record;
      if (!current) return undefined;
      // Through JSON, as stored: a field the patch sets to undefined is gone, as it is from blog.json.
      const updated = JSON.parse(JSON.stringify({ ...current, ...patch })) as KeyRecord;
      await query('UPDATE api_keys SET record = $2 WHERE id = $1', [id, JSON.stringify(updated)]);
      return updated;
    });
  }

  async demoKeyIssuedAt(): Promise<string | null> {
    const result = await this.#db.query<{ value: string | null }>('read when the demo key was issued', 'SELECT value FROM store_meta WHERE name = $1', [DEMO_KEY_ISSUED_AT]);
    return result.rows[0]?.value ?? null;
  }

  /** One statement: of instances claiming at once, PostgreSQL lets the update of a still-empty value through once. */
  async claimDemoKey(at: Date): Promise<boolean> {
    const result = await this.#db.query(
      'claim the issue of the demo key',
      'INSERT INTO store_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value WHERE store_meta.value IS NULL',
      [DEMO_KEY_ISSUED_AT, at.toISOString()],
    );
    return result.rowCount === 1;
  }

  async markDemoKeyIssued(at: Date | null): Promise<void> {
    await this.#db.query(
      'remember that the demo key was issued',
      'INSERT INTO store_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value',
      [DEMO_KEY_ISSUED_AT, at?.toISOString() ?? null],
    );
  }
}
