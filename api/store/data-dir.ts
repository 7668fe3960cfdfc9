/** Where the store lives: DATA_DIR, or `data/` in the project folder (the server and the CLI agree). */
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root';

export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data');

/** The SQLite database's file name in a data directory. */
export const DATABASE_FILE = 'store.sqlite';
/** Where uploaded images' variants live in a data directory (content-addressed files; their records are in the database). */
export const MEDIA_DIR = path.join('media', 'files');

/** The SQLite file of a data directory. */
export function databaseFileOf(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

export function resolveDataDir(env: Record<string, string | undefined>): string {
  const fromEnv = env.DATA_DIR?.trim();
  return path.resolve(fromEnv ? fromEnv : DEFAULT_DATA_DIR);
}
