/**
 * The wiring of `blogpost seed`: its arguments, options and help. The command's code
 * (commands/seed.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { SeedOptions } from '../commands/seed';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/seed');

export function registerSeed(program: Command, ctx: CommandContext): void {
  program
    .command('seed')
    .description('Load the demo articles into the store the servers use when it has no posts (never on top of existing posts).')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print the outcome as JSON on stdout')
    .addHelpText('before', 'Examples:\n  $ blogpost seed\n  $ blogpost seed --data-dir /var/lib/iul-site\n  $ DATABASE_URL=postgres://app@db/iul blogpost seed\n')
    .action(async (options: SeedOptions) => ctx.exit(await (await implementation()).seedCommand(options, ctx)));
}
