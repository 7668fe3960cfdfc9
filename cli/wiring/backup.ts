/**
 * The wiring of `blogpost backup <file>`: its arguments, options and help. The command's code
 * (commands/backup.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { BackupOptions } from '../commands/backup';
import { DATA_DIR_HELP } from './values';

const implementation = () => import('../commands/backup');

export function registerBackup(program: Command, ctx: CommandContext): void {
  program
    .command('backup')
    .description('Copy the SQLite database of a data directory to a new file while the server runs: a consistent copy of one moment (images are files: copy their folder beside it).')
    .argument('<file>', 'the copy to write (never overwritten: choose a new name)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--json', 'print { file, bytes, database, mediaDir } as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 copied and checked; 1 the copy failed its integrity check (run blogpost doctor);',
        '2 the file exists already, or the store is PostgreSQL (back it up with pg_dump); 4 no database in',
        'the data directory, or the copy could not be written.',
        '',
        'Examples:',
        '  $ blogpost backup /backups/site-$(date +%F).sqlite',
        '  $ blogpost backup site.sqlite --data-dir /var/lib/iul-site --json',
        '  $ cp -R /var/lib/iul-site/media /backups/     # the uploaded images, beside it',
        '',
      ].join('\n'),
    )
    .action(async (file: string, options: BackupOptions) => ctx.exit(await (await implementation()).backupCommand(file, options, ctx)));
}
