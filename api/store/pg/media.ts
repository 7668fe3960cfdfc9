/**
 * Uploaded images in PostgreSQL: `media` (one record per upload, whole as `json`) and `media_files` (each
 * variant's bytes, by its file name). A save stores the record and its files in one transaction, so a
 * record is never there without its files, nor files without their record; a delete removes both
 * together (the files go with their record, ON DELETE CASCADE). The same picture uploaded on two
 * instances at once is stored once: the second waits on the first's row and then only adds its owner.
 *
 * Ids and file names are checked with MEDIA_ID_PATTERN and MEDIA_FILE_PATTERN (contract/media.ts), as
 * media-files.ts checks them, so both stores refuse and ignore the same names.
 */
import { MEDIA_FILE_PATTERN, MEDIA_ID_PATTERN } from '../../../contract/media';
import type { MediaRecord } from '../records';
import type { MediaRepository } from '../store';
import { StoreError } from '../store-error';
import type { Database } from './database';

/** True when `file` is a variant name of the medium `id` (`<id>-<width>.<ext>`). */
function isVariantOf(file: string, id: string): boolean {
  return MEDIA_FILE_PATTERN.exec(file)?.[1] === id;
}

/** The statement runner `Database.transaction` hands its work. */
type TransactionQuery = Parameters<Parameters<Database['transaction']>[1]>[0];

/** Bytes as `pg` sends a bytea parameter, without a copy. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export class PgMediaRepository implements MediaRepository {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * A new medium: its record and files in one transaction ('created'). An existing id: no file is
   * written, and the record as stored gains the new owners ('existing', unchanged when it had them all).
   */
  async save(record: MediaRecord, files: ReadonlyMap<string, Uint8Array>): Promise<{ kind: 'created' | 'existing'; record: MediaRecord }> {
    if (!MEDIA_ID_PATTERN.test(record.id)) throw new StoreError('corrupt', record.id, `"${record.id}" is not a media id (32 lower-case hex digits).`);
    for (const name of files.keys()) {
      if (!isVariantOf(name, record.id)) throw new StoreError('corrupt', name, `"${name}" is not a variant name of the medium ${record.id} (<id>-<width>.<ext>).`);
    }
    return this.#db.transaction('store an uploaded image', async (query) => {
      // Waits for a save of the same id on another instance to commit, then inserts nothing.
      const inserted = await query('INSERT INTO media (id, uploaded_at, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING', [record.id, record.uploadedAt, JSON.stringify(record)]);
      if (inserted.rowCount === 0) return this.#addOwners(query, record);
      const names = [...files.keys()];
      if (names.length > 0) {
        const rows = names.map((_, index) => `($${index * 3 + 1}, $${index * 3 + 2}, $${index * 3 + 3})`).join(', ');
        const values = names.flatMap((name) => [name, record.id, asBuffer(files.get(name) ?? new Uint8Array())]);
        await query(`INSERT INTO media_files (file, media_id, bytes) VALUES ${rows}`, values);
      }
      return { kind: 'created', record };
    });
  }

  /** The stored record of an existing medium with `record`'s owners added (written only when one is new). */
  async #addOwners(query: TransactionQuery, record: MediaRecord): Promise<{ kind: 'existing'; record: MediaRecord }> {
    const existing = (await query<{ record: MediaRecord }>('SELECT record FROM media WHERE id = $1 FOR UPDATE', [record.id])).rows[0]?.record;
    if (!existing) throw new StoreError('conflict', 'PostgreSQL', `The image ${record.id} was removed while it was being stored again; upload it again.`);
    const owners = [...new Set([...existing.owners, ...record.owners])];
    if (owners.length === existing.owners.length) return { kind: 'existing', record: existing };
    const merged = { ...existing, owners };
    await query('UPDATE media SET record = $2 WHERE id = $1', [record.id, JSON.stringify(merged)]);
    return { kind: 'existing', record: merged };
  }

  async get(id: string): Promise<MediaRecord | null> {
    if (!MEDIA_ID_PATTERN.test(id)) return null;
    const result = await this.#db.query<{ record: MediaRecord }>('read an uploaded image', 'SELECT record FROM media WHERE id = $1', [id]);
    return result.rows[0]?.record ?? null;
  }

  /** Newest first (then by id, as media-files.ts orders them); with `owner`, only the media that owner uploaded. */
  async list(query: { owner?: string } = {}): Promise<MediaRecord[]> {
    const result =
      query.owner === undefined
        ? await this.#db.query<{ record: MediaRecord }>('list the uploaded images', 'SELECT record FROM media ORDER BY uploaded_at DESC, id DESC')
        : await this.#db.query<{ record: MediaRecord }>(
            'list the uploaded images',
            "SELECT record FROM media WHERE (record->'owners')::jsonb ? $1 ORDER BY uploaded_at DESC, id DESC",
            [query.owner],
          );
    return result.rows.map((row) => row.record);
  }

  /** The record and every file of it, in one statement. */
  async delete(id: string): Promise<boolean> {
    if (!MEDIA_ID_PATTERN.test(id)) return false;
    const result = await this.#db.query('remove an uploaded image', 'DELETE FROM media WHERE id = $1', [id]);
    return (result.rowCount ?? 0) > 0;
  }

  /** A plain Uint8Array view of the stored bytes (no copy), as the seam promises; null for any other name. */
  async read(file: string): Promise<Uint8Array | null> {
    if (!MEDIA_FILE_PATTERN.test(file)) return null;
    const result = await this.#db.query<{ bytes: Buffer }>('read an uploaded image', 'SELECT bytes FROM media_files WHERE file = $1', [file]);
    const bytes = result.rows[0]?.bytes;
    return bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
  }
}
