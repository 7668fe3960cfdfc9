/**
 * `blogpost publish <file|->`: validates a post offline, then creates it with POST /api/blog. Sends an
 * Idempotency-Key (by default derived from the URL and the body), so running the same command again,
 * or a retry after a timeout, never creates the post twice; backs off on 429 as Retry-After says.
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { REPLAYED_HEADER } from '../../contract/blog';
import { checkApiKey, maskApiKey } from '../../contract/keys';
import { diagnoseResponse } from '../../harness/diagnose';
import { fetchTransport } from '../../harness/transport';
import type { HarnessRequest, HarnessResponse } from '../../harness/types';
import { type CommandContext, type ConnectionOptions, configureHttp, resolveKey, resolveUrl } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { retriesOption, timeoutOption } from '../options';
import { loadPost, reportInvalid } from '../post-input';

interface PublishOptions extends ConnectionOptions {
  status?: string;
  dryRun?: boolean;
  json?: boolean;
  idempotencyKey?: string;
  retries: number;
  timeout: number;
}

const MAX_WAIT_SECONDS = 60;

export function defaultIdempotencyKey(url: string, body: string): string {
  return `blogpost-${createHash('sha256').update(url).update('\n').update(body).digest('hex').slice(0, 40)}`;
}

function retryAfterSeconds(response: HarnessResponse, attempt: number): number {
  const header = response.headers['retry-after'];
  const seconds = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : 2 ** attempt;
  return Math.min(Math.max(seconds, 1), MAX_WAIT_SECONDS);
}

export async function publishCommand(file: string, options: PublishOptions, ctx: CommandContext): Promise<ExitCode> {
  const { out, io } = ctx;
  const json = options.json === true;
  const { payload, check, notes } = await loadPost(file, ctx, options.status);
  if (!check.ok) return reportInvalid(check, ctx, json);
  for (const note of notes) out.info(out.dim(`note: ${note}`));

  const origin = resolveUrl(options, io);
  const apiKey = resolveKey(options, io);
  const body = JSON.stringify(payload);
  const idempotencyKey = options.idempotencyKey ?? defaultIdempotencyKey(origin, body);
  const request: HarnessRequest = {
    method: 'POST',
    url: `${origin}/api/blog`,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Idempotency-Key': idempotencyKey,
      'User-Agent': 'blogpost-cli/0.1',
      ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}),
    },
    body,
  };

  if (options.dryRun) {
    const shown = { ...request, headers: { ...request.headers, ...(apiKey ? { Authorization: `Bearer ${maskApiKey(apiKey)}` } : {}) }, body: payload };
    if (json) out.json({ dryRun: true, request: shown });
    else {
      out.data(`${request.method} ${request.url}`);
      for (const [name, value] of Object.entries(shown.headers)) out.data(`${name}: ${value}`);
      out.data('');
      out.data(JSON.stringify(payload, null, 2));
      out.info(out.dim('Dry run: nothing was sent.'));
    }
    return ExitCode.Ok;
  }

  if (!apiKey) throw new CliError('No API key: pass --key or set BLOGPOST_API_KEY (create one with: blogpost keys create --name NAME).', ExitCode.Usage);
  const keyCheck = checkApiKey(apiKey);
  if (!keyCheck.ok) throw new CliError(`${keyCheck.message} Nothing was sent.`, ExitCode.Failed);

  configureHttp(options.timeout);
  const transport = fetchTransport('node');
  const attempts = options.retries;
  let response: HarnessResponse | undefined;
  for (let attempt = 1; ; attempt += 1) {
    try {
      response = await out.spin(`Publishing "${check.data.title}"`, () => transport.send(request));
    } catch (error) {
      if (attempt >= attempts) {
        throw new CliError(`Could not reach ${origin}: ${(error as Error).message}. The post was not confirmed; run the same command again (it will not be duplicated).`, ExitCode.Unavailable);
      }
      const wait = 2 ** (attempt - 1);
      out.warn(`Could not reach the server (${(error as Error).message}); retrying in ${wait}s with the same Idempotency-Key.`);
      await io.sleep(wait * 1000);
      continue;
    }
    const retryable = response.status === 429 || response.status === 502 || response.status === 503 || response.status === 504;
    if (!retryable || attempt >= attempts) break;
    const wait = retryAfterSeconds(response, attempt - 1);
    out.warn(`${response.status === 429 ? 'Rate limited' : `Server answered ${response.status}`}; retrying in ${wait}s (attempt ${attempt + 1} of ${attempts}).`);
    await io.sleep(wait * 1000);
  }

  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    parsed = undefined;
  }
  if (response.status === 201 || response.status === 200) {
    const answer = parsed as { post?: { slug?: string; status?: string; id?: string }; warnings?: string[]; message?: string } | undefined;
    const slug = answer?.post?.slug ?? '';
    const postUrl = `${origin}/blog/${slug}`;
    const replayed = response.headers[REPLAYED_HEADER.toLowerCase()] === 'true';
    if (json) out.json({ ...(typeof parsed === 'object' && parsed !== null ? parsed : {}), url: postUrl, idempotencyKey, replayed });
    else {
      out.data(postUrl);
      out.success(
        replayed
          ? `Already published with this Idempotency-Key: nothing new was created (${answer?.post?.status ?? 'unknown status'}).`
          : `Created "${check.data.title}" as ${answer?.post?.status ?? 'unknown status'}${answer?.post?.status === 'draft' ? ' (drafts are not public until published)' : ''}.`,
      );
      for (const warning of answer?.warnings ?? []) out.warn(warning);
    }
    return ExitCode.Ok;
  }

  const diagnosis = diagnoseResponse(response);
  if (json) out.json({ success: false, status: response.status, cause: diagnosis.cause, fixes: diagnosis.fixes, response: parsed ?? response.text });
  else {
    out.error(`Not published: ${diagnosis.cause}`);
    for (const fix of diagnosis.fixes) out.info(`  → ${fix}`);
  }
  return response.status >= 500 ? ExitCode.Unavailable : ExitCode.Failed;
}

export function registerPublish(program: Command, ctx: CommandContext): void {
  program
    .command('publish')
    .description('Validate a post, then create it through POST /api/blog and print its URL.')
    .argument('<file>', 'Markdown (.md) or HTML with YAML front matter, or a JSON payload; "-" reads stdin')
    .option('--url <origin>', 'the site, e.g. https://example.com (default: $BLOGPOST_URL)')
    .option('--key <key>', 'API key holding blog:write (default: $BLOGPOST_API_KEY)')
    .option('--status <status>', 'draft or published, overriding the file')
    .option('--dry-run', 'print the exact request and send nothing')
    .option('--idempotency-key <key>', 'reuse to retry safely (default: derived from the URL and the post)')
    .addOption(retriesOption())
    .addOption(timeoutOption())
    .option('--json', 'print the API answer as JSON on stdout')
    .addHelpText(
      'before',
      'Examples:\n  $ blogpost publish post.md --status published\n  $ blogpost publish post.md --dry-run\n  $ BLOGPOST_URL=https://example.com BLOGPOST_API_KEY=bpk_... blogpost publish post.json --json\n',
    )
    .action(async (file: string, options: PublishOptions) => ctx.exit(await publishCommand(file, options, ctx)));
}
