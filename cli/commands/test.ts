/** `blogpost test <type>`: runs one harness test against the server and prints its result. */
import { runTest } from '../../harness/index';
import { fetchTransport } from '../../harness/transport';
import { isTestType, TEST_TYPES, type TestResult } from '../../harness/types';
import { type CommandContext, type ConnectionOptions, configureHttp, fileState, resolveKey, resolveUrl } from '../context';
import { ExitCode } from '../exit-codes';

export interface TestOptions extends ConnectionOptions {
  json?: boolean;
  timeout: number;
}

export function printResult(result: TestResult, ctx: CommandContext, label?: string): void {
  const prefix = label ? `${label}: ` : '';
  if (result.success) ctx.out.success(`${prefix}${result.message}`);
  else ctx.out.error(`${prefix}${result.message}`);
  for (const step of result.detailed_instructions ?? []) {
    if (!result.success) ctx.out.info(`  → ${step}`);
  }
}

export async function testCommand(type: string, options: TestOptions, ctx: CommandContext): Promise<ExitCode> {
  if (!isTestType(type)) {
    ctx.out.error(`Unknown test type: ${type}`);
    ctx.out.info(`  Valid test types: ${TEST_TYPES.join(', ')}.`);
    return ExitCode.Usage;
  }
  const state = fileState(ctx.io);
  const baseUrl = type === 'reset' ? (options.url ?? ctx.io.env.BLOGPOST_URL ?? 'http://localhost') : resolveUrl(options, ctx.io);
  const apiKey = resolveKey(options, ctx.io);
  await configureHttp(options.timeout);
  const result = await ctx.out.spin(`Running the ${type} test`, () =>
    runTest(type, { baseUrl, ...(apiKey ? { apiKey } : {}), transport: fetchTransport('node'), state }),
  );
  if (options.json) ctx.out.json(result);
  else printResult(result, ctx);
  if (result.success) return ExitCode.Ok;
  return result.statusCode === undefined || result.statusCode >= 500 ? ExitCode.Unavailable : ExitCode.Failed;
}
