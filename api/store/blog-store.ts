/**
 * Opens the data directory: `blog.json` (format marker, API key hashes) and `posts/` (one document per
 * post). Everything the routes, the CLI and the site know about persistence goes through what this returns.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { KeyStore, MANIFEST_FILE } from './key-store';
import { POSTS_DIR, PostStore } from './post-store';
import { unwritable } from './store-error';

export interface BlogStore {
  dataDir: string;
  keys: KeyStore;
  posts: PostStore;
  /** True when this open created the store (an empty data directory). */
  created: boolean;
  /** Resolves once every queued write is on disk. */
  flush(): Promise<void>;
}

export interface OpenStoreOptions {
  now?: () => Date;
}

async function ensureDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw unwritable(dir, error);
  }
}

/** Opens (creating when empty) the whole store; throws a StoreError with an operator-readable message. */
export async function openBlogStore(dataDir: string, options: OpenStoreOptions = {}): Promise<BlogStore> {
  const now = options.now ?? (() => new Date());
  await ensureDir(dataDir);
  const keys = await KeyStore.open(path.join(dataDir, MANIFEST_FILE), now);
  const posts = await PostStore.open(path.join(dataDir, POSTS_DIR), now);
  return {
    dataDir,
    keys,
    posts,
    created: keys.created,
    flush: async () => {
      await Promise.all([keys.flush(), posts.flush()]);
    },
  };
}

/** Opens only the keys (what `blogpost keys` needs), creating the data directory when asked to. */
export async function openKeyStore(dataDir: string, options: OpenStoreOptions & { create: boolean }): Promise<KeyStore | null> {
  const now = options.now ?? (() => new Date());
  if (options.create) await ensureDir(dataDir);
  else if (!existsSync(path.join(dataDir, MANIFEST_FILE))) return null;
  return KeyStore.open(path.join(dataDir, MANIFEST_FILE), now);
}
