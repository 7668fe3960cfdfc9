/**
 * `blogpost import-wordpress <export.xml>`: a WordPress site's posts, images, categories, tags and
 * old addresses into the store (decision 0029). It opens the store the servers use, like `blogpost
 * import` and `backup` (`--data-dir`, else `--database-url`, else DATABASE_URL, else DATA_DIR): keeping
 * WordPress's dates and recording the old addresses are not things the API lets a key do. Each post
 * goes through the same post service and compliance gate as one sent to the API, audited as
 * `import:wordpress`. A re-run skips what is imported; a failing post is reported and the rest go on.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ImportProgress, type ImportReport, loadWordPressImport } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, placeOf, storeExists, storeLocationOf, withStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';

export interface ImportWordPressOptions extends LocationOptions {
  mediaFrom?: string;
  dryRun?: boolean;
  status?: string;
  categoryMap?: string;
  authorMap?: string;
  json?: boolean;
}

/** The progress line on a terminal: counts and an estimate of the time left. */
export function progressLine(progress: ImportProgress, elapsedMs: number): string {
  const { done, total, imported, skipped, failed } = progress;
  const left = done > 0 && done < total ? Math.ceil(((elapsedMs / done) * (total - done)) / 1000) : null;
  const estimate = left === null ? '' : left >= 90 ? `, about ${Math.ceil(left / 60)} min left` : `, about ${left} s left`;
  return `${done}/${total} posts: ${imported} imported, ${skipped} skipped, ${failed} failed${estimate}`;
}

/** The report as text for a person. */
export function reportText(report: ImportReport): string {
  const lines: string[] = [];
  const verb = report.dryRun ? 'would be imported' : 'imported';
  lines.push(`${report.dryRun ? 'Dry run (nothing was written): ' : ''}${report.posts} post(s) in the export: ${report.imported.length} ${verb}, ${report.skipped.length} skipped, ${report.failed.length} failed.`);
  if (!report.dryRun) lines.push(`${report.images} image(s) uploaded, ${report.redirects} old address(es) now answer 301.`);
  const notPosts = Object.entries(report.notPosts);
  if (notPosts.length > 0) lines.push(`Not posts, not imported: ${notPosts.map(([type, count]) => `${count} ${type}`).join(', ')}.`);
  const section = (title: string, rows: string[]) => {
    if (rows.length === 0) return;
    lines.push('', `${title}:`, ...rows.map((row) => `  - ${row}`));
  };
  section('Failed', report.failed.map((item) => `${item.title}: ${item.reason}`));
  section('Skipped', report.skipped.map((item) => `${item.title}: ${item.reason}`));
  section('Compliance findings', report.findings.map((item) => `${item.title} (/blog/${item.slug}): ${item.rules.join(', ')}${item.held ? ' - held for compliance review' : ''}`));
  section('Shortcodes left in the text as written (no conversion for them)', report.shortcodes.map((item) => `${item.title}: ${item.shortcodes.map((name) => `[${name}]`).join(', ')}`));
  section('Missing images (not in --media-from: each is [Image: its description] in the post)', report.missingMedia.map((item) => `${item.title}: ${item.urls.join(', ')}`));
  section('Changed to fit the site', report.notes.map((item) => `${item.title}: ${item.notes.join('; ')}`));
  section('Sticky in WordPress (this site has no sticky posts)', report.sticky);
  return lines.join('\n');
}

export async function importWordPressCommand(file: string, options: ImportWordPressOptions, ctx: CommandContext): Promise<ExitCode> {
  const status = options.status ?? 'keep';
  if (status !== 'keep' && status !== 'draft') throw new CliError(`--status must be keep or draft, not "${status}".`, ExitCode.Usage);
  const source = path.resolve(ctx.io.cwd, file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new CliError(`Cannot read ${source}: there is no such file. Export the WordPress site with Tools > Export, then name the .xml file it gives.`, ExitCode.Local);
  const mediaFrom = options.mediaFrom && !/^https?:\/\//i.test(options.mediaFrom) ? path.resolve(ctx.io.cwd, options.mediaFrom) : options.mediaFrom;
  if (mediaFrom && !/^https?:\/\//i.test(mediaFrom) && !(existsSync(mediaFrom) && statSync(mediaFrom).isDirectory())) {
    throw new CliError(`--media-from ${mediaFrom} is not a folder: give the copy of wp-content/uploads (holding 2024/05/picture.jpg...), or a URL prefix.`, ExitCode.Usage);
  }
  const location = storeLocationOf(options, ctx);
  // A dry run into a data directory with no store yet checks against an empty one made aside, so it
  // leaves nothing behind, not even an empty database.
  const aside = options.dryRun && !storeExists(location) ? mkdtempSync(path.join(os.tmpdir(), 'blogpost-dry-run-')) : null;
  const { importWordPressFile, isImportInputError } = await loadWordPressImport();
  const tty = ctx.io.stderr.isTTY === true && !options.json;
  const started = Date.now();
  let report: ImportReport;
  try {
    report = await withStoreAt(aside ? { kind: 'sqlite', dataDir: aside } : location, (store) =>
      importWordPressFile(
        store,
        source,
        {
          ...(mediaFrom ? { mediaFrom } : {}),
          dryRun: options.dryRun === true,
          status,
          ...(options.categoryMap ? { categoryMap: path.resolve(ctx.io.cwd, options.categoryMap) } : {}),
          ...(options.authorMap ? { authorMap: path.resolve(ctx.io.cwd, options.authorMap) } : {}),
          ...(tty ? { onProgress: (progress: ImportProgress) => ctx.io.stderr.write(`\r\u001b[2K${progressLine(progress, Date.now() - started)}`) } : {}),
        },
        ctx.io.env as NodeJS.ProcessEnv,
      ),
    );
  } catch (error) {
    if (isImportInputError(error)) throw new CliError(error.message, ExitCode.Failed);
    throw error;
  } finally {
    if (aside) rmSync(aside, { recursive: true, force: true });
  }
  if (tty) ctx.io.stderr.write('\n');
  if (options.json) ctx.out.json({ success: report.failed.length === 0, file: source, into: placeOf(location), ...report });
  else ctx.out.data(reportText(report));
  return report.failed.length === 0 ? ExitCode.Ok : ExitCode.Failed;
}
