/**
 * Uploaded images in the data directory: `media/<id>.json` (one record per upload, checked with
 * mediaRecordSchema when read) and its variants in `media/files/<id>-<width>.<ext>`. Every write is
 * durable (durable-writer.ts), the files first and the record last, so a crash never leaves a record
 * whose files are missing (at worst files without a record, which nothing lists). A delete removes the
 * record first for the same reason. Nothing is held in memory: the CLI may change media while the
 * server runs. Changes to one medium in this process are applied one at a time.
 *
 * File names come only from MEDIA_ID_PATTERN and MEDIA_FILE_PATTERN (contract/media.ts), checked before
 * a path is built, so no request can name a file outside the folder.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_FILE_PATTERN, MEDIA_ID_PATTERN } from '../../../contract/media';
import { type MediaRecord, mediaRecordSchema } from '../records';
import type { MediaRepository } from '../store';
import { errorCode, StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { jsonNames, readJsonFile } from './json-file';

export const MEDIA_DIR = 'media';
/** The variants' folder, inside MEDIA_DIR. */
export const MEDIA_FILES_DIR = path.join(MEDIA_DIR, 'files');

const parseMedia = (raw: unknown): MediaRecord | null => {
  const parsed = mediaRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

/** True when `file` is a variant name of the medium `id` (`<id>-<width>.<ext>`). */
function isVariantOf(file: string, id: string): boolean {
  return MEDIA_FILE_PATTERN.exec(file)?.[1] === id;
}

export class FileMediaRepository implements MediaRepository {
  readonly #dir: string;
  readonly #filesDir: string;
  readonly #writer: DurableWriter;
  /** The change of each medium in progress, so changes to one medium run one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();

  /** `dir` is DATA_DIR/media; the variants go to its `files/` folder. */
  constructor(dir: string, writer: DurableWriter) {
    this.#dir = dir;
    this.#filesDir = path.join(dir, 'files');
    this.#writer = writer;
  }

  /** The record file of a medium; null for anything but a media id. */
  #recordFile(id: string): string | null {
    return MEDIA_ID_PATTERN.test(id) ? path.join(this.#dir, `${id}.json`) : null;
  }

  /** A variant's path; null for any name MEDIA_FILE_PATTERN does not match (no path traversal). */
  #variantFile(file: string): string | null {
    return MEDIA_FILE_PATTERN.test(file) ? path.join(this.#filesDir, file) : null;
  }

  #serially<T>(id: string, work: () => Promise<T>): Promise<T> {
    const next = (this.#queues.get(id) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.#queues.set(id, next);
    void next
      .finally(() => {
        if (this.#queues.get(id) === next) this.#queues.delete(id);
      })
      .catch(() => undefined);
    return next;
  }

  async #writeRecord(file: string, record: MediaRecord): Promise<void> {
    try {
      await this.#writer.write(file, `${JSON.stringify(record, null, 2)}\n`);
    } catch (error) {
      throw unwritable(file, error);
    }
  }

  async #removeFiles(names: readonly string[]): Promise<void> {
    await Promise.all(
      names.map((name) => {
        const file = this.#variantFile(name);
        return file ? this.#writer.remove(file).catch(() => false) : false;
      }),
    );
  }

  save(record: MediaRecord, files: ReadonlyMap<string, Uint8Array>): Promise<{ kind: 'created' | 'existing'; record: MediaRecord }> {
    const recordFile = this.#recordFile(record.id);
    if (!recordFile) return Promise.reject(new StoreError('corrupt', record.id, `"${record.id}" is not a media id (32 lower-case hex digits).`));
    for (const name of files.keys()) {
      if (!isVariantOf(name, record.id)) {
        return Promise.reject(new StoreError('corrupt', name, `"${name}" is not a variant name of the medium ${record.id} (<id>-<width>.<ext>).`));
      }
    }
    return this.#serially(record.id, async () => {
      const existing = await readJsonFile(recordFile, parseMedia);
      if (existing) {
        const owners = [...new Set([...existing.owners, ...record.owners])];
        if (owners.length === existing.owners.length) return { kind: 'existing', record: existing };
        const merged = { ...existing, owners };
        await this.#writeRecord(recordFile, merged);
        return { kind: 'existing', record: merged };
      }
      const names = [...files.keys()];
      const failures = await this.#writer.writeBatch(names.map((name) => ({ file: path.join(this.#filesDir, name), text: files.get(name) ?? new Uint8Array() })));
      const failed = failures.findIndex((failure) => failure !== null);
      if (failed >= 0) {
        await this.#removeFiles(names);
        throw unwritable(path.join(this.#filesDir, names[failed] ?? ''), failures[failed]);
      }
      try {
        await this.#writeRecord(recordFile, record);
      } catch (error) {
        await this.#removeFiles(names);
        throw error;
      }
      return { kind: 'created', record };
    });
  }

  async get(id: string): Promise<MediaRecord | null> {
    const file = this.#recordFile(id);
    return file ? readJsonFile(file, parseMedia) : null;
  }

  async list(query: { owner?: string } = {}): Promise<MediaRecord[]> {
    const ids = (await jsonNames(this.#dir)).map((name) => name.slice(0, -'.json'.length)).filter((id) => MEDIA_ID_PATTERN.test(id));
    const records = await Promise.all(ids.map((id) => this.get(id)));
    return records
      .filter((record): record is MediaRecord => record !== null && (query.owner === undefined || record.owners.includes(query.owner)))
      .sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt) || b.id.localeCompare(a.id));
  }

  delete(id: string): Promise<boolean> {
    const recordFile = this.#recordFile(id);
    if (!recordFile) return Promise.resolve(false);
    return this.#serially(id, async () => {
      const record = await readJsonFile(recordFile, parseMedia);
      if (!record) return false;
      // The record first: a crash in between leaves files nothing lists, never a record without its files.
      await this.#writer.remove(recordFile);
      await this.#removeFiles(record.variants.map((variant) => variant.file).filter((file) => isVariantOf(file, id)));
      return true;
    });
  }

  async read(file: string): Promise<Uint8Array | null> {
    const variant = this.#variantFile(file);
    if (!variant) return null;
    try {
      const bytes = await readFile(variant);
      // A plain view of the Buffer's bytes (no copy), as the seam promises.
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw new StoreError('unreadable', variant, `Cannot read ${variant} (${error instanceof Error ? error.message : String(error)}).`, error);
    }
  }
}
