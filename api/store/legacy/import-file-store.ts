/**
 * The move from the file store of earlier releases to the SQL store, made on its own at the first
 * start on such a data directory (api/store/sql/sql-store.ts): every record the old files hold is
 * written through the store seam's own methods, read back and compared (a hash of each record, and the
 * count of each kind), and only then do the old files move into a dated folder beside the database,
 * never deleted. A damaged file is named with the reason and skipped, as the file store itself skipped
 * it; files the file store had quarantined are named, not imported. An import that stops (the disk is
 * full, the process is killed) leaves the old files where they were, and the next start resumes it:
 * what is in the database already is checked, not written twice (move-aside.ts keeps the progress).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../store';
import { StoreError } from '../store-error';
import { LEGACY_FILES, readManifest, readQuarantine } from './file-store-reader';
import { importPosts } from './import-posts';
import { importAudit, importKeys, importLeads, importMedia, importStaff } from './import-records';
import { ImportMismatch, type ImportRun, type LegacyImportReport } from './import-run';
import { datedFolder, endProgress, IMPORT_PROGRESS_FILE, moveOldFiles, readProgress, writeProgress } from './move-aside';

export type { LegacyImportCounts, LegacyImportReport } from './import-run';

export interface LegacyImportOptions {
  /** Where the import says what it did: the server's log. */
  log: (line: string) => void;
  now: () => Date;
}

/**
 * True when DATA_DIR is a data directory of the file store: its format marker, blog.json, which the file
 * store wrote at its first start, is there. (Folders such as posts/ alone are not enough: they may be
 * anyone's, and the import moves them.)
 */
export function hasLegacyData(dataDir: string): boolean {
  return existsSync(path.join(dataDir, LEGACY_FILES.manifest));
}

/** True when an earlier start began importing the file store in DATA_DIR and did not finish (resume it). */
export function legacyImportStopped(dataDir: string): boolean {
  return existsSync(path.join(dataDir, IMPORT_PROGRESS_FILE));
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The count of each kind in the store, after the import: exactly what was imported, nothing more. */
async function checkCounts(run: ImportRun): Promise<void> {
  const { store, report } = run;
  run.doing = 'counting what the database holds';
  const posts = await store.posts.counts();
  const held: Array<[string, number, number]> = [
    ['posts', posts.published + posts.drafts + posts.scheduled + posts.inReview + posts.trashed, report.counts.posts],
    ['API keys', (await store.keys.list()).length, report.counts.keys],
    ['staff accounts', (await store.staff.list()).length, report.counts.staff],
    ['quote requests', (await store.leads.list({ spam: 'any' })).length, report.counts.leads],
    ['images', (await store.media.list()).length, report.counts.media],
    ['audit entries', (await store.audit.list()).length, report.counts.audit],
  ];
  const wrong = held.filter(([, found, expected]) => found !== expected);
  if (wrong.length > 0) throw new ImportMismatch(`the database holds ${wrong.map(([what, found, expected]) => `${found} ${what} (${expected} imported)`).join(', ')}`);
}

/** What a fresh import needs: a store with nothing in it yet. */
async function refuseNonEmpty(store: Store, dataDir: string): Promise<void> {
  const posts = await store.posts.counts();
  const held = posts.published + posts.drafts + posts.scheduled + posts.inReview + posts.trashed + (await store.keys.list()).length + (await store.staff.list()).length + (await store.leads.list({ spam: 'any' })).length;
  if (held > 0) {
    throw new StoreError('conflict', dataDir, `The file store in ${dataDir} was not imported: the database already holds data. Import it into a new database (a data directory without store.sqlite), or move the file store's files out of ${dataDir}.`);
  }
}

function stopped(run: ImportRun, error: unknown): StoreError {
  const reason = error instanceof Error ? error.message : String(error);
  const progress = path.join(run.dataDir, IMPORT_PROGRESS_FILE);
  const advice =
    error instanceof ImportMismatch
      ? `Nothing of the file store was moved or changed. The database may have been changed by another process meanwhile: stop every server and command on ${run.dataDir}, move the database and ${progress} out of it, and start again to import from the beginning.`
      : `Nothing of the file store was moved or changed, and what was imported is kept: fix the cause, then start again, and the import resumes where it stopped (${progress} remembers it).`;
  return new StoreError(error instanceof StoreError ? error.problem : 'unwritable', run.dataDir, `Importing the file store in ${run.dataDir} into the database stopped at ${run.doing}: ${reason} ${advice}`, error);
}

function summary(report: LegacyImportReport): string {
  const { counts } = report;
  const parts = [
    `${plural(counts.posts, 'post')} (${plural(counts.revisions, 'revision')})`,
    `${plural(counts.keys, 'API key')}${report.demoKeyIssuedAt ? ' (the demo key issued before)' : ''}`,
    plural(counts.staff, 'staff account'),
    plural(counts.sessions, 'sign-in session'),
    `${plural(counts.leads, 'quote request')} (${plural(counts.notifications, 'notification')})`,
    plural(counts.audit, 'audit entry', 'audit entries'),
  ];
  const media = `${plural(counts.media, 'image')} (${plural(counts.mediaFiles, 'file')}, left in place in ${path.join(report.dataDir, LEGACY_FILES.media, 'files')})`;
  return `Imported ${parts.join(', ')} and ${media} from the file store in ${report.dataDir}; the old files are in ${report.movedTo}${path.sep} (nothing was deleted: remove that folder once the site looks right).`;
}

function logReport(report: LegacyImportReport, log: (line: string) => void): void {
  log(summary(report));
  for (const line of report.adjusted) log(`Changed while importing: ${line}`);
  for (const damaged of report.skipped) log(`Not imported: ${damaged.file}: ${damaged.reason}.`);
  for (const moved of report.quarantined) log(`Not imported: ${moved.file}, which the file store had moved aside from ${moved.originalFile} (${moved.reason}).`);
  if (report.skipped.length + report.quarantined.length > 0) log(`The files named above are kept in ${report.movedTo}${path.sep}: repair one and import it with the API or the CLI if it is still wanted.`);
}

function emptyReport(dataDir: string, resumed: boolean): LegacyImportReport {
  return {
    dataDir,
    movedTo: '',
    counts: { posts: 0, revisions: 0, keys: 0, staff: 0, sessions: 0, leads: 0, notifications: 0, audit: 0, media: 0, mediaFiles: 0 },
    demoKeyIssuedAt: null,
    skipped: [],
    adjusted: [],
    quarantined: [],
    resumed,
  };
}

/** Moves the old files into `folder`, remembering it first so a start after a failure finishes the move. */
async function moveAside(run: ImportRun, startedAt: string, folder: string): Promise<void> {
  run.doing = `moving the old files into ${folder}`;
  try {
    await writeProgress(run.dataDir, { format: 'blogpost-file-store-import', startedAt, movingTo: folder });
    await moveOldFiles(run.dataDir, folder);
    await endProgress(run.dataDir);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new StoreError('unwritable', run.dataDir, `The file store in ${run.dataDir} is imported, but its old files could not all be moved into ${folder} (${reason}). Check that ${run.dataDir} is writable, then start again: the move is finished then (nothing is imported twice).`, error);
  }
  run.report.movedTo = folder;
}

/**
 * Imports the file store's data directory `dataDir` into `store` (new and empty, or holding what an
 * import that stopped had written), checks every record read back, then moves the old files into
 * `DATA_DIR/file-store-YYYY-MM-DD/`. A StoreError says where it stopped and what to do; the old files
 * stay where they were until everything is imported.
 */
export async function importLegacyDataDir(dataDir: string, store: Store, options: LegacyImportOptions): Promise<LegacyImportReport> {
  const progress = readProgress(dataDir);
  const run: ImportRun = { dataDir, store, log: options.log, report: emptyReport(dataDir, progress !== null), doing: 'its start' };
  if (progress?.movingTo) {
    await moveAside(run, progress.startedAt, progress.movingTo);
    options.log(`Finished moving the file store's old files from ${dataDir} into ${progress.movingTo}${path.sep} (their import had completed before).`);
    return run.report;
  }
  const startedAt = progress?.startedAt ?? options.now().toISOString();
  options.log(`${progress ? 'Resuming the import of' : 'Importing'} the file store in ${dataDir} into the database (its files are only read; they move aside once everything is imported and checked).`);
  if (!progress) await refuseNonEmpty(store, dataDir);
  try {
    run.doing = `writing ${IMPORT_PROGRESS_FILE}`;
    if (!progress) await writeProgress(dataDir, { format: 'blogpost-file-store-import', startedAt, movingTo: null });
    const manifest = await readManifest(dataDir, run.report.skipped);
    await importKeys(run, manifest);
    await importStaff(run);
    await importMedia(run);
    await importPosts(run, manifest?.keys ?? []);
    await importLeads(run);
    await importAudit(run);
    await checkCounts(run);
    run.report.quarantined = await readQuarantine(dataDir);
  } catch (error) {
    throw stopped(run, error);
  }
  await moveAside(run, startedAt, datedFolder(dataDir, options.now()));
  logReport(run.report, options.log);
  return run.report;
}

