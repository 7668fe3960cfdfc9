/**
 * What the import of a file store data directory shares between its parts: the report it builds, the
 * run under way (what it is doing, for the message when it stops), and the one way every record is
 * written: stored unless the store has it already (a resumed import), then read back and compared by a
 * hash of its content.
 */
import { createHash } from 'node:crypto';
import type { Store } from '../store';
import type { DamagedFile, LegacyQuarantinedFile } from './file-store-reader';

/** What an import wrote, by kind: the summary line names each, and the counts in the database must match. */
export interface LegacyImportCounts {
  posts: number;
  /** Kept earlier versions of the posts. */
  revisions: number;
  keys: number;
  staff: number;
  sessions: number;
  leads: number;
  /** The leads' notifications (sent and waiting). */
  notifications: number;
  audit: number;
  media: number;
  /** The images' variant files (left where they were). */
  mediaFiles: number;
}

/** What an import did, for its log lines and for a caller that shows more (the tests). */
export interface LegacyImportReport {
  dataDir: string;
  /** The dated folder the old files are in now. */
  movedTo: string;
  counts: LegacyImportCounts;
  demoKeyIssuedAt: string | null;
  /** Files (or parts of one: a key, an account, an audit line) that could not be used: not imported. */
  skipped: DamagedFile[];
  /** What was changed so a record fits (a previous slug another post has, an order number used twice). */
  adjusted: string[];
  /** Files the file store had moved aside as damaged: not imported. */
  quarantined: LegacyQuarantinedFile[];
  /** True when this start finished an import an earlier start began. */
  resumed: boolean;
}

/** A record that reads back differently from its file: a bug, or another process changing the database meanwhile. */
export class ImportMismatch extends Error {
  override readonly name = 'ImportMismatch';
}

/** The import under way: what it has done, and what it is doing (for the message when it stops). */
export interface ImportRun {
  dataDir: string;
  store: Store;
  log: (line: string) => void;
  report: LegacyImportReport;
  doing: string;
}

/** A stable hash of a record's content: its JSON with keys sorted (and absent fields left out), so two copies of one record match. */
export function contentHash(value: unknown): string {
  const canonical = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(canonical);
    if (item === null || typeof item !== 'object') return item;
    const entries = Object.entries(item as Record<string, unknown>).filter(([, field]) => field !== undefined);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, field]) => [key, canonical(field)]));
  };
  return createHash('sha256').update(JSON.stringify(canonical(value))).digest('hex');
}

/**
 * Stores one record unless the store has it already (a resumed import), then reads it back and checks
 * it is the record of the file. `write` is skipped only when `skipWhenThere`: the stores' `add` and
 * `restore` refuse an id they hold, while `create` of a lead or session stores it again.
 */
export async function ensureRecord<T>(what: string, expected: T, read: () => Promise<T | null | undefined>, write: () => Promise<unknown>, skipWhenThere = true): Promise<void> {
  const there = skipWhenThere ? await read() : null;
  if (there === null || there === undefined) await write();
  const stored = there ?? (await read());
  if (stored === null || stored === undefined) throw new ImportMismatch(`${what} was stored, but the database does not have it when read back`);
  if (contentHash(stored) !== contentHash(expected)) {
    throw new ImportMismatch(`${what} reads back from the database differently from its file${there ? ' (it was in the database already)' : ''}`);
  }
}

