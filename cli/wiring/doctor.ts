/**
 * The wiring of `blogpost doctor`: its arguments, options and help. The command's code
 * (commands/doctor.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { DoctorOptions } from '../commands/doctor';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/doctor');

export function registerDoctor(program: Command, ctx: CommandContext): void {
  program
    .command('doctor')
    .description("Check the store's database without the server (and while it runs): SQLite's integrity check, or PostgreSQL's reachability; the schema's migration level.")
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print the report as JSON on stdout')
    .addHelpText(
      'after',
      '\nExit codes: 0 healthy, 1 something needs attention (listed: a damaged file, with how to restore a backup; a schema to migrate), 4 no database there, or PostgreSQL unreachable.\n\nExamples:\n  $ blogpost doctor\n  $ blogpost doctor --data-dir /var/lib/iul-site --json\n  $ DATABASE_URL=postgres://app@db/iul blogpost doctor\n',
    )
    .action(async (options: DoctorOptions) => ctx.exit(await (await implementation()).doctorCommand(options, ctx)));
}
