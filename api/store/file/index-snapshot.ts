/**
 * The post index snapshot, `DATA_DIR/posts-index.json`: written (durably) when a store closes, read at
 * the next start instead of every post file (docs/decisions/0002-store-start-up.md). It is a cache,
 * never the truth: it is used only when posts/ has the modification time it recorded and holds
 * exactly the files it lists; after a crash, or anything else touching posts/, the start reads every
 * file as before. A damaged snapshot is ignored, never fatal.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { INDEX_SNAPSHOT_FORMAT, indexSnapshotSchema, type IndexSnapshot, type PostIndexEntry } from '../records';
import type { DurableWriter } from './durable-writer';

export const INDEX_SNAPSHOT_FILE = 'posts-index.json';

/** The snapshot's entries when it describes posts/ as it is now (`names`: its post files), else null. */
export async function readIndexSnapshot(dataDir: string, postsDir: string, names: readonly string[]): Promise<PostIndexEntry[] | null> {
  let snapshot: IndexSnapshot;
  try {
    const [text, postsInfo] = await Promise.all([readFile(path.join(dataDir, INDEX_SNAPSHOT_FILE), 'utf8'), stat(postsDir)]);
    snapshot = indexSnapshotSchema.parse(JSON.parse(text));
    if (snapshot.postsDirMtimeMs !== postsInfo.mtimeMs) return null;
  } catch {
    return null;
  }
  if (snapshot.entries.length !== names.length) return null;
  const listed = new Set(names);
  for (const entry of snapshot.entries) if (!listed.has(`${entry.id}.json`)) return null;
  return snapshot.entries;
}

/** Writes the snapshot of `entries`, which must be every post in posts/ with no write under way. */
export async function writeIndexSnapshot(dataDir: string, postsDir: string, entries: readonly PostIndexEntry[], writer: DurableWriter): Promise<void> {
  const { mtimeMs } = await stat(postsDir);
  const snapshot: IndexSnapshot = { format: INDEX_SNAPSHOT_FORMAT, version: 1, postsDirMtimeMs: mtimeMs, entries: [...entries] };
  await writer.write(path.join(dataDir, INDEX_SNAPSHOT_FILE), JSON.stringify(snapshot));
}
