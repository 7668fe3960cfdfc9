/**
 * `blogpost backup <file>`: an online copy of the SQLite database of a data directory, taken while the
 * server keeps running (SQLite's backup copies the database as of one moment, whatever is written
 * meanwhile) and checked before it is reported. Uploaded images are files beside the database, not in
 * it: the command says where they are, to be copied beside the backup. A PostgreSQL store is backed up
 * with pg_dump, which the command says instead of copying anything.
 */
import path from 'node:path';
import { databaseFileOf, loadMaintenance, redactedUrl, StoreError } from '../../api/operations';
import type { CommandContext } from '../context';
import { storeLocationOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

export interface BackupOptions {
  dataDir?: string;
  json?: boolean;
}

/** A size as people read it: 812 bytes, 40.2 KB, 3.1 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The exit code of a store problem: a file in the way is a usage error, a damaged copy needs attention, the rest is local. */
function exitCodeOf(error: StoreError): ExitCode {
  if (error.problem === 'conflict') return ExitCode.Usage;
  if (error.problem === 'corrupt') return ExitCode.Failed;
  return ExitCode.Local;
}

export async function backupCommand(file: string, options: BackupOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  if (location.kind === 'postgres') {
    throw new CliError(
      `The store is PostgreSQL (${redactedUrl(location.url)}): back it up with pg_dump, e.g. pg_dump --format=custom --file=site.dump "$DATABASE_URL", and restore with pg_restore. blogpost backup copies the SQLite database of a data directory (--data-dir).`,
      ExitCode.Usage,
    );
  }
  const target = path.resolve(ctx.io.cwd, file);
  const { backupSqlite, restoreAdvice } = await loadMaintenance();
  let result;
  try {
    result = await ctx.out.spin(`Backing up ${databaseFileOf(location.dataDir)}`, () => backupSqlite(location.dataDir, target));
  } catch (error) {
    if (error instanceof StoreError) throw new CliError(error.message, exitCodeOf(error));
    throw error;
  }
  const database = databaseFileOf(location.dataDir);
  if (options.json) {
    ctx.out.json({ success: true, file: result.file, bytes: result.bytes, database, mediaDir: result.mediaDir });
    return ExitCode.Ok;
  }
  ctx.out.success(`Backed up ${database} to ${result.file} (${sizeText(result.bytes)}): the database as of now, checked with SQLite's integrity check.`);
  ctx.out.info(`  Uploaded images are not in it: they are files in ${result.mediaDir}. Copy that folder beside the backup (e.g. cp -R ${result.mediaDir} ${result.file}-media).`);
  ctx.out.info(`  To restore: ${restoreAdvice(database)}`);
  return ExitCode.Ok;
}
