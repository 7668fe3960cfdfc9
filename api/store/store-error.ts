/**
 * Why the store cannot open or write, as a message an operator can act on. The store never overwrites
 * a file it could not read: a corrupt file stops the start with this error, and the file stays as it was.
 */
import { JSONFile } from 'lowdb/node';
import type { z } from 'zod';

export type StoreProblem = 'corrupt' | 'unreadable' | 'unwritable' | 'conflict';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly problem: StoreProblem;
  readonly file: string;

  constructor(problem: StoreProblem, file: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.problem = problem;
    this.file = file;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function corruptFile(file: string, detail: string, cause?: unknown): StoreError {
  return new StoreError(
    'corrupt',
    file,
    `The data file ${file} is damaged (${detail}). It was left untouched. Restore it from a backup, or move it out of the data directory to start without it.`,
    cause,
  );
}

export function unwritable(file: string, cause: unknown): StoreError {
  return new StoreError('unwritable', file, `Cannot write ${file} (${reason(cause)}). Check that DATA_DIR points to a writable directory.`, cause);
}

/**
 * Reads a JSON document with lowdb's file adapter and checks it against its schema. Returns null when
 * the file does not exist; throws a StoreError naming the file when it is not valid.
 */
export async function readDocument<T>(file: string, schema: z.ZodType<T>): Promise<T | null> {
  let raw: unknown;
  try {
    raw = await new JSONFile<unknown>(file).read();
  } catch (error) {
    if (error instanceof SyntaxError) throw corruptFile(file, `not valid JSON: ${error.message}`, error);
    throw new StoreError('unreadable', file, `Cannot read ${file} (${reason(error)}).`, error);
  }
  if (raw === null) return null;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first ? `${first.path.join('.') || '(top level)'}: ${first.message}` : 'unexpected shape';
    throw corruptFile(file, `unexpected content at ${where}`);
  }
  return parsed.data;
}
