/**
 * `blogpost export` and `blogpost import`: the whole store (posts with their kept versions, keys,
 * staff accounts, images, quote requests with their notifications, the audit log, the advertising
 * archive, what WordPress imports remember) as one JSON Lines
 * file and back, between the embedded SQLite database (DATA_DIR) and PostgreSQL (DATABASE_URL). (A
 * backup of a running SQLite store is `blogpost backup`: an exact copy of the database file.)
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { describeLocation, exportStore, importStore, type Store, StoreError, type StoreLocation, type TransferCounts, TransferError } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions as StoreOptions, openCliStore, placeOf, storeExists, storeLocationOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

interface LocationOptions extends StoreOptions {
  json?: boolean;
}

interface ExportOptions extends LocationOptions {
  out: string;
  force?: boolean;
}

function describeCounts(counts: TransferCounts): string {
  const analytics = counts.views + counts.rolledUp > 0 ? `, ${counts.views} page view(s) and ${counts.rolledUp} rolled-up analytics row(s)` : '';
  return `${counts.posts} post(s), ${counts.keys} API key(s), ${counts.staff} staff account(s), ${counts.media} image(s), ${counts.leads} quote request(s), ${counts.audit} audit entr${counts.audit === 1 ? 'y' : 'ies'} and ${counts.archive} advertising archive record(s)${analytics}${counts.imported > 0 ? ', with what WordPress imports remember (items and old addresses)' : ''}`;
}

/** Runs `work` on the opened store, closing it after; store and file problems end with exit code 4. */
async function withStore<T>(location: StoreLocation, work: (store: Store) => Promise<T>): Promise<T> {
  try {
    const store = await openCliStore(location);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError || error instanceof TransferError) throw new CliError(error.message, ExitCode.Local);
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('E')) throw new CliError(error.message, ExitCode.Local);
    throw error;
  }
}

export async function exportCommand(options: ExportOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const file = path.resolve(ctx.io.cwd, options.out);
  // Exporting a data directory without a database would make an empty one, and export nothing.
  if (!storeExists(location)) throw new CliError(`There is no store in ${placeOf(location)} (no store.sqlite) to export: check --data-dir or DATA_DIR.`, ExitCode.Local);
  const counts = await withStore(location, async (store) => {
    // Readable by its owner only: it holds personal data of leads and the hashes of keys and passwords.
    const out = createWriteStream(file, { flags: options.force ? 'w' : 'wx', mode: 0o600 });
    await once(out, 'open').catch((error: unknown) => {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST') throw new CliError(`${file} exists: choose another --out, or add --force to replace it.`, ExitCode.Usage);
      throw error;
    });
    try {
      const written = await exportStore(store, async (line) => {
        if (!out.write(line)) await once(out, 'drain');
      });
      out.end();
      await once(out, 'finish');
      return written;
    } catch (error) {
      out.destroy();
      throw error;
    }
  });
  if (options.json) ctx.out.json({ success: true, file, from: describeLocation(location), counts });
  else ctx.out.success(`Exported ${describeCounts(counts)} from ${describeLocation(location)} to ${file} (readable by you only: it holds personal data of leads).`);
  return ExitCode.Ok;
}

export async function importCommand(file: string, options: LocationOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const source = path.resolve(ctx.io.cwd, file);
  const counts = await withStore(location, async (store) => {
    const input = createReadStream(source, { encoding: 'utf8' });
    const opened = once(input, 'open');
    try {
      await opened;
    } catch (error) {
      throw new CliError(`Cannot read ${source}: ${error instanceof Error ? error.message : String(error)}`, ExitCode.Local);
    }
    return importStore(store, createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY }));
  });
  if (options.json) ctx.out.json({ success: true, file: source, into: describeLocation(location), counts });
  else ctx.out.success(`Imported ${describeCounts(counts)} from ${source} into ${describeLocation(location)}. Staff members sign in again (sessions are not exported).`);
  return ExitCode.Ok;
}

const LOCATION_HELP = '(default: $DATABASE_URL, else $DATA_DIR or ./data)';

export function registerTransfer(program: Command, ctx: CommandContext): void {
  program
    .command('export')
    .description('Write the whole store (posts and their versions, keys, staff, images, quote requests, audit log) to one file: a backup, or the way to move to or from PostgreSQL.')
    .requiredOption('--out <file>', 'the file to write (JSON Lines; made readable by you only)')
    .option('--data-dir <dir>', `export the SQLite store in this data directory ${LOCATION_HELP}`)
    .option('--database-url <url>', 'export the PostgreSQL store at this URL (postgres://...)')
    .option('--force', 'replace --out when it exists')
    .option('--json', 'print the outcome as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost export --out move.jsonl\n  $ blogpost export --data-dir /var/lib/iul-site --out move.jsonl\n\nWhat servers change while an export runs may be missing from it: for a copy of one moment,\nuse `blogpost backup <file>` (SQLite) or pg_dump (PostgreSQL).\n',
    )
    .action(async (options: ExportOptions) => ctx.exit(await exportCommand(options, ctx)));
  program
    .command('import')
    .description('Load a `blogpost export` file into an empty store (a new data directory or an empty PostgreSQL database); the file is checked whole first.')
    .argument('<file>', 'the export to load')
    .option('--data-dir <dir>', `import into the SQLite store in this data directory ${LOCATION_HELP}`)
    .option('--database-url <url>', 'import into the PostgreSQL store at this URL (postgres://...)')
    .option('--json', 'print the outcome as JSON on stdout')
    .addHelpText('before', 'Examples:\n  $ DATABASE_URL=postgres://app@db/iul blogpost import move.jsonl\n  $ blogpost import backup.jsonl --data-dir ./restored\n')
    .action(async (file: string, options: LocationOptions) => ctx.exit(await importCommand(file, options, ctx)));
}
