/**
 * `blogpost doctor`: checks the database the servers use, without a server (and while they run). The
 * SQLite file of a data directory is read page by page (SQLite's integrity check), its migration level
 * compared with what this version needs; a damaged file is named with how to restore the newest backup.
 * PostgreSQL is checked for being reachable and for its migration level (its own integrity is the
 * database server's business).
 * Exit codes: 0 healthy, 1 something needs attention, 4 no database there or unreachable.
 */
import { existsSync } from 'node:fs';
import { databaseFileOf, type DatabaseHealth, loadMaintenance, redactedUrl, type StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, storeLocationOf } from '../data-dir';
import { ExitCode } from '../exit-codes';

export interface DoctorOptions extends LocationOptions {
  json?: boolean;
}

async function checkAt(location: StoreLocation): Promise<DatabaseHealth> {
  const { checkPostgres, checkSqlite } = await loadMaintenance();
  return location.kind === 'sqlite' ? checkSqlite(location.dataDir) : checkPostgres(location.url, redactedUrl(location.url));
}

/**
 * Whether there is a database to look at: a SQLite file that exists (even one too damaged to open:
 * that needs attention, exit 1), or a PostgreSQL server that answered.
 */
function isThere(location: StoreLocation, health: DatabaseHealth): boolean {
  return location.kind === 'sqlite' ? existsSync(databaseFileOf(location.dataDir)) : health.reachable;
}

function exitCodeOf(location: StoreLocation, health: DatabaseHealth): ExitCode {
  if (!isThere(location, health)) return ExitCode.Local;
  return health.problems.length === 0 ? ExitCode.Ok : ExitCode.Failed;
}

function printText(health: DatabaseHealth, code: ExitCode, ctx: CommandContext): void {
  const { out } = ctx;
  out.data(`Database: ${health.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'} at ${health.where}`);
  out.data(`  reachable: ${health.reachable ? 'yes' : 'no'}`);
  if (health.engine === 'sqlite' && health.integrity.length > 0) {
    const [first, ...rest] = health.integrity;
    out.data(`  integrity check: ${first}${rest.length > 0 ? ` (and ${rest.length} more finding(s))` : ''}`);
  }
  const newest = health.migrations.applied.at(-1);
  if (health.reachable) out.data(`  schema: ${newest ?? 'none'} (this version needs ${health.migrations.latest})`);
  if (code === ExitCode.Ok) out.success('The database is healthy.');
  else if (code === ExitCode.Local) for (const problem of health.problems) out.error(health.engine === 'sqlite' ? `${problem} Check --data-dir or DATA_DIR.` : problem);
  else for (const problem of health.problems) out.warn(problem);
}

export async function doctorCommand(options: DoctorOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const health = await checkAt(location);
  const code = exitCodeOf(location, health);
  if (options.json) ctx.out.json({ success: isThere(location, health), healthy: code === ExitCode.Ok, ...health });
  else printText(health, code, ctx);
  return code;
}
