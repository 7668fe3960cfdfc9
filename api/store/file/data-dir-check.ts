/**
 * What `blogpost doctor` reports about a data directory, found without a server and without opening
 * every post: whether blog.json is sound, what was quarantined, which temporary files a crash left,
 * and whether the directories can be written (by writing and removing a probe file).
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { QuarantinedFile } from '../store';
import { StoreError } from '../store-error';
import { nodeFileSystem, tempFileFor, type WriterFileSystem } from './durable-writer';
import { KeyFile } from './key-file';
import { findLeftoverTemps } from './leftover-temps';
import { POSTS_DIR } from './post-files';
import { listQuarantine } from './quarantine';

export interface DataDirCheck {
  dataDir: string;
  /** False when there is no directory at all (nothing else is checked then). */
  exists: boolean;
  /** `ok`, `missing` (no store yet) or why blog.json is damaged. */
  keyFile: { state: 'ok' | 'missing' } | { state: 'damaged'; problem: string };
  /** Post files in posts/ (named, not opened). */
  postFiles: number;
  quarantined: QuarantinedFile[];
  leftoverTemps: string[];
  /** Null when both the directory and posts/ can be written, else why not. */
  notWritable: string | null;
}

/** Writes, fsyncs and removes a probe file (named like a temporary file, so a crash leaves nothing that counts). */
async function probeWrite(dir: string, fs: WriterFileSystem): Promise<void> {
  const probe = tempFileFor(path.join(dir, 'doctor-probe'));
  const handle = await fs.open(probe, 'wx');
  try {
    await handle.writeFile('probe');
    await handle.sync();
  } finally {
    await handle.close();
    await unlink(probe).catch(() => undefined);
  }
}

export async function checkDataDir(dataDir: string, fs: WriterFileSystem = nodeFileSystem): Promise<DataDirCheck> {
  const info = await stat(dataDir).catch(() => null);
  const postsDir = path.join(dataDir, POSTS_DIR);
  const empty: DataDirCheck = { dataDir, exists: false, keyFile: { state: 'missing' }, postFiles: 0, quarantined: [], leftoverTemps: [], notWritable: null };
  if (!info?.isDirectory()) return empty;

  let keyFile: DataDirCheck['keyFile'];
  try {
    const opened = await KeyFile.open(dataDir, { create: false, now: () => new Date() });
    keyFile = { state: opened ? 'ok' : 'missing' };
  } catch (error) {
    keyFile = { state: 'damaged', problem: error instanceof StoreError ? error.message : String(error) };
  }
  const names = await readdir(postsDir).catch(() => [] as string[]);
  const dirs = names.length > 0 || (await stat(postsDir).catch(() => null)) ? [dataDir, postsDir] : [dataDir];
  let notWritable: string | null = null;
  for (const dir of dirs) {
    try {
      await probeWrite(dir, fs);
    } catch (error) {
      notWritable ??= `${dir} cannot be written (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return {
    dataDir,
    exists: true,
    keyFile,
    postFiles: names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).length,
    quarantined: await listQuarantine(dataDir),
    leftoverTemps: await findLeftoverTemps(dirs),
    notWritable,
  };
}
