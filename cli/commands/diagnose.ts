/**
 * `blogpost diagnose`: what support staff run when an integrator's request fails. Checks the key (its
 * shape offline; revoked or without blog:write from the data directory, else from the server), then
 * runs every harness probe against --url and prints, per probe, pass or fail with the cause and the
 * fix. `--request <file>` diagnoses a captured curl command or HAR file (its @file bodies read as curl
 * reads them, its key looked up the same way); `--send` replays it, asking first when it would create
 * a post, and `--validate-only` sends it to the validation endpoint instead.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { checkApiKey, readBearerToken } from '../../contract/keys';
import { type BodyFileReader, CapturedRequestError, parseCapturedRequest } from '../../harness/captured-request';
import { diagnoseResponse } from '../../harness/diagnose';
import { diagnoseRequest, requestClient } from '../../harness/diagnose-request';
import { runTest } from '../../harness/index';
import { keyCannotWrite, type KeyStatus } from '../../harness/key-check';
import { memoryState } from '../../harness/state';
import { fetchTransport } from '../../harness/transport';
import type { HarnessRequest, TestResult, TestType } from '../../harness/types';
import { type CommandContext, type ConnectionOptions, configureHttp, readInput, resolveKey, resolveUrl } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { askYesNo, type CliIO, isInteractive } from '../io';
import { lookUpKey, reportKeyStatus } from '../key-status';

export interface DiagnoseOptions extends ConnectionOptions {
  request?: string;
  databaseUrl?: string;
  send?: boolean;
  validateOnly?: boolean;
  yes?: boolean;
  offline?: boolean;
  dataDir?: string;
  timeout: number;
  json?: boolean;
}

export const DIAGNOSE_PROBES: readonly TestType[] = ['python', 'dataParam', 'cors', 'postman', 'postmanFix'];

async function diagnoseServer(options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  const { out } = ctx;
  const baseUrl = resolveUrl(options, ctx.io);
  let apiKey = resolveKey(options, ctx.io);
  await configureHttp(options.timeout);
  let key: KeyStatus | undefined;
  if (apiKey) {
    const shape = checkApiKey(apiKey);
    if (!shape.ok) {
      if (options.json) out.json({ success: false, key: { state: 'malformed', message: shape.message } });
      else {
        out.error(`API key: ${shape.message}`);
        out.info('  → Copy the key again in full, or create a new one: blogpost keys create --name NAME --permission blog:write');
      }
      return ExitCode.Failed;
    }
    if (!options.json) out.success('API key: prefix, shape and checksum are correct (checked offline).');
    key = await lookUpKey({ apiKey, dataDir: options.dataDir, origin: options.offline ? undefined : baseUrl }, ctx);
    if (!options.json) reportKeyStatus(key, ctx);
    if (keyCannotWrite(key)) {
      // Said once above: the probes would only fail on the key again, so they run without it.
      if (!options.json) out.info(out.dim('The probes below run without the key: they check the payload handling only.'));
      apiKey = undefined;
    }
  } else if (!options.json) {
    out.warn('No API key given (--key or BLOGPOST_API_KEY): the probes check the payload handling only, not the key.');
  }
  const keyFailed = key !== undefined && keyCannotWrite(key);
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
  const ok = failed.length === 0 && !keyFailed;
  if (options.json) {
    out.json({
      success: ok,
      baseUrl,
      ...(key ? { key } : {}),
      probes: results.map(({ probe, result }) => ({ probe, ...result, probes: undefined })),
    });
  } else {
    const without = keyFailed ? ' (without the key)' : '';
    out.info(failed.length === 0 ? `All ${results.length} probes passed${without}.` : `${failed.length} of ${results.length} probes failed${without}.`);
    if (keyFailed) out.info('The key cannot create posts: see the first lines above.');
  }
  return ok ? ExitCode.Ok : ExitCode.Failed;
}

function overrideOrigin(request: HarnessRequest, origin: string | undefined): HarnessRequest {
  if (!origin) return request;
  const url = new URL(request.url);
  return { ...request, url: `${origin}${url.pathname}${url.search}` };
}

function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}

/** The same request sent to POST /api/blog/validate, which checks everything and saves nothing. */
function toValidateEndpoint(request: HarnessRequest): HarnessRequest {
  if (!URL.canParse(request.url)) return request;
  const url = new URL(request.url);
  return { ...request, url: `${url.origin}/api/blog/validate${url.search}` };
}

function createsPost(request: HarnessRequest): boolean {
  try {
    return request.method.toUpperCase() === 'POST' && new URL(request.url).pathname.replace(/\/+$/, '') === '/api/blog';
  } catch {
    return false;
  }
}

/** Reads a body file of the curl command (`-d @file`) against the current directory, as curl does. */
function bodyFileReader(io: CliIO): BodyFileReader {
  return (name) => {
    const full = name.startsWith('~/') ? path.join(homedir(), name.slice(2)) : path.resolve(io.cwd, name);
    try {
      return readFileSync(full);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
      throw new CliError(`Cannot read ${name}, the body file the curl command names (@${name}, looked for at ${full}): ${why}. Run diagnose from the folder the curl command ran in, or fix the path.`, ExitCode.Local);
    }
  };
}

function bearerKey(request: HarnessRequest): string | undefined {
  const value = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const bearer = readBearerToken(value);
  return bearer.ok && checkApiKey(bearer.token).ok ? bearer.token : undefined;
}

async function diagnoseCaptured(file: string, options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  const { out, io } = ctx;
  const input = await readInput(file, io);
  let captured;
  try {
    captured = parseCapturedRequest(input.text, input.name, { readFile: bodyFileReader(io) });
  } catch (error) {
    if (error instanceof CapturedRequestError) throw new CliError(error.message, ExitCode.Failed);
    throw error;
  }
  const request = overrideOrigin(captured.request, options.url ?? undefined);
  const validateOnly = options.validateOnly === true;
  const sent = validateOnly ? toValidateEndpoint(request) : request;
  const send = options.send === true || validateOnly;
  const mustConfirm = send && createsPost(sent) && options.yes !== true;
  if (mustConfirm && !isInteractive(io)) {
    throw new CliError(
      `--send replays the request for real: ${sent.method} ${sent.url} creates a real post when the server accepts it, and there is no terminal to confirm on. Add --yes to send it anyway, or use --validate-only to check it with POST /api/blog/validate without creating anything.`,
      ExitCode.Usage,
    );
  }
  await configureHttp(options.timeout);
  const findings = diagnoseRequest(request);
  const client = requestClient(request);
  const apiKey = bearerKey(request);
  // When the request is sent, its answer speaks for the key; the server is not asked twice.
  const key = apiKey ? await lookUpKey({ apiKey, dataDir: options.dataDir, origin: options.offline || send ? undefined : originOf(request.url) }, ctx) : undefined;
  const keyFailed = key !== undefined && keyCannotWrite(key);

  if (!options.json) {
    out.info(`Captured ${captured.source === 'har' ? 'HAR entry' : 'curl command'}: ${request.method} ${request.url} (client: ${client})`);
    if (key && !(send && key.state === 'unchecked')) reportKeyStatus(key, ctx);
    if (findings.length === 0) {
      if (keyFailed) out.info("Method, content type and body pass the offline checks; the key is what fails.");
      else if (key?.state === 'unchecked' && !send) out.success("Method, key format, content type and body pass the offline checks (the key's status is not known).");
      else out.success('The request itself looks right: method, key format, content type and body all pass the offline checks.');
    }
    for (const finding of findings) {
      out.error(finding.cause);
      for (const fix of finding.fixes) out.info(`  → ${fix}`);
    }
  }

  let response = captured.response;
  let sentNow = false;
  if (send) {
    let go = true;
    if (mustConfirm) {
      out.warn(`This sends ${sent.method} ${sent.url} for real: the server creates a real post when it accepts it.`);
      go = await askYesNo(io, 'Send it?');
      if (!go) out.info('Nothing was sent.');
    } else if (createsPost(sent)) out.warn(`Sending ${sent.method} ${sent.url} for real (--yes): the server creates a real post when it accepts it.`);
    else if (validateOnly && !options.json) out.info(out.dim(`Sending to ${sent.url} instead (--validate-only): the server checks it and saves nothing.`));
    if (go) {
      try {
        response = await out.spin(`Sending ${sent.method} ${sent.url}`, () => fetchTransport('node').send(sent));
        sentNow = true;
      } catch (error) {
        throw new CliError(`Could not reach ${sent.url}: ${(error as Error).message}`, ExitCode.Unavailable);
      }
    }
  }
  const answer = response ? diagnoseResponse(response, client) : undefined;
  const ok = findings.length === 0 && !keyFailed && (answer?.ok ?? true);
  if (options.json) {
    out.json({
      success: ok,
      source: captured.source,
      client,
      request: { method: request.method, url: request.url },
      ...(key ? { key } : {}),
      findings,
      ...(sentNow ? { sent: { method: sent.method, url: sent.url } } : {}),
      response: answer,
    });
  } else if (answer) {
    if (answer.ok) out.success(`The server answered ${answer.cause}.`);
    else {
      out.error(`The server answered ${answer.cause}`);
      for (const fix of answer.fixes) out.info(`  → ${fix}`);
    }
    for (const warning of answer.warnings) out.warn(`Server warning: ${warning}`);
  } else if (findings.length > 0 || keyFailed) out.info(out.dim('Replay it with --validate-only to see what the server answers without creating anything.'));
  return ok ? ExitCode.Ok : ExitCode.Failed;
}

export async function diagnoseCommand(options: DiagnoseOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.request) return diagnoseCaptured(options.request, options, ctx);
  if (options.send || options.validateOnly) {
    throw new CliError(`${options.send ? '--send' : '--validate-only'} replays a captured request: use it with --request <file>.`, ExitCode.Usage);
  }
  return diagnoseServer(options, ctx);
}
