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
import { describeLocation, exportStore, importStore, type Store, StoreError, type StoreLocation, type TransferCounts, TransferError } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions as StoreOptions, openCliStore, placeOf, storeExists, storeLocationOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

export interface LocationOptions extends StoreOptions {
  json?: boolean;
}

export interface ExportOptions extends LocationOptions {
  out: string;
  force?: boolean;
}

function describeCounts(counts: TransferCounts): string {
  const analytics =
    counts.views + counts.rolledUp + counts.vitals > 0 ? `, ${counts.views} page view(s), ${counts.rolledUp} rolled-up analytics row(s) and ${counts.vitals} Core Web Vitals record(s)` : '';
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
