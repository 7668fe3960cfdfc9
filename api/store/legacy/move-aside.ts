/**
 * After an import, the file store's files move out of the way into a dated folder in DATA_DIR
 * (`file-store-YYYY-MM-DD/`), never deleted: the operator removes the folder once they have checked the
 * site. What stays where it is: the images' bytes in media/files/ (the SQL store serves them from
 * there), the database (store.sqlite*), the request log (logs/) and anything this code does not know.
 *
 * A small progress file, `file-store-import.json`, is written before the import's first write and
 * removed once every old file has moved: a start that finds it finishes what an interrupted start began
 * (the import resumes, or only the move does), instead of serving half of the data.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { isTempFileName, LEGACY_FILES } from './file-store-reader';

/** The progress file of an import under way (or stopped), in DATA_DIR. */
export const IMPORT_PROGRESS_FILE = 'file-store-import.json';

const progressSchema = z.object({
  format: z.literal('blogpost-file-store-import'),
  startedAt: z.string(),
  /** Set once every record is imported and checked: the folder the old files are moving to. */
  movingTo: z.string().nullable(),
});
export type ImportProgress = z.infer<typeof progressSchema>;

/** Top-level files and folders of the file store that move (media/ is handled apart: only its records move). */
const MOVED_ENTRIES = [
  LEGACY_FILES.posts,
  LEGACY_FILES.revisions,
  LEGACY_FILES.leads,
  LEGACY_FILES.outbox,
  LEGACY_FILES.sessions,
  LEGACY_FILES.audit,
  LEGACY_FILES.quarantine,
  LEGACY_FILES.indexSnapshot,
  LEGACY_FILES.staff,
  `${LEGACY_FILES.staff}.lock`,
  `${LEGACY_FILES.manifest}.lock`,
  // The format marker last: while it is in place, the directory still reads as the file store's.
  LEGACY_FILES.manifest,
];

/** The progress of an import that stopped, or null (none under way, or its file is unreadable). */
export function readProgress(dataDir: string): ImportProgress | null {
  try {
    const parsed = progressSchema.safeParse(JSON.parse(readFileSync(path.join(dataDir, IMPORT_PROGRESS_FILE), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the progress file durably (temp file, fsync, rename, fsync of DATA_DIR). */
export async function writeProgress(dataDir: string, progress: ImportProgress): Promise<void> {
  const file = path.join(dataDir, IMPORT_PROGRESS_FILE);
  const temp = path.join(dataDir, `.${IMPORT_PROGRESS_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    await handle.writeFile(`${JSON.stringify(progress, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncFolder(dataDir);
}

/** Removes the progress file: the import and the move are done. */
export async function endProgress(dataDir: string): Promise<void> {
  await unlink(path.join(dataDir, IMPORT_PROGRESS_FILE)).catch(() => undefined);
  await syncFolder(dataDir);
}

/** `DATA_DIR/file-store-YYYY-MM-DD` (UTC), or with `-2`, `-3` ... when that name is taken: never an existing folder. */
export function datedFolder(dataDir: string, now: Date): string {
  const base = path.join(dataDir, `file-store-${now.toISOString().slice(0, 10)}`);
  if (!existsSync(base)) return base;
  for (let n = 2; ; n++) if (!existsSync(`${base}-${n}`)) return `${base}-${n}`;
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The old files still in DATA_DIR, as [from, to] pairs into `folder`: the known entries, temporary
 * files an interrupted write of the file store left at the top, and media/'s records (not media/files/).
 */
function oldFiles(dataDir: string, folder: string): Array<[string, string]> {
  const top = namesIn(dataDir);
  const names = [...top.filter((name) => isTempFileName(name) && !name.startsWith(`.${IMPORT_PROGRESS_FILE}.`)), ...MOVED_ENTRIES.filter((name) => top.includes(name))];
  const moves = names.map((name): [string, string] => [path.join(dataDir, name), path.join(folder, name)]);
  const mediaDir = path.join(dataDir, LEGACY_FILES.media);
  for (const name of namesIn(mediaDir)) {
    if (name.endsWith('.json') || (isTempFileName(name) && name.includes('.json.'))) moves.push([path.join(mediaDir, name), path.join(folder, LEGACY_FILES.media, name)]);
  }
  return moves;
}

/** True when DATA_DIR holds a file of the file store that would move. */
export function hasOldFiles(dataDir: string): boolean {
  return oldFiles(dataDir, dataDir).length > 0;
}

/** Moves the old files into `folder` (made when missing); how many entries moved. Renames only: nothing is copied or deleted. */
export async function moveOldFiles(dataDir: string, folder: string): Promise<number> {
  const moves = oldFiles(dataDir, folder);
  mkdirSync(path.join(folder, LEGACY_FILES.media), { recursive: true });
  for (const [from, to] of moves) {
    // A name already there (a move that stopped halfway, then a file of that name made again) keeps both.
    await rename(from, existsSync(to) ? `${to}.${Date.now()}` : to);
  }
  await syncFolder(folder);
  await syncFolder(path.join(folder, LEGACY_FILES.media));
  await syncFolder(path.join(dataDir, LEGACY_FILES.media)).catch(() => undefined);
  await syncFolder(dataDir);
  return moves.length;
}
