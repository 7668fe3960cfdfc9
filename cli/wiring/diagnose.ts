/**
 * The wiring of `blogpost diagnose [request-id]`: its arguments, options and help. The command's code
 * (commands/diagnose.ts) is loaded when it runs, never for help or completion (decision 0035).
 */
import type { Command } from 'commander';
import { timeoutOption } from '../options';
import type { CommandContext } from '../context';
import type { DiagnoseOptions } from '../commands/diagnose';

const implementation = () => import('../commands/diagnose');
const explainRequest = () => import('../commands/explain-request');

export function registerDiagnose(program: Command, ctx: CommandContext): void {
  program
    .command('diagnose')
    .description("Find out why an integration fails: probe the server, or explain a captured request.")
    .option('--url <origin>', 'the site to probe (default: $BLOGPOST_URL); with --request, replaces the captured origin')
    .option('--key <key>', 'the API key to check (default: $BLOGPOST_API_KEY)')
    .option('--request <file>', 'a captured request: a file with a curl command, or a .har export ("-" reads stdin); @file bodies are read from the current folder')
    .option('--send', 'with --request: replay the request for real and diagnose the answer (a POST to /api/blog creates a real post: asks first)')
    .option('--yes', 'with --send: do not ask before sending (needed without a terminal)')
    .option('--validate-only', 'with --request: send it to POST /api/blog/validate instead, which creates nothing')
    .option('--data-dir <dir>', "the server's data directory: its request log, and where to look the key up (default: $DATA_DIR or ./data); else the site's validation endpoint is asked")
    .option('--database-url <url>', "with a request id: the PostgreSQL store to read the key and the post's history from (default: $DATABASE_URL when --data-dir is not given)")
    .option('--offline', 'never ask the server about the key')
    .addOption(timeoutOption())
    .option('--json', 'print the findings as JSON on stdout')
    .addHelpText(
      'before',
      [
        'Examples:',
        '  $ blogpost diagnose --url https://example.com --key bpk_...',
        '  $ blogpost diagnose --request failing-request.sh',
        '  $ blogpost diagnose --request failing-request.sh --validate-only',
        '  $ blogpost diagnose --request session.har --send --url http://localhost:3000',
        '  $ blogpost diagnose req_0123abcd... --data-dir /var/lib/iul-site   (a request from the log:',
        '      the cause and the fix; for a 412 who changed what since, for a 413, 415, 429 or 503 the limit)',
        '  $ blogpost support-bundle req_0123abcd...   (the same request as one redacted file for a ticket)',
        '',
      ].join('\n'),
    )
    .argument('[request-id]', "a request id (X-Request-Id, request_id in an error body): explain that request from the server's request log")
    .action(async (requestId: string | undefined, options: DiagnoseOptions) =>
      ctx.exit(requestId === undefined ? await (await implementation()).diagnoseCommand(options, ctx) : await (await explainRequest()).explainRequestCommand(requestId, options, ctx)),
    );
}
