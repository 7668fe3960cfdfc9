/**
 * Staff sign-in sessions in `DATA_DIR/sessions/<idHash>.json`, one file per session, named by the
 * SHA-256 of the session id (64 hex characters, checked before a path is built from it: the id itself
 * is only in the visitor's cookie). Every write is durable (durable-writer.ts). Nothing is held in
 * memory: `blogpost staff disable` ends sessions while the server runs. `touch` writes `lastSeenAt`
 * only when it moved a minute or more, so a busy session does not rewrite its file on every request
 * (the idle expiry is then at most a minute generous). A damaged session file is no session (its
 * holder signs in again), and `purgeExpired` removes it.
 */
import path from 'node:path';
import { z } from 'zod';
import type { SessionRecord } from '../../../contract/staff';
import type { SessionRepository } from '../store';
import { StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { jsonNames, readJsonFile } from './json-file';

export const SESSIONS_DIR = 'sessions';

/** `touch` skips the write when `lastSeenAt` would move less than this. */
export const TOUCH_RESOLUTION_MS = 60_000;

/** The hex SHA-256 of a session id (the PostgreSQL store checks hashes with it too). */
export const ID_HASH = /^[0-9a-f]{64}$/;

const sessionRecordSchema = z.object({
  idHash: z.string().regex(ID_HASH),
  staffId: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string(),
  userAgent: z.string(),
}) satisfies z.ZodType<SessionRecord>;

const parseSession = (raw: unknown): SessionRecord | null => {
  const parsed = sessionRecordSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
};

const time = (iso: string) => Date.parse(iso);

export class FileSessionRepository implements SessionRepository {
  readonly #dir: string;
  readonly #writer: DurableWriter;
  /** The change of each session in progress, so changes to one session run one after another. */
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(dir: string, writer: DurableWriter) {
    this.#dir = dir;
    this.#writer = writer;
  }

  /** The file of a session; null for anything but 64 lower-case hex characters (never a path from untrusted text). */
  #file(idHash: string): string | null {
    return ID_HASH.test(idHash) ? path.join(this.#dir, `${idHash}.json`) : null;
  }

  #serially<T>(idHash: string, work: () => Promise<T>): Promise<T> {
    const next = (this.#queues.get(idHash) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.#queues.set(idHash, next);
    void next
      .finally(() => {
        if (this.#queues.get(idHash) === next) this.#queues.delete(idHash);
      })
      .catch(() => undefined);
    return next;
  }

  async #save(file: string, record: SessionRecord): Promise<void> {
    try {
      await this.#writer.write(file, `${JSON.stringify(record, null, 2)}\n`);
    } catch (error) {
      throw unwritable(file, error);
    }
  }

  /** A stored session; null when there is none, or when its file is damaged (that visitor signs in again). */
  async #read(file: string): Promise<SessionRecord | null> {
    try {
      return await readJsonFile(file, parseSession);
    } catch (error) {
      if (error instanceof StoreError && error.problem === 'corrupt') return null;
      throw error;
    }
  }

  /** Every session file by its id hash, with its record (null when damaged). */
  async #all(): Promise<Array<{ idHash: string; record: SessionRecord | null }>> {
    const hashes = (await jsonNames(this.#dir)).map((name) => name.slice(0, -'.json'.length)).filter((idHash) => ID_HASH.test(idHash));
    return Promise.all(hashes.map(async (idHash) => ({ idHash, record: await this.#read(path.join(this.#dir, `${idHash}.json`)) })));
  }

  create(record: SessionRecord): Promise<void> {
    const file = this.#file(record.idHash);
    if (!file) return Promise.reject(new StoreError('corrupt', record.idHash, 'A session is stored under the hex SHA-256 of its id (64 characters 0-9a-f).'));
    return this.#serially(record.idHash, () => this.#save(file, record));
  }

  async get(idHash: string): Promise<SessionRecord | null> {
    const file = this.#file(idHash);
    return file ? this.#read(file) : null;
  }

  touch(idHash: string, at: string): Promise<void> {
    const file = this.#file(idHash);
    if (!file) return Promise.resolve();
    return this.#serially(idHash, async () => {
      const record = await this.#read(file);
      if (!record || time(at) - time(record.lastSeenAt) < TOUCH_RESOLUTION_MS) return;
      await this.#save(file, { ...record, lastSeenAt: at });
    });
  }

  delete(idHash: string): Promise<boolean> {
    const file = this.#file(idHash);
    if (!file) return Promise.resolve(false);
    return this.#serially(idHash, () => this.#writer.remove(file));
  }

  async deleteForStaff(staffId: string): Promise<number> {
    const mine = (await this.#all()).filter(({ record }) => record?.staffId === staffId);
    const removed = await Promise.all(mine.map(({ idHash }) => this.delete(idHash)));
    return removed.filter(Boolean).length;
  }

  /** Damaged session files go too: nobody can sign in with them. */
  async purgeExpired(now: string, idleCutoff: string): Promise<number> {
    const ended = (await this.#all()).filter(({ record }) => !record || time(record.expiresAt) <= time(now) || time(record.lastSeenAt) < time(idleCutoff));
    const removed = await Promise.all(ended.map(({ idHash }) => this.delete(idHash)));
    return removed.filter(Boolean).length;
  }
}
