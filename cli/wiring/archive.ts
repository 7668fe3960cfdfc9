/**
 * The wiring of `blogpost archive verify|export|prune`: its arguments, options and help. The command's code
 * (commands/archive.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { LocationOptions } from '../data-dir';
import type { CommandContext } from '../context';
import type { ExportOptions, VerifyOptions } from '../commands/archive';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/archive');

export function registerArchive(program: Command, ctx: CommandContext): void {
  const archive = program.command('archive').description('The advertising archive: every version of a post or a site page the public saw, chained by hash (decision 0028).');
  archive
    .command('verify')
    .description('Check the hash chain of the advertising archive record by record; name the first broken record.')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print the verdict as JSON on stdout')
    .addHelpText('after', '\nExit codes: 0 the chain is whole; 1 a record was changed or removed (named: its seq and subject); 4 no store there.\n\nExamples:\n  $ blogpost archive verify\n  $ blogpost archive verify --data-dir /var/lib/iul-site --json\n')
    .action(async (options: VerifyOptions) => ctx.exit(await (await implementation()).archiveVerifyCommand(options, ctx)));
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
    .action(async (options: ExportOptions) => ctx.exit(await (await implementation()).archiveExportCommand(options, ctx)));
  archive
    .command('prune')
    .description('Remove the oldest records that stopped being live before a date, only past ARCHIVE_RETENTION_YEARS (default 5); anything younger is refused.')
    .requiredOption('--before <date>', 'remove records whose version ended before this date (YYYY-MM-DD)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print { removed } as JSON on stdout')
    .addHelpText('after', '\nExit codes: 0 done; 1 refused (the date is inside the retention: nothing removed); 2 a bad date or ARCHIVE_RETENTION_YEARS; 4 no store there.\n\nExample:\n  $ ARCHIVE_RETENTION_YEARS=5 blogpost archive prune --before 2021-01-01\n')
    .action(async (options: LocationOptions & { before: string; json?: boolean }) => ctx.exit(await (await implementation()).archivePruneCommand(options, ctx)));
}
