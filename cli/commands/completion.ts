/** `blogpost completion bash|zsh|fish`: prints a completion script for the shell (see its first lines). */
import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';

export function registerCompletion(program: Command, ctx: CommandContext): void {
  program
    .command('completion')
    .description('Print a shell completion script for bash, zsh or fish.')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'before',
      [
        'Examples:',
        '  $ source <(blogpost completion bash)',
        '  $ blogpost completion zsh > "${fpath[1]}/_blogpost"',
        '  $ blogpost completion fish > ~/.config/fish/completions/blogpost.fish',
        '',
      ].join('\n'),
    )
    .action((shell: Shell) => {
      ctx.out.data(completionScript(shell, program));
      ctx.exit(ExitCode.Ok);
    });
}
