/**
 * What an operator runs on the database beside (or without) the server: `blogpost doctor`'s health
 * check (SQLite's integrity check, or PostgreSQL's reachability and migration level) and `blogpost
 * backup`'s online copy of the SQLite file, consistent even while a server writes to it.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { StoreError } from '../store-error';
import { SqlDatabase, databaseError } from './database';
import { appliedMigrations, latestMigration } from './migrations';
import { databaseFileOf, MEDIA_DIR } from '../data-dir';

export interface DatabaseHealth {
  engine: 'sqlite' | 'postgres';
  /** The database file, or PostgreSQL's URL without its password. */
  where: string;
  /** Whether the database could be opened and read at all. */
  reachable: boolean;
  /** `ok`, or what the integrity check found (SQLite), or why the database could not be read. */
  integrity: string[];
  /** The migrations applied, in order, and the newest this code knows. */
  migrations: { applied: string[]; latest: string };
  /** What needs the operator, one line each (none when healthy). */
  problems: string[];
}

/** The command that restores the newest backup over a damaged file, for messages. */
export function restoreAdvice(file: string): string {
  return `Stop the server, move ${file} aside, copy your newest backup (made with \`blogpost backup <file>\`) to ${file}, and start the server again (docs/deployment.md, "Backups and restore").`;
}

function migrationProblems(applied: readonly string[], latest: string): string[] {
  const newest = applied.at(-1);
  if (newest === undefined) return ['No migration has been applied: start the server (or any blogpost command on this store) once to create the schema.'];
  if (newest < latest) return [`The schema is at ${newest}, this version needs ${latest}: the next server start applies the rest.`];
  if (newest > latest) return [`The schema is at ${newest}, newer than this version knows (${latest}): run the newer version.`];
  return [];
}

/** Checks the SQLite file of `dataDir` page by page (PRAGMA integrity_check), without changing it. */
export async function checkSqlite(dataDir: string): Promise<DatabaseHealth> {
  const file = databaseFileOf(dataDir);
  const latest = latestMigration('sqlite');
  const health: DatabaseHealth = { engine: 'sqlite', where: file, reachable: false, integrity: [], migrations: { applied: [], latest }, problems: [] };
  if (!existsSync(file)) {
    health.problems.push(`There is no database at ${file}: the server creates it at its first start.`);
    return health;
  }
  const { default: Sqlite } = await import('better-sqlite3');
  let handle: InstanceType<typeof Sqlite> | null = null;
  try {
    handle = new Sqlite(file, { readonly: true, fileMustExist: true });
    const rows = handle.pragma('integrity_check') as Array<{ integrity_check: string }>;
    health.integrity = rows.map((row) => row.integrity_check);
    health.reachable = true;
    const hasTable = handle.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
    health.migrations.applied = hasTable ? (handle.prepare('SELECT name FROM schema_migrations ORDER BY name').all() as Array<{ name: string }>).map((row) => row.name) : [];
  } catch (error) {
    health.integrity = [error instanceof Error ? error.message : String(error)];
  } finally {
    handle?.close();
  }
  if (health.integrity.length !== 1 || health.integrity[0] !== 'ok') {
    health.problems.push(`The database file ${file} is damaged: ${health.integrity.slice(0, 5).join('; ')}. ${restoreAdvice(file)}`);
  } else {
    health.problems.push(...migrationProblems(health.migrations.applied, latest));
  }
  return health;
}

/** Connects to PostgreSQL at `url` and reads its migration level (`where`: the URL as messages may show it). */
export async function checkPostgres(url: string, where: string): Promise<DatabaseHealth> {
  const latest = latestMigration('postgres');
  const health: DatabaseHealth = { engine: 'postgres', where, reachable: false, integrity: [], migrations: { applied: [], latest }, problems: [] };
  const database = await SqlDatabase.postgres(url, where);
  try {
    await sql`SELECT 1`.execute(database.db);
    health.reachable = true;
    health.integrity = ['ok'];
    health.migrations.applied = await appliedMigrations(database.db, 'postgres');
    health.problems.push(...migrationProblems(health.migrations.applied, latest));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!health.reachable) {
      health.integrity = [message];
      health.problems.push(`Cannot reach PostgreSQL at ${where}: ${message}. Check that it is up and that DATABASE_URL is right.`);
    } else {
      health.problems.push(`Cannot read the migration level of ${where}: ${message}.`);
    }
  } finally {
    await database.close().catch(() => undefined);
  }
  return health;
}

export interface BackupResult {
  /** The copy written. */
  file: string;
  bytes: number;
  /** Where the uploaded images are, which the copy does not hold (they are files). */
  mediaDir: string;
}

/** Pages per backup step: all of them, so the copy is taken in one read of the source. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the SQLite database of `dataDir` to `target` with SQLite's online backup while servers keep
 * reading and writing it: the copy is the database as of one moment, checked with integrity_check
 * before it is reported. The pages are copied in one step: a step-by-step copy starts over whenever
 * another process writes between two steps, which a busy server could do forever. The copy is left in
 * rollback-journal mode, one file with nothing beside it (a server opening it switches it back to WAL).
 * Refuses to overwrite an existing file.
 */
export async function backupSqlite(dataDir: string, target: string): Promise<BackupResult> {
  const file = databaseFileOf(dataDir);
  if (!existsSync(file)) throw new StoreError('unreadable', file, `There is no database at ${file} to back up (set --data-dir or DATA_DIR).`);
  if (existsSync(target)) throw new StoreError('conflict', target, `${target} exists already; choose a new file name (a backup never overwrites a file).`);
  const folder = path.dirname(target);
  if (!existsSync(folder)) throw new StoreError('unwritable', target, `The folder ${folder} does not exist: make it first, or choose another place for the backup.`);
  const { default: Sqlite } = await import('better-sqlite3');
  let source: InstanceType<typeof Sqlite> | null = null;
  try {
    source = new Sqlite(file, { fileMustExist: true, timeout: 10_000 });
    await source.backup(target, { progress: () => ALL_PAGES });
  } catch (error) {
    throw databaseError(`back up ${file} to ${target}`, error, 'sqlite', target);
  } finally {
    source?.close();
  }
  const copy = new Sqlite(target, { fileMustExist: true });
  let check: string[];
  try {
    copy.pragma('journal_mode = DELETE');
    check = (copy.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
  } catch (error) {
    check = [error instanceof Error ? error.message : String(error)];
  } finally {
    copy.close();
  }
  if (check.length !== 1 || check[0] !== 'ok') {
    // A damaged copy must not be restored one day as if it were a backup.
    rmSync(target, { force: true });
    throw new StoreError('corrupt', target, `The copy ${target} failed its integrity check (${check.slice(0, 3).join('; ')}) and was removed; the database itself may be damaged: run \`blogpost doctor\`.`);
  }
  return { file: target, bytes: statSync(target).size, mediaDir: path.join(dataDir, MEDIA_DIR) };
}
