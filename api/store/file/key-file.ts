/**
 * The key file, `blog.json` (lowdb over a durable adapter): the store's format marker and the API
 * keys' hashes (never the keys). The CLI changes it while the server runs, so every read first checks
 * (one stat) whether the file changed on disk and reloads it then; every change runs under a lock
 * shared with other processes, on the file as it is on disk, and is written durably. Changes that
 * arrive while one is being written are written together (group commit), so last-used bookkeeping
 * under load costs one write per round, not one per request. A damaged file is never overwritten.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Adapter, Low } from 'lowdb';
import { type KeyRecord, type Manifest, manifestSchema, STORE_FORMAT, STORE_VERSION } from '../records';
import type { KeyPatch, KeyRepository } from '../store';
import { corruptFile, errorCode, StoreError, unwritable } from '../store-error';
import { DurableWriter } from './durable-writer';
import { withFileLock } from './file-lock';
import { GroupCommit } from './group-commit';

export const MANIFEST_FILE = 'blog.json';

/** lowdb's adapter for blog.json: checked with zod on read, written durably. */
class ManifestFile implements Adapter<Manifest> {
  constructor(
    readonly file: string,
    readonly writer: DurableWriter,
  ) {}

  /** The manifest, null when the file does not exist; a StoreError ('corrupt') when it is damaged. */
  async read(): Promise<Manifest | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw new StoreError('unreadable', this.file, `Cannot read ${this.file} (${error instanceof Error ? error.message : String(error)}).`, error);
    }
    if (text.trim() === '') throw corruptFile(this.file, 'the file is empty');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw corruptFile(this.file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw corruptFile(this.file, `unexpected content at ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'unknown'}`);
    }
    return parsed.data;
  }

  async write(data: Manifest): Promise<void> {
    await this.writer.write(this.file, `${JSON.stringify(data, null, 2)}\n`);
  }
}

/** What identifies one version of the file: every write renames a new file in, so the inode changes. */
interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

async function stampOf(file: string): Promise<FileStamp | null> {
  const info = await stat(file).catch(() => null);
  return info ? { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino } : null;
}

function sameStamp(a: FileStamp | null, b: FileStamp | null): boolean {
  return a !== null && b !== null && a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

/** A change to the manifest; `result` is what the caller gets back. */
interface Change {
  apply: (data: Manifest) => unknown;
  result?: unknown;
  error?: unknown;
}

const copyOf = (key: KeyRecord): KeyRecord => ({ ...key, permissions: [...key.permissions] });

/** A key name as names are compared: trimmed, in lower case ("Writer" and " writer" are one name). */
const normalName = (name: string): string => name.trim().toLowerCase();

export class KeyFile implements KeyRepository {
  readonly file: string;
  readonly #db: Low<Manifest>;
  readonly #lockDir: string;
  readonly #commits: GroupCommit<Change>;
  #stamp: FileStamp | null = null;

  private constructor(file: string, writer: DurableWriter, initial: Manifest) {
    this.file = file;
    this.#db = new Low(new ManifestFile(file, writer), initial);
    this.#lockDir = `${file}.lock`;
    this.#commits = new GroupCommit((changes) => this.#applyAll(changes));
  }

  /**
   * Opens `dataDir/blog.json`. When it is missing: creates it when `create`, else answers null.
   * `created` is true when this open wrote the file.
   */
  static async open(dataDir: string, options: { create: boolean; now: () => Date; writer?: DurableWriter }): Promise<{ keys: KeyFile; created: boolean } | null> {
    const file = path.join(dataDir, MANIFEST_FILE);
    const initial: Manifest = { format: STORE_FORMAT, version: STORE_VERSION, createdAt: options.now().toISOString(), demoKeyIssuedAt: null, keys: [] };
    const keys = new KeyFile(file, options.writer ?? new DurableWriter(), initial);
    if (await keys.#load()) return { keys, created: false };
    if (!options.create) return null;
    const created = await keys.#locked(async () => {
      // Another process may have created it while this one waited for the lock.
      if (await keys.#load()) return false;
      await keys.#save(initial);
      return true;
    });
    return { keys, created };
  }

  /** Reads the file into memory; false when it does not exist. */
  async #load(): Promise<boolean> {
    const stamp = await stampOf(this.file);
    const data = await this.#db.adapter.read();
    if (!data) return false;
    this.#db.data = data;
    this.#stamp = stamp;
    return true;
  }

  async #save(data: Manifest): Promise<void> {
    const previous = this.#db.data;
    this.#db.data = data;
    try {
      await this.#db.write();
    } catch (error) {
      this.#db.data = previous;
      throw unwritable(this.file, error);
    }
    this.#stamp = await stampOf(this.file);
  }

  async #locked<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await withFileLock(this.#lockDir, task);
    } catch (error) {
      throw error instanceof StoreError ? error : unwritable(this.file, error);
    }
  }

  /**
   * The manifest as it is now: this process's own changes settled first (a read sees them, as a key
   * used twice in a row must), then changes another process (the CLI) wrote picked up.
   */
  async #current(): Promise<Manifest> {
    await this.#commits.idle();
    return this.#refresh();
  }

  /** Picks up changes another process (the CLI) wrote since this one last read or wrote. */
  async #refresh(): Promise<Manifest> {
    if (!sameStamp(await stampOf(this.file), this.#stamp)) await this.#load();
    return this.#db.data;
  }

  /** One round of changes: under the lock, on the file as it is now, one durable write for all. */
  async #applyAll(changes: readonly Change[]): Promise<Array<Error | null>> {
    await this.#locked(async () => {
      const data = structuredClone(await this.#refresh());
      for (const change of changes) {
        try {
          change.result = change.apply(data);
        } catch (error) {
          change.error = error;
        }
      }
      // A round of refused changes (a taken key id) leaves the file as it is.
      if (changes.some((change) => !('error' in change))) await this.#save(data);
    });
    return changes.map(() => null);
  }

  async #change<T>(apply: (data: Manifest) => T): Promise<T> {
    const change: Change = { apply };
    await this.#commits.submit(change);
    if ('error' in change) throw change.error;
    return change.result as T;
  }

  async list(): Promise<KeyRecord[]> {
    return (await this.#current()).keys.map(copyOf);
  }

  async findById(id: string): Promise<KeyRecord | undefined> {
    const key = (await this.#current()).keys.find((candidate) => candidate.id === id);
    return key ? copyOf(key) : undefined;
  }

  /** Checked inside the change, which runs under the lock on the file as it is on disk: another process's key of that name counts. */
  add(record: KeyRecord): Promise<'added' | 'name_taken'> {
    return this.#change((data) => {
      this.#refuseTakenId(data, record.id);
      const name = normalName(record.name);
      if (data.keys.some((key) => key.revokedAt === null && normalName(key.name) === name)) return 'name_taken';
      data.keys.push(copyOf(record));
      return 'added';
    });
  }

  restore(record: KeyRecord): Promise<void> {
    return this.#change((data) => {
      this.#refuseTakenId(data, record.id);
      data.keys.push(copyOf(record));
    });
  }

  #refuseTakenId(data: Manifest, id: string): void {
    if (data.keys.some((key) => key.id === id)) throw new StoreError('conflict', this.file, `A key with id ${id} already exists.`);
  }

  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined> {
    return this.#change((data) => {
      const key = data.keys.find((candidate) => candidate.id === id);
      if (!key) return undefined;
      Object.assign(key, patch);
      return copyOf(key);
    });
  }

  async demoKeyIssuedAt(): Promise<string | null> {
    return (await this.#current()).demoKeyIssuedAt;
  }

  claimDemoKey(at: Date): Promise<boolean> {
    return this.#change((data) => {
      if (data.demoKeyIssuedAt !== null) return false;
      data.demoKeyIssuedAt = at.toISOString();
      return true;
    });
  }

  markDemoKeyIssued(at: Date | null): Promise<void> {
    return this.#change((data) => {
      data.demoKeyIssuedAt = at?.toISOString() ?? null;
    });
  }

  /** Resolves once every change accepted so far has settled. */
  flush(): Promise<void> {
    return this.#commits.idle();
  }
}
