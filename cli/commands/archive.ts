/**
 * `blogpost archive verify` and `blogpost archive export` (decision 0028): the advertising archive of
 * the store the servers use (a data directory, or PostgreSQL: see cli/data-dir.ts), read without a
 * server. `verify` walks the hash chain from its first record and names the first broken one (exit 1);
 * `export` writes a ZIP for an examination: index.csv and index.html with every version, live from and
 * to, who approved it under which code, the hashes, and each version's HTML snapshot.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { archiveExportZip, type ChainVerdict, DEFAULT_ARCHIVE_RETENTION_YEARS, retentionCutoff, verifyChain } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, placeOf, storeLocationOf, withExistingStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { printable } from '../output';

export interface VerifyOptions extends LocationOptions {
  json?: boolean;
}

export interface ExportOptions extends LocationOptions {
  from?: string;
  to?: string;
  post?: string;
  out?: string;
  force?: boolean;
  json?: boolean;
}

export async function archiveVerifyCommand(options: VerifyOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const verdict: ChainVerdict | null = await withExistingStoreAt(location, async (store) => verifyChain(await store.archive.list(), await store.archive.base()));
  if (!verdict) throw new CliError(`There is no store in ${placeOf(location)} (no store.sqlite): check --data-dir or DATA_DIR.`, ExitCode.Local);
  if (options.json) ctx.out.json({ success: verdict.ok, ...verdict });
  else if (verdict.ok) ctx.out.success(`The advertising archive in ${placeOf(location)} is whole: ${verdict.records} record(s), each as it was appended (head ${verdict.head}).`);
  else {
    ctx.out.error(`The advertising archive in ${placeOf(location)} is broken at record ${verdict.seq} (${printable(verdict.subject)}): ${verdict.problem}.`);
    ctx.out.info('  Records from there on cannot be shown to be as they were appended. Restore the newest backup that verifies (blogpost backup copies; pg_dump for PostgreSQL) and keep this copy for the examiner.');
  }
  return verdict.ok ? ExitCode.Ok : ExitCode.Failed;
}

/** A --from or --to value: a date (the whole day: its start for --from, its end for --to) or an ISO 8601 time. */
export function boundOf(value: string, option: '--from' | '--to'): string {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const ms = Date.parse(day ? `${value}T${option === '--from' ? '00:00:00.000' : '23:59:59.999'}Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw new CliError(`${option} ${value} is not a date: give YYYY-MM-DD (e.g. 2026-01-31) or an ISO 8601 time (2026-01-31T17:00:00Z).`, ExitCode.Usage);
  return new Date(ms).toISOString();
}

export async function archiveExportCommand(options: ExportOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const from = options.from === undefined ? undefined : boundOf(options.from, '--from');
  const to = options.to === undefined ? undefined : boundOf(options.to, '--to');
  if (from && to && from > to) throw new CliError(`--from ${options.from ?? ''} is after --to ${options.to ?? ''}: swap them.`, ExitCode.Usage);
  const now = new Date();
  const file = path.resolve(ctx.io.cwd, options.out ?? `advertising-archive-${now.toISOString().slice(0, 10)}.zip`);
  const made = await withExistingStoreAt(location, (store) => archiveExportZip(store.archive, { ...(from ? { from } : {}), ...(to ? { to } : {}), ...(options.post ? { post: options.post } : {}) }, now));
  if (!made) throw new CliError(`There is no store in ${placeOf(location)} (no store.sqlite): check --data-dir or DATA_DIR.`, ExitCode.Local);
  try {
    await writeFile(file, made.zip, { flag: options.force ? 'w' : 'wx' });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') throw new CliError(`${file} exists: choose another --out, or add --force to replace it.`, ExitCode.Usage);
    throw new CliError(`Cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`, ExitCode.Local);
  }
  const versions = made.records.filter((record) => record.event !== 'unpublished' && record.event !== 'deleted').length;
  if (options.json) ctx.out.json({ success: true, file, records: made.records.length, versions, chainOk: made.chainOk });
  else {
    ctx.out.success(`Wrote ${file}: ${made.records.length} record(s), ${versions} version snapshot(s), with index.csv and index.html.`);
    if (!made.chainOk) ctx.out.warn('The archive chain is broken (index.html says where): run blogpost archive verify.');
  }
  return ExitCode.Ok;
}

/** ARCHIVE_RETENTION_YEARS: whole years, at least 1 (default 5); exit 2 otherwise. */
export function retentionYearsOf(env: Record<string, string | undefined>): number {
  const text = env.ARCHIVE_RETENTION_YEARS?.trim();
  const years = text ? Number(text) : DEFAULT_ARCHIVE_RETENTION_YEARS;
  if (!Number.isInteger(years) || years < 1 || years > 100) throw new CliError(`ARCHIVE_RETENTION_YEARS must be a whole number of years from 1 to 100, not "${text ?? ''}"; leave it unset for ${DEFAULT_ARCHIVE_RETENTION_YEARS}.`, ExitCode.Usage);
  return years;
}

export async function archivePruneCommand(options: LocationOptions & { before: string; json?: boolean }, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const years = retentionYearsOf(ctx.io.env);
  const before = new Date(boundOf(options.before, '--from'));
  const now = new Date();
  const latest = retentionCutoff(now, years);
  if (before.getTime() > latest.getTime()) {
    throw new CliError(`Refused: the advertising archive keeps records ${years} years after they stopped being live (ARCHIVE_RETENTION_YEARS), so --before may be ${latest.toISOString().slice(0, 10)} at the latest. Nothing was removed.`, ExitCode.Failed);
  }
  const removed = await withExistingStoreAt(location, (store) => store.archive.prune(before, { now, retentionYears: years }));
  if (removed === null) throw new CliError(`There is no store in ${placeOf(location)} (no store.sqlite): check --data-dir or DATA_DIR.`, ExitCode.Local);
  if (options.json) ctx.out.json({ success: true, removed });
  else ctx.out.success(`Removed ${removed} record(s) of the advertising archive that stopped being live before ${before.toISOString().slice(0, 10)}; the chain now starts after them (blogpost archive verify checks it).`);
  return ExitCode.Ok;
}
