/**
 * The wiring of `blogpost validate <file>`: its arguments, options and help. The command's code
 * (commands/validate.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { ValidateOptions } from '../commands/validate';

const implementation = () => import('../commands/validate');

export function registerValidate(program: Command, ctx: CommandContext): void {
  program
    .command('validate')
    .description('Check a post offline with the same schema and compliance rules the API uses; exit 1 when invalid.')
    .argument('<file>', 'Markdown (.md), HTML (.html) with front matter, or a JSON payload; "-" reads stdin')
    .option('--status <status>', 'check as draft, scheduled or published, overriding the file')
    .option('--strict', 'treat every warning (unknown field or category) and every high compliance finding not accepted as an error: exit 1')
    .option('--json', 'print the result as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost validate post.md            # local images too: missing files, alt text\n  $ cat payload.json | blogpost validate - --json\n',
    )
    .action(async (file: string, options: ValidateOptions) => ctx.exit(await (await implementation()).validateCommand(file, options, ctx)));
}
