/**
 * `blogpost diagnose`: what support staff run when an integrator's request fails. Checks the key
 * offline, then runs every harness probe against --url and prints, per probe, pass or fail with the
 * cause and the fix. `--request <file>` diagnoses a captured curl command or HAR file offline, and
 * `--send` replays it.
 */
import type { Command } from 'commander';
import { checkApiKey } from '../../contract/keys';
import { CapturedRequestError, parseCapturedRequest } from '../../harness/captured-request';
import { diagnoseResponse } from '../../harness/diagnose';
import { diagnoseRequest, requestClient } from '../../harness/diagnose-request';
import { runTest } from '../../harness/index';
import { memoryState } from '../../harness/state';
import { fetchTransport } from '../../harness/transport';
import type { HarnessRequest, TestResult, TestType } from '../../harness/types';
import { type CommandContext, type ConnectionOptions, configureHttp, readInput, resolveKey, resolveUrl } from '../context';
import { CliError, ExitCode } from '../exit-codes';

interface DiagnoseOptions extends ConnectionOptions {
  request?: string;
  send?: boolean;
  json?: boolean;
}

export const DIAGNOSE_PROBES: readonly TestType[] = ['python', 'dataParam', 'cors', 'postman', 'postmanFix'];

async function diagnoseServer(options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const baseUrl = resolveUrl(options, ctx.io);
  const apiKey = resolveKey(options, ctx.io);
  if (apiKey) {
    const key = checkApiKey(apiKey);
    if (!key.ok) {
      if (options.json) out.json({ success: false, key: { ok: false, message: key.message } });
      else {
        out.error(`API key: ${key.message}`);
        out.info('  → Copy the key again in full, or create a new one: blogpost keys create --name NAME --permission blog:write');
      }
      return ExitCode.Failed;
    }
    if (!options.json) out.success('API key: prefix, shape and checksum are correct (checked offline).');
  } else if (!options.json) {
    out.warn('No API key given (--key or BLOGPOST_API_KEY): the probes check the payload handling only, not the key.');
  }
  configureHttp();
  const results: Array<{ probe: TestType; result: TestResult }> = [];
  for (const probe of DIAGNOSE_PROBES) {
    // Validation only: diagnosing never creates posts, while the key, when given, is still checked.
    const result = await out.spin(`Probing ${probe}`, () =>
      runTest(probe, { baseUrl, ...(apiKey ? { apiKey } : {}), transport: fetchTransport('node'), state: memoryState(), validateOnly: true }),
    );
    results.push({ probe, result });
    if (!options.json) {
      if (result.success) out.success(`${probe}: pass - ${result.message}`);
      else {
        out.error(`${probe}: FAIL - ${result.message}`);
        for (const step of result.detailed_instructions ?? []) out.info(`  → ${step}`);
      }
    }
  }
  const failed = results.filter((r) => !r.result.success);
  if (options.json) {
    out.json({
      success: failed.length === 0,
      baseUrl,
      probes: results.map(({ probe, result }) => ({ probe, ...result, probes: undefined })),
    });
  } else out.info(failed.length === 0 ? `All ${results.length} probes passed.` : `${failed.length} of ${results.length} probes failed.`);
  return failed.length === 0 ? ExitCode.Ok : ExitCode.Failed;
}

function overrideOrigin(request: HarnessRequest, origin: string | undefined): HarnessRequest {
  if (!origin) return request;
  const url = new URL(request.url);
  return { ...request, url: `${origin}${url.pathname}${url.search}` };
}

async function diagnoseCaptured(file: string, options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const input = await readInput(file, ctx.io);
  let captured;
  try {
    captured = parseCapturedRequest(input.text, input.name);
  } catch (error) {
    if (error instanceof CapturedRequestError) throw new CliError(error.message, ExitCode.Failed);
    throw error;
  }
  const request = overrideOrigin(captured.request, options.url ?? undefined);
  const findings = diagnoseRequest(request);
  const client = requestClient(request);
  let response = captured.response;
  if (options.send) {
    configureHttp();
    try {
      response = await out.spin(`Sending ${request.method} ${request.url}`, () => fetchTransport('node').send(request));
    } catch (error) {
      throw new CliError(`Could not reach ${request.url}: ${(error as Error).message}`, ExitCode.Unavailable);
    }
  }
  const answer = response ? diagnoseResponse(response, client) : undefined;
  if (options.json) {
    out.json({ success: findings.length === 0 && (answer?.ok ?? true), source: captured.source, client, request: { method: request.method, url: request.url }, findings, response: answer });
  } else {
    out.info(`Captured ${captured.source === 'har' ? 'HAR entry' : 'curl command'}: ${request.method} ${request.url} (client: ${client})`);
    if (findings.length === 0) out.success('The request itself looks right: method, key format, content type and body all pass the offline checks.');
    for (const finding of findings) {
      out.error(finding.cause);
      for (const fix of finding.fixes) out.info(`  → ${fix}`);
    }
    if (answer) {
      if (answer.ok) out.success(`The server answered ${answer.cause}.`);
      else {
        out.error(`The server answered ${answer.cause}`);
        for (const fix of answer.fixes) out.info(`  → ${fix}`);
      }
    } else if (findings.length > 0) out.info(out.dim('Replay it with --send to see what the server answers.'));
  }
  return findings.length === 0 && (answer?.ok ?? true) ? ExitCode.Ok : ExitCode.Failed;
}

export async function diagnoseCommand(options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.request) return diagnoseCaptured(options.request, options, ctx);
  if (options.send) throw new CliError('--send replays a captured request: use it with --request <file>.', ExitCode.Usage);
  return diagnoseServer(options, ctx);
}

export function registerDiagnose(program: Command, ctx: CommandContext): void {
  program
    .command('diagnose')
    .description("Find out why an integration fails: probe the server, or explain a captured request.")
    .option('--url <origin>', 'the site to probe (default: $BLOGPOST_URL); with --request, replaces the captured origin')
    .option('--key <key>', 'the API key to check (default: $BLOGPOST_API_KEY)')
    .option('--request <file>', 'a captured request: a file with a curl command, or a .har export ("-" reads stdin)')
    .option('--send', 'with --request: replay the request and diagnose the answer too')
    .option('--json', 'print the findings as JSON on stdout')
    .addHelpText(
      'before',
      [
        'Examples:',
        '  $ blogpost diagnose --url https://example.com --key bpk_...',
        '  $ blogpost diagnose --request failing-request.sh',
        '  $ blogpost diagnose --request session.har --send --url http://localhost:3000',
        '',
      ].join('\n'),
    )
    .action(async (options: DiagnoseOptions) => ctx.exit(await diagnoseCommand(options, ctx)));
}
