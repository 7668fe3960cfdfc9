/**
 * `blogpost audit`: the audit log of the store the servers use (a data directory, or PostgreSQL: see
 * cli/data-dir.ts), that is who did what and when: sign-ins, staff accounts, keys, posts, leads; oldest
 * first, as a table or JSON; filtered by time (`--since`, parsed as `blogpost logs` does) and action.
 * Also `appendAudit`, which the commands that change the same things (keys, leads) use to write their
 * entry to the same store's log.
 */
import { type AuditAction, type AuditEntry } from '../../contract/staff';
import type { AuditLog, StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { type CliStore, type LocationOptions, placeOf, storeLocationOf, withExistingStoreAt } from '../data-dir';
import { ExitCode } from '../exit-codes';
import { printable, table } from '../output';
import { parseSince } from './logs';

export interface AuditOptions extends LocationOptions {
  since?: string;
  action?: AuditAction;
  json?: boolean;
}

/** An audit log to append to, and where it is (for messages). */
export interface AuditTarget {
  log: AuditLog;
  where: string;
}

/** The audit log of an opened store. */
export function storeAuditTarget(store: CliStore, location: StoreLocation): AuditTarget {
  return { log: store.audit, where: placeOf(location) };
}

/**
 * Appends what a command did to an audit log. The change itself is made by then: when the log cannot
 * be written, that is said on stderr and the command ends with exit code 4, never silently.
 */
export async function appendAudit(target: AuditTarget, ctx: CommandContext, entry: Omit<AuditEntry, 'at' | 'ip'>): Promise<ExitCode> {
  try {
    await target.log.append({ ...entry, at: new Date().toISOString(), ip: null });
    return ExitCode.Ok;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    ctx.out.error(`The change was made, but it could not be recorded in the audit log (${target.where}): ${why}`);
    return ExitCode.Local;
  }
}

/**
 * `reason="left the agency" from=new to=contacted`. Visitors' and staff's values can reach the log: no
 * control character (a terminal escape) reaches the terminal.
 */
function detailText(detail: AuditEntry['detail']): string {
  const parts = Object.entries(detail).map(([name, value]) => {
    const shown = typeof value === 'string' ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : String(value);
    return `${name}=${printable(shown)}`;
  });
  return parts.join(' ') || '-';
}

function tableRow(entry: AuditEntry): string[] {
  return [entry.at.slice(0, 19).replace('T', ' '), printable(entry.actor), entry.action, printable(entry.target ?? '-'), detailText(entry.detail)];
}

export async function auditCommand(options: AuditOptions, ctx: CommandContext): Promise<ExitCode> {
  const since = options.since === undefined ? undefined : parseSince(options.since, new Date()).toISOString();
  const location = storeLocationOf(options, ctx);
  const where = placeOf(location);
  // A data directory without a database has no entries yet (and is not made by reading it).
  const read = (await withExistingStoreAt(location, (store) => store.audit.list(since === undefined ? {} : { since }))) ?? [];
  const entries = options.action ? read.filter((entry) => entry.action === options.action) : read;
  if (options.json) {
    ctx.out.json(entries);
    return ExitCode.Ok;
  }
  if (entries.length === 0) {
    const filtered = since !== undefined || options.action !== undefined;
    ctx.out.info(filtered ? `No audit entry matches in ${where}. Without --since and --action: blogpost audit` : `No audit entries in ${where} yet: they are written as staff sign in and as keys, posts, leads and staff accounts change.`);
    return ExitCode.Ok;
  }
  ctx.out.data(table([['TIME (UTC)', 'ACTOR', 'ACTION', 'TARGET', 'DETAIL'], ...entries.map(tableRow)]));
  return ExitCode.Ok;
}
