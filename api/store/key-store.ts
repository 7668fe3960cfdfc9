/**
 * API key records in `blog.json` (lowdb), next to the store's format marker. Holds only hashes of keys.
 * The CLI changes this file while the server runs, so every read first reloads it when it changed on
 * disk, and every change reloads, edits and writes inside one queue. Whether it changed is one stat
 * per request, made synchronously: a stat of a small local file costs a few microseconds, far less than
 * the round trip through libuv's thread pool an asynchronous stat takes.
 */
import { statSync } from 'node:fs';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { type KeyRecord, type Manifest, manifestSchema, STORE_FORMAT, STORE_VERSION } from './records';
import { SerialQueue } from './serial-queue';
import { corruptFile, StoreError, unwritable } from './store-error';

export const MANIFEST_FILE = 'blog.json';

interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

function stampOf(file: string): FileStamp | null {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino } : null;
}

function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  return a !== null && b !== null && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

export class KeyStore {
  readonly file: string;
  /** True when this open created the file (a fresh data directory). */
  readonly created: boolean;
  readonly #db: Low<Manifest>;
  readonly #queue = new SerialQueue();
  #stamp: FileStamp | null = null;

  private constructor(file: string, db: Low<Manifest>, created: boolean) {
    this.file = file;
    this.#db = db;
    this.created = created;
  }

  /** Opens the manifest, creating it when missing; a damaged file is an error, never overwritten. */
  static async open(file: string, now: () => Date): Promise<KeyStore> {
    const initial: Manifest = { format: STORE_FORMAT, version: STORE_VERSION, createdAt: now().toISOString(), demoKeyIssuedAt: null, keys: [] };
    const db = new Low<Manifest>(new JSONFile<Manifest>(file), initial);
    const exists = stampOf(file) !== null;
    const store = new KeyStore(file, db, !exists);
    if (exists) await store.#load();
    else await store.#save();
    return store;
  }

  async #load(): Promise<void> {
    try {
      await this.#db.read();
    } catch (error) {
      if (error instanceof SyntaxError) throw corruptFile(this.file, `not valid JSON: ${error.message}`, error);
      throw new StoreError('unreadable', this.file, `Cannot read ${this.file} (${String(error)}).`, error);
    }
    const parsed = manifestSchema.safeParse(this.#db.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw corruptFile(this.file, `unexpected content at ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'unknown'}`);
    }
    this.#db.data = parsed.data;
    this.#stamp = stampOf(this.file);
  }

  async #save(): Promise<void> {
    try {
      await this.#db.write();
    } catch (error) {
      throw unwritable(this.file, error);
    }
    this.#stamp = stampOf(this.file);
  }

  /** Picks up changes another process (the CLI) wrote since this one last read or wrote. */
  async #refresh(): Promise<void> {
    const current = stampOf(this.file);
    if (current !== null && !sameStamp(current, this.#stamp)) await this.#load();
  }

  /** Reload if needed, apply `change`, write: all inside the queue. */
  #mutate<T>(change: (data: Manifest) => T): Promise<T> {
    return this.#queue.run(async () => {
      await this.#refresh();
      const result = change(this.#db.data);
      await this.#save();
      return result;
    });
  }

  async list(): Promise<KeyRecord[]> {
    await this.#queue.run(() => this.#refresh());
    return this.#db.data.keys.map((key) => ({ ...key, permissions: [...key.permissions] }));
  }

  async findById(id: string): Promise<KeyRecord | undefined> {
    const now = this.findByIdNow(id);
    if (now !== null) return now;
    await this.#queue.run(() => this.#refresh());
    return this.#copyOf(id);
  }

  /**
   * findById() answered at once, without a turn through the queue, when no change is under way and the
   * file on disk is the one last read (one stat, as before every read); null when it cannot be.
   */
  findByIdNow(id: string): KeyRecord | undefined | null {
    if (this.#queue.busy || !sameStamp(stampOf(this.file), this.#stamp)) return null;
    return this.#copyOf(id);
  }

  #copyOf(id: string): KeyRecord | undefined {
    const key = this.#db.data.keys.find((candidate) => candidate.id === id);
    return key ? { ...key, permissions: [...key.permissions] } : undefined;
  }

  add(record: KeyRecord): Promise<void> {
    return this.#mutate((data) => {
      if (data.keys.some((key) => key.id === record.id)) throw new StoreError('conflict', this.file, `A key with id ${record.id} already exists.`);
      data.keys.push(record);
    });
  }

  /** Applies `patch` to the key with this id; returns the updated record, or undefined when there is none. */
  update(id: string, patch: Partial<Pick<KeyRecord, 'lastUsedAt' | 'revokedAt'>>): Promise<KeyRecord | undefined> {
    return this.#mutate((data) => {
      const key = data.keys.find((candidate) => candidate.id === id);
      if (!key) return undefined;
      Object.assign(key, patch);
      return { ...key, permissions: [...key.permissions] };
    });
  }

  async demoKeyIssuedAt(): Promise<string | null> {
    await this.#queue.run(() => this.#refresh());
    return this.#db.data.demoKeyIssuedAt;
  }

  markDemoKeyIssued(at: Date): Promise<void> {
    return this.#mutate((data) => {
      data.demoKeyIssuedAt = at.toISOString();
    });
  }

  flush(): Promise<void> {
    return this.#queue.idle();
  }
}
