/**
 * Zod issues turned into the field list a 400 answer carries: one entry per problem, each naming the
 * field by its path (`author.name`, `trust.sources[0].url`) and saying whether it is missing or invalid.
 */
import type { z } from 'zod';

export interface FieldProblem {
  /** Path of the field in the JSON body or query, e.g. `author.name` or `tags[2]`; `(body)` for the whole body. */
  field: string;
  problem: 'missing' | 'invalid';
  /** A sentence naming the field, e.g. `title is required`. */
  message: string;
}

export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

function describeType(expected: string): string {
  switch (expected) {
    case 'string':
      return 'text';
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    case 'boolean':
      return 'true or false';
    default:
      return `a ${expected}`;
  }
}

/** What is wrong, as the end of a sentence that starts with the field name. */
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${describeType(issue.expected)}`;
    case 'too_small':
      if (issue.origin === 'string') return `must be at least ${String(issue.minimum)} characters`;
      if (issue.origin === 'array') return `must have at least ${String(issue.minimum)} items`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${String(issue.maximum)} characters`;
      if (issue.origin === 'array') return `must have at most ${String(issue.maximum)} items`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be an http:// or https:// URL' : `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be one of: ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message;
  }
}

function isMissing(issue: z.core.$ZodIssue): boolean {
  const input: unknown = issue.input;
  if (issue.code === 'invalid_type') return input === undefined || input === null;
  return issue.code === 'too_small' && issue.origin === 'string' && typeof input === 'string' && input.trim() === '';
}

/**
 * Field problems from the issues of a `safeParse(..., { reportInput: true })`. `requiredInside` maps an
 * object field to the required field within it, so a missing `author` is reported as `author.name`.
 */
export function fieldProblemsFrom(
  issues: readonly z.core.$ZodIssue[],
  requiredInside: Readonly<Record<string, string>> = {},
): FieldProblem[] {
  return issues.map((issue) => {
    const missing = isMissing(issue);
    const path = fieldPath(issue.path);
    const field = (missing ? requiredInside[path] : undefined) ?? path;
    return { field, problem: missing ? 'missing' : 'invalid', message: `${field} ${missing ? 'is required' : describeIssue(issue)}` };
  });
}
