/**
 * A post's earlier versions: `revisions/<id>.json`, newest first, at most REVISIONS_KEPT. Written
 * (durably) before the post's own file when a change keeps the version it replaces, so a crash
 * between the two leaves an extra kept version, never a lost one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REVISIONS_FORMAT, revisionsFileSchema, type StoredRevision } from '../records';
import { corruptFile, errorCode, StoreError } from '../store-error';

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
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw new StoreError('unreadable', file, `Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw corruptFile(file, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = revisionsFileSchema.safeParse(raw);
  if (!parsed.success || parsed.data.postId !== id) throw corruptFile(file, parsed.success ? `it belongs to post ${parsed.data.postId}` : 'unexpected content');
  return parsed.data.revisions;
}
