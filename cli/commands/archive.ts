/**
 * `blogpost archive verify` and `blogpost archive export` (decision 0028): the advertising archive of
 * the store the servers use (a data directory, or PostgreSQL: see cli/data-dir.ts), read without a
 * server. `verify` walks the hash chain from its first record and names the first broken one (exit 1);
 * `export` writes a ZIP for an examination: index.csv and index.html with every version, live from and
 * to, who approved it under which code, the hashes, and each version's HTML snapshot.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { archiveExportZip, type ChainVerdict, DEFAULT_ARCHIVE_RETENTION_YEARS, retentionCutoff, verifyChain } from '../../api/operations';
import type { CommandContext } from '../context';
import { DATA_DIR_HELP, DATABASE_URL_HELP, type LocationOptions, placeOf, storeLocationOf, withExistingStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { printable } from '../output';

interface VerifyOptions extends LocationOptions {
  json?: boolean;
}

interface ExportOptions extends LocationOptions {
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

export function registerArchive(program: Command, ctx: CommandContext): void {
  const archive = program.command('archive').description('The advertising archive: every version of a post or a site page the public saw, chained by hash (decision 0028).');
  archive
    .command('verify')
    .description('Check the hash chain of the advertising archive record by record; name the first broken record.')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print the verdict as JSON on stdout')
    .addHelpText('after', '\nExit codes: 0 the chain is whole; 1 a record was changed or removed (named: its seq and subject); 4 no store there.\n\nExamples:\n  $ blogpost archive verify\n  $ blogpost archive verify --data-dir /var/lib/iul-site --json\n')
    .action(async (options: VerifyOptions) => ctx.exit(await archiveVerifyCommand(options, ctx)));
  archive
    .command('export')
    .description('Write a ZIP for an examination: index.csv and index.html (every version, live from/to, approver, code, hashes) and each version as an HTML file.')
    .option('--from <date>', 'only versions live on or after this date (YYYY-MM-DD or an ISO 8601 time)')
    .option('--to <date>', 'only versions live on or before this date')
    .option('--post <id>', "only this post's records (its id, slug or /blog/<slug>), or a page's path (/faq)")
    .option('--out <file>', 'the ZIP to write (default: advertising-archive-<today>.zip)')
    .option('--force', 'replace --out when it exists')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print { file, records, versions, chainOk } as JSON on stdout')
    .addHelpText('after', '\nExit codes: 0 written; 2 a bad date, or --out exists (add --force); 4 no store there, or the file could not be written.\n\nExamples:\n  $ blogpost archive export --from 2026-01-01 --to 2026-12-31 --out exam-2026.zip\n  $ blogpost archive export --post how-iul-works --out post.zip\n')
    .action(async (options: ExportOptions) => ctx.exit(await archiveExportCommand(options, ctx)));
  archive
    .command('prune')
    .description('Remove the oldest records that stopped being live before a date, only past ARCHIVE_RETENTION_YEARS (default 5); anything younger is refused.')
    .requiredOption('--before <date>', 'remove records whose version ended before this date (YYYY-MM-DD)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print { removed } as JSON on stdout')
    .addHelpText('after', '\nExit codes: 0 done; 1 refused (the date is inside the retention: nothing removed); 2 a bad date or ARCHIVE_RETENTION_YEARS; 4 no store there.\n\nExample:\n  $ ARCHIVE_RETENTION_YEARS=5 blogpost archive prune --before 2021-01-01\n')
    .action(async (options: LocationOptions & { before: string; json?: boolean }) => ctx.exit(await archivePruneCommand(options, ctx)));
}
