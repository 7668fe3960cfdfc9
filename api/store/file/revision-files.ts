/**
 * A post's earlier versions: `revisions/<id>.json`, newest first, at most REVISIONS_KEPT. Written
 * (durably) before the post's own file when a change keeps the version it replaces, so a crash
 * between the two leaves an extra kept version, never a lost one.
 */
import path from 'node:path';
import { REVISIONS_FORMAT, revisionsFileSchema, type StoredRevision } from '../records';
import { corruptFile } from '../store-error';
import { readJsonFile } from './json-file';

export const REVISIONS_DIR = 'revisions';

export function revisionsFile(revisionsDir: string, id: string): string {
  return path.join(revisionsDir, `${id}.json`);
}

export function revisionsText(postId: string, revisions: readonly StoredRevision[]): string {
  return JSON.stringify({ format: REVISIONS_FORMAT, postId, revisions }, null, 2);
}

/** The kept versions of a post, newest first; none when it has no file yet. */
export async function readRevisions(revisionsDir: string, id: string): Promise<StoredRevision[]> {
  const file = revisionsFile(revisionsDir, id);
  const stored = await readJsonFile(file, (raw) => revisionsFileSchema.safeParse(raw).data ?? null);
  if (stored === null) return [];
  if (stored.postId !== id) throw corruptFile(file, `it belongs to post ${stored.postId}`);
  return stored.revisions;
}
