/** Reads a post file (Markdown, HTML or JSON) and runs the contract's checks on it, offline. */
import { checkCreatePostBody, type CreatePostCheck } from '../contract/blog';
import type { FieldProblem } from '../contract/field-problems';
import { parsePostFile, PostFileError } from '../api/operations';
import { type CommandContext, readInput } from './context';
import { CliError, ExitCode } from './exit-codes';

export interface LoadedPost {
  payload: Record<string, unknown>;
  check: CreatePostCheck;
  notes: string[];
}

export async function loadPost(file: string, ctx: CommandContext, statusOverride?: string): Promise<LoadedPost> {
  const input = await readInput(file, ctx.io);
  let parsed;
  try {
    parsed = parsePostFile(input.text, { ...(input.name ? { fileName: input.name } : {}) });
  } catch (error) {
    if (error instanceof PostFileError) throw new CliError(error.message, ExitCode.Failed);
    throw error;
  }
  const payload = statusOverride ? { ...parsed.payload, status: statusOverride } : parsed.payload;
  return { payload, check: checkCreatePostBody(payload), notes: parsed.notes };
}

export function describeProblems(problems: readonly FieldProblem[]): string[] {
  return problems.map((p) => `  ${p.field}: ${p.message}`);
}

/** Prints why a post is invalid; returns the exit code. */
export function reportInvalid(check: Exclude<CreatePostCheck, { ok: true }>, ctx: CommandContext, json: boolean): ExitCode {
  if (check.reason === 'json_string') {
    const message = 'The file holds a JSON string with the post inside: it was serialised twice. Save the JSON object itself.';
    if (json) ctx.out.json({ success: false, valid: false, message });
    else ctx.out.error(message);
    return ExitCode.Failed;
  }
  if (json) {
    ctx.out.json({ success: false, valid: false, errors: check.problems });
  } else {
    ctx.out.error(`The post is not valid (${check.problems.length} problem${check.problems.length === 1 ? '' : 's'}):`);
    for (const line of describeProblems(check.problems)) ctx.out.info(line);
  }
  return ExitCode.Failed;
}
