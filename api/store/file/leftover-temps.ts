/**
 * Temporary files a crash left between writing and renaming (see durable-writer.ts): never a
 * complete post (the rename is what makes one), so they are removed at start-up and reported by
 * `blogpost doctor`.
 */
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { isTempFileName } from './durable-writer';

/** The leftover temporary files in these directories (missing directories have none). */
export async function findLeftoverTemps(dirs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) if (isTempFileName(name)) found.push(path.join(dir, name));
  }
  return found;
}

/** Removes them; how many there were. Only at start-up: a running server's own temp files are in use. */
export async function removeLeftoverTemps(dirs: readonly string[]): Promise<number> {
  const found = await findLeftoverTemps(dirs);
  await Promise.all(found.map((file) => unlink(file).catch(() => undefined)));
  return found.length;
}
