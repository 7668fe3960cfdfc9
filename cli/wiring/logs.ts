/**
 * The wiring of `blogpost logs` and `blogpost logs tail`: its arguments, options and help. The command's code
 * (commands/logs.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import { type Command, Option } from 'commander';
import { CLIENT_KINDS } from '../../contract/clients';
import { CliError, ExitCode } from '../exit-codes';
import type { CommandContext } from '../context';
import type { LogFilterOptions, LogsOptions } from '../commands/logs';

const implementation = () => import('../commands/logs');

const DEFAULT_LIMIT = 50;

function positiveWhole(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) {
    throw new CliError(`--limit takes a whole number from 1, not "${text}".`, ExitCode.Usage);
  }
  return value;
}

function addFilters(command: Command): Command {
  return command
    .option('--key <id>', 'requests that named this key id (as blogpost keys list shows it)')
    .option('--status <status>', 'a status class (4xx, 5xx) or statuses (401, or 401,403)')
    .option('--code <code>', 'an error code of the API (invalid_api_key, validation_failed, ...)')
    .option('--since <when>', 'only requests since a duration ago (30m, 2h, 1d) or an ISO time')
    .option('--request-id <id>', 'the request with this id (X-Request-Id, request_id in error bodies)')
    .addOption(new Option('--client <client>', 'requests from this kind of client').choices(CLIENT_KINDS))
    .addOption(new Option('--data-dir <dir>', 'the data directory (default: $DATA_DIR, else data/ in the project)'))
    .option('--json', 'print each request as one line of JSON on stdout');
}

export function registerLogs(program: Command, ctx: CommandContext): void {
  const logs = addFilters(
    program
      .command('logs')
      .description("Show the server's request log (every /api request) from the data directory; `logs tail` follows it live."),
  )
    .addOption(new Option('--limit <n>', 'show the newest n matching requests (the footer says how many more match)').default(DEFAULT_LIMIT).argParser(positiveWhole))
    .option('--before <request-id>', 'page back: the matching requests logged before this one (the first REQUEST ID of the page you saw)')
    .option('--all', 'also show the requests the CLI made to check its own work (marked X-Blogpost-Check), hidden by default')
    .addHelpText(
      'after',
      '\nExamples:\n  $ blogpost logs --status 4xx --since 2h\n  $ blogpost logs --before req_0123abcd...   (the page before)\n  $ blogpost logs --all   (with the CLI’s own checks)\n  $ blogpost logs --key Ab12Cd34Ef --json\n  $ blogpost logs tail --code invalid_api_key\n  $ blogpost diagnose req_0123abcd...   (explain one request)\n',
    )
    .action(async (options: LogsOptions) => ctx.exit(await (await implementation()).logsCommand(options, ctx)));
  // Filters after `tail` may be parsed by `logs` itself (commander reads a parent's options anywhere): merged.
  addFilters(logs.command('tail').description('Follow the request log as requests arrive, until Ctrl-C.')).action(async (_options: LogFilterOptions, command: Command) =>
    ctx.exit(await (await implementation()).tailLogsCommand(command.optsWithGlobals<LogFilterOptions>(), ctx)),
  );
}
