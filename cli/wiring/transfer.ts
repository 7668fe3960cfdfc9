/**
 * The wiring of `blogpost export` and `blogpost import <file>`: its arguments, options and help. The command's code
 * (commands/transfer.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { ExportOptions, LocationOptions } from '../commands/transfer';

const implementation = () => import('../commands/transfer');

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
    .action(async (options: ExportOptions) => ctx.exit(await (await implementation()).exportCommand(options, ctx)));
  program
    .command('import')
    .description('Load a `blogpost export` file into an empty store (a new data directory or an empty PostgreSQL database); the file is checked whole first.')
    .argument('<file>', 'the export to load')
    .option('--data-dir <dir>', `import into the SQLite store in this data directory ${LOCATION_HELP}`)
    .option('--database-url <url>', 'import into the PostgreSQL store at this URL (postgres://...)')
    .option('--json', 'print the outcome as JSON on stdout')
    .addHelpText('before', 'Examples:\n  $ DATABASE_URL=postgres://app@db/iul blogpost import move.jsonl\n  $ blogpost import backup.jsonl --data-dir ./restored\n')
    .action(async (file: string, options: LocationOptions) => ctx.exit(await (await implementation()).importCommand(file, options, ctx)));
}
