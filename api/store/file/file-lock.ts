/**
 * A lock between processes on one data directory (the server and `blogpost keys`), so a
 * read-modify-write of blog.json by one never loses the other's change. `mkdir` is atomic on every
 * local file system: whoever creates the lock directory holds the lock. A holder that died (SIGKILL)
 * leaves it behind; a lock older than `staleMs` is taken over. (proper-lockfile works the same way;
 * this is the part of it we need, without a dependency.)
 */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { errorCode } from '../store-error';

export interface FileLockOptions {
  /** A lock untouched this long belongs to a dead process. Locks are held for one small write. */
  staleMs?: number;
  /** Give up waiting after this long. */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function acquire(lockDir: string, staleMs: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      await mkdir(lockDir);
      return;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const info = await stat(lockDir).catch(() => null);
    if (info && Date.now() - info.mtimeMs > staleMs) {
      // Two waiters may both see it stale: only one rmdir succeeds, and both go back to mkdir.
      await rmdir(lockDir).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) throw Object.assign(new Error(`the lock ${lockDir} is held by another process`), { code: 'ELOCKED' });
    await sleep(wait);
  }
}

/** Runs `task` holding the lock `lockDir`. */
export async function withFileLock<T>(lockDir: string, task: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  await acquire(lockDir, options.staleMs ?? 10_000, options.timeoutMs ?? 10_000);
  try {
    return await task();
  } finally {
    await rmdir(lockDir).catch(() => undefined);
  }
}
