/**
 * The advertising archive (decision 0028): what a record holds, how records are chained by hash, and
 * how a chain is checked. Pure: the SQL store (sql/archive.ts) appends and reads the rows, `blogpost
 * archive verify` and the export read them through the seam (store.ts ArchiveRepository).
 *
 * A record is one version of a subject (a post's id, or a site page's path) as the public saw it
 * (events `published`, `updated`, `page_changed`), or the moment a subject stopped being public
 * (`unpublished`, `deleted`: a closing record, no content, live_from = live_to = that moment). Its
 * hash covers every field but `live_to`, plus the hash of the record before. `live_to` is the one value
 * set after the append (when the next version of the subject goes live or it stops being public); it is
 * not hashed, but it must equal the `live_from` of the next record of the same subject, itself chained,
 * so `verifyChain` checks it against that record: a changed `live_to` is detected as well.
 */
import { createHash } from 'node:crypto';

export const ARCHIVE_EVENTS = ['published', 'updated', 'unpublished', 'deleted', 'page_changed'] as const;
export type ArchiveEvent = (typeof ARCHIVE_EVENTS)[number];
/** The events of a record that holds a version (the others close the version before). */
export const VERSION_EVENTS: ReadonlySet<ArchiveEvent> = new Set(['published', 'updated', 'page_changed']);

export type ArchiveKind = 'post' | 'page';

/** A compliance finding as the archive keeps it: the rule, how severe, the words it matched. */
export interface ArchiveFinding {
  rule: string;
  severity: string;
  match: string;
}

/** What a caller appends: the store numbers, dates, hashes and chains it. */
export interface ArchiveAppend {
  /** A post's id, or a site page's path. */
  subject: string;
  kind: ArchiveKind;
  event: ArchiveEvent;
  /** Where the public saw it (`/blog/<slug>`, `/faq`). */
  path: string;
  title: string;
  /** The HTML snapshot (empty for a closing record). */
  html: string;
  /** Its text, for searching an examination's questions. */
  text: string;
  /** When it went live (or, for a closing record, stopped being public). ISO 8601, UTC. */
  at: string;
  findings: ArchiveFinding[];
  /** Who made the change (`staff:<email>`, `key:<id>`, `scheduler`, `site`). */
  madeBy: string | null;
  /** Who approved it in compliance review, and under which code. */
  approver: string | null;
  approvalCode: string | null;
}

/** A record as stored: what was appended (its `at` as `liveFrom`), numbered, dated and chained. */
export interface ArchiveRecord extends Omit<ArchiveAppend, 'at'> {
  seq: number;
  /** SHA-256 of `html`, hex. */
  contentHash: string;
  liveFrom: string;
  liveTo: string | null;
  recordedAt: string;
  prevHash: string;
  hash: string;
}

/** The `prev_hash` of the first record ever appended. */
export const GENESIS_HASH = '0'.repeat(64);

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash of a record: its fields but `liveTo` and `hash`, in a fixed order, with the previous hash. */
export function recordHash(record: Omit<ArchiveRecord, 'hash' | 'liveTo'>): string {
  return sha256(
    JSON.stringify([
      record.seq,
      record.subject,
      record.kind,
      record.event,
      record.path,
      record.title,
      record.html,
      record.text,
      record.contentHash,
      record.liveFrom,
      record.findings.map((finding) => [finding.rule, finding.severity, finding.match]),
      record.madeBy,
      record.approver,
      record.approvalCode,
      record.recordedAt,
      record.prevHash,
    ]),
  );
}

/** Where the chain starts: nothing removed yet (genesis), or the last record removed after its retention. */
export interface ArchiveBase {
  seq: number;
  hash: string;
}

export type ChainVerdict =
  | { ok: true; records: number; head: string }
  | { ok: false; seq: number; subject: string; problem: string; records: number };

/**
 * Walks the records in `seq` order from `base` and says whether each one is as it was appended: its
 * number follows the one before, its content hash and its own hash match its fields, it names the hash
 * of the record before, and its `live_to` agrees with the next record of its subject. The first broken
 * record is named.
 */
export function verifyChain(records: readonly ArchiveRecord[], base: ArchiveBase | null): ChainVerdict {
  let prevHash = base?.hash ?? GENESIS_HASH;
  let prevSeq = base?.seq ?? 0;
  const broken = (record: ArchiveRecord, problem: string): ChainVerdict => ({ ok: false, seq: record.seq, subject: record.subject, problem, records: records.length });
  // The next record of each subject after a given one, for the live_to check.
  const nextOfSubject = new Map<number, ArchiveRecord>();
  const lastOfSubject = new Map<string, ArchiveRecord>();
  for (const record of records) {
    const before = lastOfSubject.get(record.subject);
    if (before) nextOfSubject.set(before.seq, record);
    lastOfSubject.set(record.subject, record);
  }
  for (const record of records) {
    if (record.seq !== prevSeq + 1) return broken(record, `its number follows ${prevSeq}: record(s) ${prevSeq + 1}–${record.seq - 1} are missing`);
    if (sha256(record.html) !== record.contentHash) return broken(record, 'its HTML does not match its content hash (the snapshot was changed)');
    if (record.prevHash !== prevHash) return broken(record, 'it does not name the hash of the record before it (a record before it was changed or removed)');
    if (recordHash(record) !== record.hash) return broken(record, 'its fields do not match its hash (the record was changed after it was appended)');
    const next = nextOfSubject.get(record.seq);
    if (VERSION_EVENTS.has(record.event)) {
      const expected = next ? next.liveFrom : null;
      if (record.liveTo !== expected) {
        return broken(record, expected === null ? `its live_to is ${record.liveTo ?? 'empty'}, but no later record of ${record.subject} ended it` : `its live_to is ${record.liveTo ?? 'empty'}, but the next record of ${record.subject} (${next?.seq ?? ''}) went live at ${expected}`);
      }
    } else if (record.liveTo !== record.liveFrom) return broken(record, `a closing record's live_to must equal its live_from (${record.liveFrom})`);
    prevHash = record.hash;
    prevSeq = record.seq;
  }
  return { ok: true, records: records.length, head: prevHash };
}

/** Which records an export or a timeline asks for: of one subject, and/or live at some moment between `from` and `to`. */
export interface ArchiveQuery {
  subject?: string;
  from?: string;
  to?: string;
}

/** ARCHIVE_RETENTION_YEARS: how long a record is kept at least after it stopped being live. */
export const DEFAULT_ARCHIVE_RETENTION_YEARS = 5;

/** The latest time a record may have stopped being live and still be removed at `now`. */
export function retentionCutoff(now: Date, years: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff;
}
