/**
 * The `blogpost` CLI: commander wiring only. `run(argv, io)` resolves to the exit code; only the bin
 * file sets process.exitCode. Each command's arguments, options and help are in wiring/, which loads
 * its code from commands/ only when it runs (decision 0035): help and completion never load it.
 */
import { Command, CommanderError } from 'commander';
import { registerArchive } from './wiring/archive';
import { registerAudit } from './wiring/audit';
import { registerBackup } from './wiring/backup';
import { registerCompletion } from './commands/completion';
import { registerDiagnose } from './wiring/diagnose';
import { registerDoctor } from './wiring/doctor';
import { registerHelp } from './commands/help';
import { registerImportWordPress } from './wiring/import-wordpress';
import { registerKeys } from './wiring/keys';
import { registerLeads } from './wiring/leads';
import { registerLint } from './wiring/lint';
import { registerLogs } from './wiring/logs';
import { registerMedia } from './wiring/media';
import { registerSeed } from './wiring/seed';
import { registerStaff } from './wiring/staff';
import { registerSupportBundle } from './wiring/support-bundle';
import { registerPosts } from './wiring/posts';
import { registerPublish } from './wiring/publish';
import { registerTest } from './wiring/test';
import { registerTransfer } from './wiring/transfer';
import { registerValidate } from './wiring/validate';
import { registerVersion } from './commands/version';
import type { CommandContext } from './context';
import { CliError, ExitCode } from './exit-codes';
import { type CliIO, processIO } from './io';
import { Output } from './output';
import { VERSION } from './version';

export type CommandRegistrar = (program: Command, ctx: CommandContext) => void;

const COMMANDS: readonly CommandRegistrar[] = [registerPublish, registerPosts, registerValidate, registerMedia, registerLint, registerDiagnose, registerTest, registerKeys, registerLeads, registerStaff, registerAudit, registerLogs, registerSupportBundle, registerSeed, registerTransfer, registerBackup, registerDoctor, registerHelp, registerVersion, registerCompletion, registerArchive, registerImportWordPress];

export function buildProgram(ctx: CommandContext, extra: readonly CommandRegistrar[] = []): Command {
  const program = new Command('blogpost')
    .description('Publish and update Markdown posts (and the images they show) through the blog API, list, schedule, delete and restore them, upload and delete images, validate payloads and check them against the compliance rules offline, and diagnose failed requests.')
    .version(VERSION, '-v, --version', 'print the version of blogpost')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    })
    .addHelpText(
      'before',
      [
        'Examples:',
        '  $ blogpost publish post.md --url https://example.com --key bpk_...',
        '  $ blogpost publish post.md              # after editing: updates the same post',
        '                                          # (local images it shows are uploaded once)',
        '  $ blogpost media upload chart.png       # then: blogpost media list, blogpost media delete <id>',
        '  $ blogpost list --mine',
        '  $ blogpost get my-post --markdown --output my-post.md',
        '  $ blogpost delete my-post               # to the trash; blogpost restore my-post brings it back',
        '  $ blogpost validate post.md',
        '  $ blogpost lint posts/                  # the compliance rules over every post file, offline',
        '  $ blogpost diagnose --url https://example.com',
        '  $ blogpost diagnose req_0123abcd...       # a failed request, from the request log',
        '  $ blogpost support-bundle req_0123abcd... # one redacted file about it, for a ticket',
        '  $ blogpost test python',
        '  $ blogpost keys create --name "Jane Author" --permission blog:write',
        '  $ blogpost backup /backups/site.sqlite  # a copy of the database while the server runs',
        '',
        'BLOGPOST_URL and BLOGPOST_API_KEY are the defaults of --url and --key.',
        'Exit codes: blogpost help exit-codes',
        '',
      ].join('\n'),
    );
  for (const register of [...COMMANDS, ...extra]) register(program, ctx);
  for (const command of program.commands) {
    command.exitOverride().configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
    });
  }
  return program;
}

export async function run(argv: readonly string[], io: CliIO = processIO(), extra: readonly CommandRegistrar[] = []): Promise<ExitCode> {
  let code: ExitCode = ExitCode.Ok;
  const out = new Output(io);
  const ctx: CommandContext = { io, out, exit: (c) => (code = c) };
  const program = buildProgram(ctx, extra);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here too, with exit code 0.
      return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    }
    if (error instanceof CliError) {
      out.error(error.message);
      return error.exitCode;
    }
    out.error(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.Failed;
  }
}
