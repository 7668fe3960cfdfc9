/** Where the store lives: DATA_DIR, or `data/` in the project folder (the server and the CLI agree). */
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root';

export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data');

export function resolveDataDir(env: Record<string, string | undefined>): string {
  const fromEnv = env.DATA_DIR?.trim();
  return path.resolve(fromEnv ? fromEnv : DEFAULT_DATA_DIR);
}
