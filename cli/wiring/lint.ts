/**
 * The wiring of `blogpost lint <paths...>`: its arguments, options and help. The command's code
 * (commands/lint.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, Option } from 'commander';
import { COMPLIANCE_SEVERITIES } from '../../contract/choices';
import type { CommandContext } from '../context';
import type { LintOptions } from '../commands/lint';

const implementation = () => import('../commands/lint');

export function registerLint(program: Command, ctx: CommandContext): void {
  program
    .command('lint')
    .description('Check post files against the compliance rules, offline; exit 1 on a high finding not accepted.')
    .argument('<paths...>', 'post files (.md, .markdown, .html, .json) or folders to walk for them; "-" reads stdin')
    .addOption(new Option('--fail-on <severity>', 'the lowest severity that fails (exit 1) when not accepted').choices(COMPLIANCE_SEVERITIES).default('high'))
    .option('--json', 'print every file\'s findings and a summary as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'Each finding: file:line:column severity rule message, then how to say it instead.',
        'Accept a finding in the front matter, with the reason a reviewer reads:',
        '  compliance:',
        '    accept:',
        '      - rule: unqualified-projection',
        '        reason: The figure is the carrier\'s illustrated rate and is labelled as such below.',
        '',
        'Examples:',
        '  $ blogpost lint posts/',
        '  $ blogpost lint post.md --json',
        '  $ blogpost lint posts/ --fail-on medium',
        '',
      ].join('\n'),
    )
    .action(async (paths: string[], options: LintOptions) => ctx.exit(await (await implementation()).lintCommand(paths, options, ctx)));
}
