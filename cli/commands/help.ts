/** `blogpost help [topic]`: help for a command, or the exit codes (`blogpost help exit-codes`). */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import { EXIT_CODE_HELP, ExitCode } from '../exit-codes';

export function exitCodesText(): string {
  return ['Exit codes of blogpost:', ...EXIT_CODE_HELP.map(([code, meaning]) => `  ${code}  ${meaning}`)].join('\n');
}

export function registerHelp(program: Command, ctx: CommandContext): void {
  program.helpCommand(false);
  program
    .command('help')
    .description('Show help for a command, or "blogpost help exit-codes"')
    .argument('[topic]', 'a command name, or exit-codes')
    .action((topic: string | undefined) => {
      if (topic === 'exit-codes') {
        ctx.out.data(exitCodesText());
        ctx.exit(ExitCode.Ok);
        return;
      }
      const command = topic ? program.commands.find((c) => c.name() === topic) : undefined;
      if (topic && !command) {
        ctx.out.error(`No help topic "${topic}". Topics: ${[...program.commands.map((c) => c.name()), 'exit-codes'].join(', ')}.`);
        ctx.exit(ExitCode.Usage);
        return;
      }
      ctx.out.data((command ?? program).helpInformation());
      ctx.exit(ExitCode.Ok);
    });
}
