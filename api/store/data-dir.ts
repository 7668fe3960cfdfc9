/** Where the store lives: DATA_DIR, or `data/` in the project folder (the server and the CLI agree). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data');

export function resolveDataDir(env: Record<string, string | undefined>): string {
  const fromEnv = env.DATA_DIR?.trim();
  return path.resolve(fromEnv ? fromEnv : DEFAULT_DATA_DIR);
}
