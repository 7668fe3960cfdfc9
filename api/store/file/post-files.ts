/**
 * The post files: one JSON document per post in `posts/<id>.json`. Reads the whole directory at
 * start-up into index entries (everything but the bodies), telling apart the files that cannot be
 * used and why, and reads one post's body when a page asks for it.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type PostIndexEntry, type PostRecord, postRecordSchema } from '../records';
import { corruptFile, errorCode, StoreError } from '../store-error';
import { isTempFileName } from './durable-writer';

export const POSTS_DIR = 'posts';
export interface DamagedFile {
  file: string;
  reason: string;
}

export interface LoadedPosts {
  /** In creation order (ascending `seq`). */
  entries: PostIndexEntry[];
  damaged: DamagedFile[];
}

export function postFile(postsDir: string, id: string): string {
  return path.join(postsDir, `${id}.json`);
}

/** A post's file content, in lowdb's JSONFile format (indented by two spaces). */
export function postText(record: PostRecord): string {
  return JSON.stringify(record, null, 2);
}

function withoutContent(record: PostRecord): PostIndexEntry {
  const { content: _content, ...entry } = record;
  return entry;
}

/** The record in a post file's text, or why it cannot be used. */
function parsePost(text: string, name: string): PostRecord | string {
  if (text.trim().length === 0) return `the file is empty (${text.length} bytes), as a write cut off by a power loss leaves it`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  const parsed = postRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return `unexpected content at ${first ? `${first.path.join('.') || '(top level)'}: ${first.message}` : 'an unknown place'}`;
  }
  if (`${parsed.data.id}.json` !== name) return `its id "${parsed.data.id}" does not match the file name`;
  return parsed.data;
}

/** The names of the post files in the directory (temporary files excluded). */
export async function listPostFiles(postsDir: string): Promise<string[]> {
  return (await readdir(postsDir)).filter((name) => name.endsWith('.json') && !isTempFileName(name));
}

/**
 * Reads and checks these post files. Synchronous reads on purpose: this runs before the server
 * listens, and one blocking read costs a quarter of a round trip through the thread pool
 * (docs/decisions/0002-store-start-up.md).
 */
export function loadPosts(postsDir: string, names: readonly string[]): LoadedPosts {
  const entries: PostIndexEntry[] = [];
  const damaged: DamagedFile[] = [];
  for (const name of names) {
    const file = path.join(postsDir, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') continue;
      throw new StoreError('unreadable', file, `Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`, error);
    }
    const record = parsePost(text, name);
    if (typeof record === 'string') damaged.push({ file, reason: record });
    else entries.push(withoutContent(record));
  }
  return { entries, damaged };
}

/**
 * Puts entries in creation order and sets aside all but the oldest of posts sharing a slug (its
 * links were out first).
 */
export function orderPosts(postsDir: string, loaded: LoadedPosts): LoadedPosts {
  const entries = [...loaded.entries].sort((a, b) => a.seq - b.seq);
  const damaged = [...loaded.damaged];
  const bySlug = new Map<string, PostIndexEntry>();
  const kept = entries.filter((entry) => {
    const holder = bySlug.get(entry.slug);
    if (!holder) {
      bySlug.set(entry.slug, entry);
      return true;
    }
    damaged.push({ file: postFile(postsDir, entry.id), reason: `its slug "${entry.slug}" is also used by the older post ${postFile(postsDir, holder.id)}` });
    return false;
  });
  return { entries: kept, damaged };
}

/** One post with its body; null when its file is gone; a StoreError when it cannot be read. */
export async function readPost(postsDir: string, id: string): Promise<PostRecord | null> {
  const file = postFile(postsDir, id);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw new StoreError('unreadable', file, `Cannot read ${file} (${error instanceof Error ? error.message : String(error)}).`, error);
  }
  const record = parsePost(text, path.basename(file));
  if (typeof record === 'string') throw corruptFile(file, record);
  return record;
}
