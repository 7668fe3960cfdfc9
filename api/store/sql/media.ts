/**
 * Uploaded images, the same on SQLite and PostgreSQL: `media` (one record per upload, whole as JSON
 * text), `media_owners` (who uploaded it, what `list({ owner })` filters on) and `media_files` (one row
 * per variant). Where a variant's bytes live depends on the engine:
 *
 * - SQLite (`mediaDir` given, DATA_DIR/media/files): each variant is a file `<id>-<width>.<ext>` there,
 *   where the file store kept it, so an old data directory is imported in place; its row has no bytes.
 *   A save writes the files durably (temp file, fsync, rename, fsync of the folder) inside the record's
 *   write transaction, before it commits, so a record is never there without its files; a save that
 *   fails removes the files it made. A delete removes the record first, then the files, so a crash in
 *   between leaves files nothing lists, never a record without its files.
 * - PostgreSQL (several app servers, no shared folder): the bytes are in `media_files.bytes`, stored with
 *   the record in one transaction and removed with it (ON DELETE CASCADE).
 *
 * The same picture uploaded twice at once (two instances, or the server and the CLI) is stored once: the
 * second waits for the first's row and then only adds its owner. Ids and file names are checked with
 * MEDIA_ID_PATTERN and MEDIA_FILE_PATTERN (contract/media.ts), as the file store checked them, before a
 * path is built, so no request can name a file outside the folder.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_FILE_PATTERN, MEDIA_ID_PATTERN } from '../../../contract/media';
import type { MediaRecord } from '../records';
import type { MediaRepository } from '../store';
import { errorCode, StoreError, unwritable } from '../store-error';
import type { SqlDatabase, Tx } from './database';

type SaveOutcome = { kind: 'created' | 'existing'; record: MediaRecord };

/** True when `file` is a variant name of the medium `id` (`<id>-<width>.<ext>`). */
function isVariantOf(file: string, id: string): boolean {
  return MEDIA_FILE_PATTERN.exec(file)?.[1] === id;
}

/** A variant's path in `dir`; null for anything but a variant name (no separators, no `..`). */
function variantPath(dir: string, file: string): string | null {
  if (!MEDIA_FILE_PATTERN.test(file) || path.basename(file) !== file || file.includes('..')) return null;
  return path.join(dir, file);
}

/** Bytes as the drivers take a binary parameter (a Buffer), without a copy. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** A plain Uint8Array view of a Buffer's bytes (no copy), as the seam promises. */
const asPlainBytes = (bytes: Uint8Array) => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Fsyncs a folder, so the renames and removals in it survive a crash. */
async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes one file through a hidden temp file beside it (`.name.<random>.tmp`, the file store's pattern), fsynced, then renamed over it. */
async function writeThroughTemp(file: string, bytes: Uint8Array): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw unwritable(file, error);
  }
}

/** Unlinks a file; one already gone is fine. */
async function removeIfThere(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

/** True when `file` is there already (an imported data directory's variant, or one a failed save left). */
async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw new StoreError('unreadable', file, `Cannot look at ${file} (${error instanceof Error ? error.message : String(error)}). Check the permissions of DATA_DIR/media.`, error);
  }
}

export class SqlMediaRepository implements MediaRepository {
  readonly #database: SqlDatabase;
  readonly #mediaDir: string | null;

  /** `mediaDir`: the folder of the variants' files (SQLite); null keeps the bytes in the database (PostgreSQL). */
  constructor(database: SqlDatabase, mediaDir: string | null) {
    this.#database = database;
    this.#mediaDir = mediaDir;
  }

  /**
   * A new medium: its files, then its record, in one transaction ('created'). An existing id: no file
   * is written, and the record as stored gains the new owners ('existing', unchanged when it had them all).
   */
  async save(record: MediaRecord, files: ReadonlyMap<string, Uint8Array>): Promise<SaveOutcome> {
    if (!MEDIA_ID_PATTERN.test(record.id)) throw new StoreError('corrupt', record.id, `"${record.id}" is not a media id (32 lower-case hex digits).`);
    for (const name of files.keys()) {
      if (!isVariantOf(name, record.id)) throw new StoreError('corrupt', name, `"${name}" is not a variant name of the medium ${record.id} (<id>-<width>.<ext>).`);
    }
    // The files this save made (not those there before it): removed again when the save fails.
    const made: string[] = [];
    try {
      return await this.#database.write('store an uploaded image', async (tx): Promise<SaveOutcome> => {
        // Waits for a save of the same id elsewhere to commit (PostgreSQL), then inserts nothing.
        const inserted = await tx
          .insertInto('media')
          .values({ id: record.id, uploaded_at: record.uploadedAt, record: JSON.stringify(record) })
          .onConflict((conflict) => conflict.column('id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return this.#addOwners(tx, record);
        await this.#insertOwners(tx, record.id, record.owners);
        const names = [...files.keys()];
        if (names.length === 0) return { kind: 'created', record };
        if (this.#mediaDir) await this.#writeFiles(this.#mediaDir, files, made);
        await tx
          .insertInto('media_files')
          .values(names.map((name) => ({ file: name, media_id: record.id, bytes: this.#mediaDir ? null : asBuffer(files.get(name) ?? new Uint8Array()) })))
          .execute();
        return { kind: 'created', record };
      });
    } catch (error) {
      if (made.length > 0) await this.#removeFiles(record.id, made).catch(() => undefined);
      throw error;
    }
  }

  /** Writes every variant durably to `dir` (concurrently, one fsync of the folder for all), noting in `made` each file it creates. */
  async #writeFiles(dir: string, files: ReadonlyMap<string, Uint8Array>, made: string[]): Promise<void> {
    const names = [...files.keys()];
    const before = await Promise.all(names.map((name) => exists(path.join(dir, name))));
    made.push(...names.filter((_, index) => !before[index]));
    const written = await Promise.allSettled(names.map((name) => writeThroughTemp(path.join(dir, name), files.get(name) ?? new Uint8Array())));
    const failed = written.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    try {
      await syncFolder(dir);
    } catch (error) {
      throw unwritable(dir, error);
    }
  }

  /**
   * Removes a medium's files, in a write of its own that first checks the medium is not stored (again):
   * a save of the same picture meanwhile, on this process or another, keeps its files.
   */
  async #removeFiles(id: string, names: readonly string[]): Promise<void> {
    const dir = this.#mediaDir;
    if (!dir || names.length === 0) return;
    await this.#database.write("remove an uploaded image's files", async (tx) => {
      const stored = await tx.selectFrom('media').select('id').where('id', '=', id).executeTakeFirst();
      if (stored) return;
      for (const name of names) {
        const file = variantPath(dir, name);
        if (file) await removeIfThere(file);
      }
      await syncFolder(dir);
    });
  }

  /** Adds owners to `media_owners` (those it has already are kept). */
  async #insertOwners(tx: Tx, id: string, owners: readonly string[]): Promise<void> {
    if (owners.length === 0) return;
    await tx
      .insertInto('media_owners')
      .values([...new Set(owners)].map((owner) => ({ media_id: id, owner })))
      .onConflict((conflict) => conflict.columns(['media_id', 'owner']).doNothing())
      .execute();
  }

  /** The stored record of an existing medium with `record`'s owners added (written only when one is new). */
  async #addOwners(tx: Tx, record: MediaRecord): Promise<{ kind: 'existing'; record: MediaRecord }> {
    const row = await tx
      .selectFrom('media')
      .select('record')
      .where('id', '=', record.id)
      .$if(this.#database.kind === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) throw new StoreError('conflict', this.#database.where, `The image ${record.id} was removed while it was being stored again; upload it again.`);
    const existing = this.#database.parse<MediaRecord>(row.record, 'image record');
    const owners = [...new Set([...existing.owners, ...record.owners])];
    if (owners.length === existing.owners.length) return { kind: 'existing', record: existing };
    const merged = { ...existing, owners };
    await tx.updateTable('media').set({ record: JSON.stringify(merged) }).where('id', '=', record.id).execute();
    await this.#insertOwners(tx, record.id, owners);
    return { kind: 'existing', record: merged };
  }

  async get(id: string): Promise<MediaRecord | null> {
    if (!MEDIA_ID_PATTERN.test(id)) return null;
    const row = await this.#database.read('read an uploaded image', (db) => db.selectFrom('media').select('record').where('id', '=', id).executeTakeFirst());
    return row ? this.#database.parse<MediaRecord>(row.record, 'image record') : null;
  }

  /** Newest first (then by id, as the file store ordered them); with `owner`, only the media that owner uploaded. */
  async list(query: { owner?: string } = {}): Promise<MediaRecord[]> {
    const { owner } = query;
    const rows = await this.#database.read('list the uploaded images', (db) =>
      db
        .selectFrom('media')
        .select('record')
        .$if(owner !== undefined, (q) => q.where('id', 'in', (eb) => eb.selectFrom('media_owners').select('media_id').where('owner', '=', owner ?? '')))
        .orderBy('uploaded_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),
    );
    return rows.map((row) => this.#database.parse<MediaRecord>(row.record, 'image record'));
  }

  /** The record (its owners and file rows with it), then, with a media folder, its files. */
  async delete(id: string): Promise<boolean> {
    if (!MEDIA_ID_PATTERN.test(id)) return false;
    const removed = await this.#database.write('remove an uploaded image', async (tx) => {
      const row = await tx.selectFrom('media').select('record').where('id', '=', id).executeTakeFirst();
      if (!row) return null;
      const files = await tx.selectFrom('media_files').select('file').where('media_id', '=', id).execute();
      await tx.deleteFrom('media').where('id', '=', id).execute();
      const variants = this.#database.parse<MediaRecord>(row.record, 'image record').variants.map((variant) => variant.file);
      return [...new Set([...files.map((file) => file.file), ...variants])].filter((file) => isVariantOf(file, id));
    });
    if (removed === null) return false;
    // The record is gone: files a failure here leaves are listed by nothing (a later save of the picture writes them again).
    await this.#removeFiles(id, removed).catch(() => undefined);
    return true;
  }

  /** A variant's bytes as a plain Uint8Array (no copy), as the seam promises; null for any other name or a missing file. */
  async read(file: string): Promise<Uint8Array | null> {
    if (!MEDIA_FILE_PATTERN.test(file)) return null;
    if (this.#mediaDir === null) {
      const row = await this.#database.read('read an uploaded image', (db) => db.selectFrom('media_files').select('bytes').where('file', '=', file).executeTakeFirst());
      return row?.bytes ? asPlainBytes(row.bytes) : null;
    }
    const variant = variantPath(this.#mediaDir, file);
    if (!variant) return null;
    try {
      return asPlainBytes(await readFile(variant));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw new StoreError('unreadable', variant, `Cannot read ${variant} (${error instanceof Error ? error.message : String(error)}). Check the permissions of DATA_DIR/media/files.`, error);
    }
  }
}
