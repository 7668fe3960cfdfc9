/**
 * Quarantine: a data file the store cannot read is moved aside to `DATA_DIR/quarantine/<same
 * relative path>` with a small JSON note (`<name>.note.json`: why, when, where from) instead of
 * stopping the start, and never overwritten. `blogpost doctor` lists what is there and how to put a
 * repaired file back.
 */
import { mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { QuarantinedFile } from '../store';
import { DurableWriter } from './durable-writer';

export const QUARANTINE_DIR = 'quarantine';
const NOTE_SUFFIX = '.note.json';

const noteSchema = z.object({
  /** Relative to the data directory, so the note stays right when the directory moves. */
  originalPath: z.string(),
  reason: z.string(),
  movedAt: z.string(),
});

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    // Stryker disable next-line ArrowFunction: equivalent, the answer is only tested for being true.
    () => false,
  );
}

/** Moves `file` (inside `dataDir`) into the quarantine folder with a note; what was moved where. */
export async function quarantineFile(dataDir: string, file: string, reason: string, now: Date, writer = new DurableWriter()): Promise<QuarantinedFile> {
  const relative = path.relative(dataDir, file);
  let target = path.join(dataDir, QUARANTINE_DIR, relative);
  // The same name quarantined before (a post damaged twice) keeps both, the later one dated.
  if (await exists(target)) target = `${target}.${now.getTime()}`;
  await mkdir(path.dirname(target), { recursive: true });
  const movedAt = now.toISOString();
  // The note first: a crash between the two steps leaves the file in place, to be quarantined again.
  await writer.write(`${target}${NOTE_SUFFIX}`, `${JSON.stringify({ originalPath: relative, reason, movedAt }, null, 2)}\n`);
  await rename(file, target);
  return { file: target, originalFile: file, reason, movedAt };
}

/** Everything in the quarantine folder, oldest first, with the note of each (or what can be told without one). */
export async function listQuarantine(dataDir: string): Promise<QuarantinedFile[]> {
  const root = path.join(dataDir, QUARANTINE_DIR);
  let names: string[];
  try {
    names = await readdir(root, { recursive: true });
  } catch {
    return [];
  }
  const found: QuarantinedFile[] = [];
  for (const name of names.sort()) {
    const file = path.join(root, name);
    if (name.endsWith(NOTE_SUFFIX)) continue;
    // Stryker disable next-line ArrowFunction: equivalent, `info` is only read with `?.`.
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) continue;
    const note = await readFile(`${file}${NOTE_SUFFIX}`, 'utf8').then(
      (text) => noteSchema.safeParse(JSON.parse(text)),
      // Stryker disable next-line ArrowFunction: equivalent, `note` is only read with `?.`.
      () => null,
    ).catch(() => null);
    if (note?.success) {
      found.push({ file, originalFile: path.join(dataDir, note.data.originalPath), reason: note.data.reason, movedAt: note.data.movedAt });
    } else {
      found.push({ file, originalFile: path.join(dataDir, name), reason: 'unknown (its note is missing)', movedAt: info.mtime.toISOString() });
    }
  }
  return found.sort((a, b) => a.movedAt.localeCompare(b.movedAt));
}

/** The shell command that puts a quarantined file back, once repaired (then restart the server). */
export function restoreCommand(entry: QuarantinedFile): string {
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  return `mv ${quote(entry.file)} ${quote(entry.originalFile)}`;
}
