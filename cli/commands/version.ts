/** `blogpost version`: prints the version, as `blogpost --version` and `-v` do. */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import { ExitCode } from '../exit-codes';
import { VERSION } from '../version';

export function registerVersion(program: Command, ctx: CommandContext): void {
  program
    .command('version')
    .description('Print the version of blogpost (also: blogpost --version, blogpost -v).')
    .action(() => {
      ctx.out.data(VERSION);
      ctx.exit(ExitCode.Ok);
    });
}
