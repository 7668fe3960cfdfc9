/**
 * The audit log in `DATA_DIR/audit/audit-<YYYY-MM>.jsonl` (the UTC month of the entry): one JSON line
 * per entry, appended and never changed. An append opens the file with 'a', writes the whole line in
 * one `write` call (so lines of two processes, the server and the CLI, never interleave within a
 * line) and fsyncs before it resolves; appends of one process run one at a time. Reading goes through
 * the monthly files in order and skips a damaged line (a crash mid-write, a hand edit), counting it,
 * rather than failing. Entries never hold a password or session id (contract/staff.ts).
 */
import { mkdir, open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AUDIT_ACTIONS, type AuditEntry } from '../../../contract/staff';
import type { AuditLog } from '../store';
import { errorCode, StoreError, unwritable } from '../store-error';

export const AUDIT_DIR = 'audit';

const FILE_NAME = /^audit-(\d{4}-\d{2})\.jsonl$/;

/** What an audit entry must be to be logged (the PostgreSQL store checks appends with it too). */
export const auditEntrySchema = z.object({
  at: z.string().refine((at) => !Number.isNaN(Date.parse(at)), 'an ISO time'),
  actor: z.string().min(1),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  ip: z.string().nullable(),
}) satisfies z.ZodType<AuditEntry>;

export interface AuditQuery {
  /** Only entries at or after this ISO time. */
  since?: string;
  /** Only the newest `limit` entries (still oldest first). */
  limit?: number;
}

export interface AuditRead {
  /** Oldest first. */
  entries: AuditEntry[];
  /** Lines that were not a valid entry and were skipped. */
  damagedLines: number;
}

/** `audit-2026-11.jsonl` for an entry at 2026-11-...Z. */
export function auditFileName(at: string): string {
  return `audit-${new Date(at).toISOString().slice(0, 7)}.jsonl`;
}

function parseLine(line: string): AuditEntry | null {
  try {
    const parsed = auditEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export class FileAuditLog implements AuditLog {
  readonly #dir: string;
  /** The append in progress, so this process's lines are written one after another. */
  #queue: Promise<unknown> = Promise.resolve();
  #dirReady = false;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** Where the log lives (for messages). */
  get location(): string {
    return this.#dir;
  }

  append(entry: AuditEntry): Promise<void> {
    const checked = auditEntrySchema.safeParse(entry);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return Promise.reject(new StoreError('corrupt', this.#dir, `Not an audit entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'}); nothing was logged.`));
    }
    const next = this.#queue.catch(() => undefined).then(() => this.#write(checked.data));
    this.#queue = next;
    return next;
  }

  async #write(entry: AuditEntry): Promise<void> {
    const file = path.join(this.#dir, auditFileName(entry.at));
    const line = `${JSON.stringify(entry)}\n`;
    try {
      if (!this.#dirReady) {
        await mkdir(this.#dir, { recursive: true });
        this.#dirReady = true;
      }
      const handle = await open(file, 'a', 0o600);
      try {
        await handle.write(line);
        await handle.sync();
        // The first line of a new month's file: the file's name must survive a crash too.
        if ((await handle.stat()).size === Buffer.byteLength(line)) await this.#syncDir();
      } finally {
        await handle.close();
      }
    } catch (error) {
      throw unwritable(file, error);
    }
  }

  async #syncDir(): Promise<void> {
    if (process.platform === 'win32') return;
    const handle = await open(this.#dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** The monthly files, oldest first; those wholly before `since` left out. */
  async #files(since: string | undefined): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return [];
      throw new StoreError('unreadable', this.#dir, `Cannot read the folder ${this.#dir} (${error instanceof Error ? error.message : String(error)}).`, error);
    }
    const fromMonth = since ? auditFileName(since) : '';
    return names.filter((name) => FILE_NAME.test(name) && name >= fromMonth).sort();
  }

  /** The entries and how many damaged lines were skipped. */
  async read(query: AuditQuery = {}): Promise<AuditRead> {
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    if (since !== undefined && Number.isNaN(since)) throw new StoreError('corrupt', this.#dir, `"${query.since}" is not a time to read the audit log from.`);
    let damagedLines = 0;
    const entries: AuditEntry[] = [];
    for (const name of await this.#files(query.since)) {
      const file = path.join(this.#dir, name);
      const text = await readFile(file, 'utf8').catch((error: unknown) => {
        throw new StoreError('unreadable', file, `Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`, error);
      });
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const entry = parseLine(line);
        if (!entry) damagedLines += 1;
        else if (since === undefined || Date.parse(entry.at) >= since) entries.push(entry);
      }
    }
    // Two processes append to one file: their lines may be a few milliseconds out of order.
    entries.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const limited = query.limit !== undefined && query.limit >= 0 ? entries.slice(Math.max(0, entries.length - query.limit)) : entries;
    return { entries: limited, damagedLines };
  }

  async list(query: AuditQuery = {}): Promise<AuditEntry[]> {
    return (await this.read(query)).entries;
  }
}
