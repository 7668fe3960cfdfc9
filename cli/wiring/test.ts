/**
 * The wiring of `blogpost test <type>`: its arguments, options and help. The command's code
 * (commands/test.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import { TEST_TYPES } from '../../harness/types';
import { timeoutOption } from '../options';
import type { CommandContext } from '../context';
import type { TestOptions } from '../commands/test';

const implementation = () => import('../commands/test');

export function registerTest(program: Command, ctx: CommandContext): void {
  program
    .command('test')
    .description(`Run one API test against the server: ${TEST_TYPES.join(', ')}.`)
    .argument('<type>', `one of ${TEST_TYPES.join(', ')}`)
    .option('--url <origin>', 'the site (default: $BLOGPOST_URL)')
    .option('--key <key>', 'API key; without one the tests use POST /api/blog/validate and save nothing (default: $BLOGPOST_API_KEY)')
    .option('--json', 'print the result object as JSON on stdout')
    .addOption(timeoutOption())
    .addHelpText('before', 'Examples:\n  $ blogpost test python --url http://localhost:3000\n  $ blogpost test cors --json\n  $ blogpost test reset\n')
    .action(async (type: string, options: TestOptions) => ctx.exit(await (await implementation()).testCommand(type, options, ctx)));
}
