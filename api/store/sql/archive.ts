/**
 * The advertising archive over SQL (decision 0028), the same for SQLite and PostgreSQL. An append runs
 * under the archive's lock (PostgreSQL: a transaction-scoped advisory lock; SQLite: its write lock), so
 * records are numbered without gaps and each names the hash of the one before, whichever server or CLI
 * run appends. `appendArchive` runs inside a caller's transaction too: a post's change and its record
 * are committed together (sql/posts.ts).
 */
import type { Insertable, Selectable } from 'kysely';
import {
  type ArchiveAppend,
  type ArchiveBase,
  type ArchiveEvent,
  type ArchiveFinding,
  type ArchiveKind,
  type ArchiveQuery,
  type ArchiveRecord,
  GENESIS_HASH,
  recordHash,
  retentionCutoff,
  sha256,
  VERSION_EVENTS,
} from '../archive';
import type { ArchiveRepository } from '../store';
import { StoreError } from '../store-error';
import type { Db, SqlDatabase, Tx } from './database';
import type { AdvertisingArchiveTable } from './schema';

/** The advisory lock every append takes (PostgreSQL). */
const ARCHIVE_LOCK = 7_235_905_113_402_041;

function recordOf(row: Selectable<AdvertisingArchiveTable>): ArchiveRecord {
  return {
    seq: Number(row.seq),
    subject: row.subject,
    kind: row.kind as ArchiveKind,
    event: row.event as ArchiveEvent,
    path: row.path,
    title: row.title,
    html: row.html,
    text: row.text,
    contentHash: row.content_hash,
    liveFrom: row.live_from,
    liveTo: row.live_to,
    findings: JSON.parse(row.findings) as ArchiveFinding[],
    madeBy: row.made_by,
    approver: row.approver,
    approvalCode: row.approval_code,
    recordedAt: row.recorded_at,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** A record as its row. */
function archiveRow(record: ArchiveRecord): Insertable<AdvertisingArchiveTable> {
  return {
    seq: record.seq,
    subject: record.subject,
    kind: record.kind,
    event: record.event,
    path: record.path,
    title: record.title,
    html: record.html,
    text: record.text,
    content_hash: record.contentHash,
    live_from: record.liveFrom,
    live_to: record.liveTo,
    findings: JSON.stringify(record.findings),
    made_by: record.madeBy,
    approver: record.approver,
    approval_code: record.approvalCode,
    recorded_at: record.recordedAt,
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

async function baseOf(db: Db | Tx): Promise<ArchiveBase | null> {
  const row = await db.selectFrom('store_meta').select('value').where('name', '=', 'archive_base').executeTakeFirst();
  return row?.value ? (JSON.parse(row.value) as ArchiveBase) : null;
}

/** The version of `subject` live now (its newest record, when that holds a version whose live_to is empty), or undefined. */
async function openVersion(tx: Tx, subject: string): Promise<Selectable<AdvertisingArchiveTable> | undefined> {
  const newest = await tx.selectFrom('advertising_archive').selectAll().where('subject', '=', subject).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  return newest && VERSION_EVENTS.has(newest.event as ArchiveEvent) && newest.live_to === null ? newest : undefined;
}

/**
 * Appends `entry` inside `tx` (the caller's transaction): ends the version of its subject live until
 * now, numbers and chains the new record. A closing record (unpublished, deleted) is appended only
 * when a version of its subject is live; null otherwise. With `unlessSame`, nothing is appended when the
 * newest record of the subject holds the same HTML.
 */
export async function appendArchive(database: SqlDatabase, tx: Tx, entry: ArchiveAppend, now: Date, unlessSame = false): Promise<ArchiveRecord | null> {
  await database.lock(tx, ARCHIVE_LOCK);
  const live = await openVersion(tx, entry.subject);
  const closing = !VERSION_EVENTS.has(entry.event);
  if (closing && !live) return null;
  const contentHash = sha256(entry.html);
  if (unlessSame) {
    const newest = await tx.selectFrom('advertising_archive').select('content_hash').where('subject', '=', entry.subject).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    if (newest?.content_hash === contentHash) return null;
  }
  const head = await tx.selectFrom('advertising_archive').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  const base = head ? null : await baseOf(tx);
  const prev = head ? { seq: Number(head.seq), hash: head.hash } : (base ?? { seq: 0, hash: GENESIS_HASH });
  // A version never ends before it began (a clock set back): it ends when the next one begins, or at its own start.
  const at = live && entry.at < live.live_from ? live.live_from : entry.at;
  if (live) await tx.updateTable('advertising_archive').set({ live_to: at }).where('seq', '=', live.seq).execute();
  const unhashed = {
    seq: prev.seq + 1,
    subject: entry.subject,
    kind: entry.kind,
    event: entry.event,
    path: entry.path,
    title: entry.title,
    html: entry.html,
    text: entry.text,
    contentHash,
    liveFrom: at,
    findings: entry.findings.map((finding) => ({ rule: finding.rule, severity: finding.severity, match: finding.match })),
    madeBy: entry.madeBy,
    approver: entry.approver,
    approvalCode: entry.approvalCode,
    recordedAt: now.toISOString(),
    prevHash: prev.hash,
  };
  const record: ArchiveRecord = { ...unhashed, liveTo: closing ? at : null, hash: recordHash(unhashed) };
  await tx
    .insertInto('advertising_archive')
    .values(archiveRow(record))
    .execute();
  return record;
}

export class SqlArchiveRepository implements ArchiveRepository {
  readonly #database: SqlDatabase;
  readonly #now: () => Date;

  constructor(database: SqlDatabase, now: () => Date) {
    this.#database = database;
    this.#now = now;
  }

  append(entry: ArchiveAppend): Promise<ArchiveRecord | null> {
    return this.#database.write('append to the advertising archive', (tx) => appendArchive(this.#database, tx, entry, this.#now()));
  }

  appendIfChanged(entry: ArchiveAppend): Promise<ArchiveRecord | null> {
    return this.#database.write('append to the advertising archive', (tx) => appendArchive(this.#database, tx, entry, this.#now(), true));
  }

  async list(query: ArchiveQuery = {}): Promise<ArchiveRecord[]> {
    const rows = await this.#database.read('read the advertising archive', (db) =>
      db
        .selectFrom('advertising_archive')
        .selectAll()
        .$if(query.subject !== undefined, (q) => q.where('subject', '=', query.subject ?? ''))
        .$if(query.to !== undefined, (q) => q.where('live_from', '<=', query.to ?? ''))
        .$if(query.from !== undefined, (q) => q.where((eb) => eb.or([eb('live_to', 'is', null), eb('live_to', '>=', query.from ?? '')])))
        .orderBy('seq', 'asc')
        .execute(),
    );
    return rows.map(recordOf);
  }

  base(): Promise<ArchiveBase | null> {
    return this.#database.read('read the advertising archive', (db) => baseOf(db));
  }

  async nextApprovalNumber(): Promise<number> {
    const row = await this.#database.write('number an approval code', (tx) =>
      tx
        .updateTable('store_meta')
        .set((eb) => ({ value: eb.cast<string>(eb(eb.cast<number>('value', 'bigint'), '+', eb.lit(1)), 'text') }))
        .where('name', '=', 'approval_seq')
        .returning('value')
        .executeTakeFirst(),
    );
    if (!row) throw new StoreError('corrupt', this.#database.where, `The row 'approval_seq' of store_meta is missing in ${this.#database.where} (the database was changed by hand?); restore it from a backup.`);
    return Number(row.value);
  }

  async approvalNumber(): Promise<number> {
    const row = await this.#database.read('read the approval codes counter', (db) => db.selectFrom('store_meta').select('value').where('name', '=', 'approval_seq').executeTakeFirst());
    return Number(row?.value ?? 0);
  }

  async restore(archive: { records: readonly ArchiveRecord[]; base: ArchiveBase | null; approvalNumber: number }): Promise<void> {
    await this.#database.write('restore the advertising archive', async (tx) => {
      await this.#database.lock(tx, ARCHIVE_LOCK);
      const held = await tx.selectFrom('advertising_archive').select('seq').limit(1).executeTakeFirst();
      if (held) throw new StoreError('conflict', this.#database.where, `The advertising archive in ${this.#database.where} already holds records: import into an empty database.`);
      for (const record of archive.records) {
        await tx
          .insertInto('advertising_archive')
          .values(archiveRow(record))
          .execute();
      }
      await tx.updateTable('store_meta').set({ value: archive.base ? JSON.stringify(archive.base) : null }).where('name', '=', 'archive_base').execute();
      await tx.updateTable('store_meta').set({ value: String(archive.approvalNumber) }).where('name', '=', 'approval_seq').execute();
    });
  }

  async prune(before: Date, options: { now: Date; retentionYears: number }): Promise<number> {
    const cutoff = retentionCutoff(options.now, options.retentionYears);
    if (before.getTime() > cutoff.getTime()) {
      throw new StoreError(
        'conflict',
        this.#database.where,
        `Refused: records of the advertising archive are kept ${options.retentionYears} years after they stopped being live (ARCHIVE_RETENTION_YEARS), so nothing that ended after ${cutoff.toISOString()} may be removed; nothing was removed.`,
      );
    }
    return this.#database.write('remove expired records of the advertising archive', async (tx) => {
      await this.#database.lock(tx, ARCHIVE_LOCK);
      const rows = await tx.selectFrom('advertising_archive').select(['seq', 'hash', 'live_to']).orderBy('seq', 'asc').execute();
      let last: ArchiveBase | null = null;
      for (const row of rows) {
        // A prefix only: the first record still live, or ended since, stops it.
        if (row.live_to === null || row.live_to >= before.toISOString()) break;
        last = { seq: Number(row.seq), hash: row.hash };
      }
      if (!last) return 0;
      await tx.deleteFrom('advertising_archive').where('seq', '<=', last.seq).execute();
      await tx.updateTable('store_meta').set({ value: JSON.stringify(last) }).where('name', '=', 'archive_base').execute();
      return rows.filter((row) => Number(row.seq) <= (last?.seq ?? 0)).length;
    });
  }
}
