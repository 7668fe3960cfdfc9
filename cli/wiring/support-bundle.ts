/**
 * The wiring of `blogpost support-bundle <request-id>`: its arguments, options and help. The command's code
 * (commands/support-bundle.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context';
import type { SupportBundleOptions } from '../commands/support-bundle';
import { DATA_DIR_HELP, DATABASE_URL_HELP } from './values';

const implementation = () => import('../commands/support-bundle');

export function registerSupportBundle(program: Command, ctx: CommandContext): void {
  program
    .command('support-bundle')
    .description('Write one redacted JSON file about a request (the request as logged, its diagnosis, the key, the post\'s history, the version and settings) to attach to a support ticket.')
    .argument('<request-id>', 'the request id (X-Request-Id, request_id in an error body)')
    .option('--out <file>', 'the file to write (default: support-bundle-<request-id>.json in the current folder; made readable by you only)')
    .option('--force', 'replace --out when it exists')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--database-url <url>', DATABASE_URL_HELP)
    .option('--json', 'print the outcome (the file written) as JSON on stdout')
    .addHelpText(
      'after',
      [
        '',
        'The file is JSON, not Markdown: a ticket system or a script reads it field by field, and it holds',
        'diagnose\'s explanation as lines for a person. Secrets, e-mail addresses and phone numbers are',
        'replaced; the key appears by id, name and state, never its secret or hash. The settings are read',
        "from this command's environment: run it with the server's (its environment file) to see the server's.",
        '',
        'Examples:',
        '  $ blogpost support-bundle req_0123abcd... --data-dir /var/lib/iul-site',
        '  $ blogpost support-bundle req_0123abcd... --out ticket-4711.json',
        '',
      ].join('\n'),
    )
    .action(async (requestId: string, options: SupportBundleOptions) => ctx.exit(await (await implementation()).supportBundleCommand(requestId, options, ctx)));
}
