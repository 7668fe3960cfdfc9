/** `npm start`: builds when the build is missing or stale, then starts the production server. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from './build-stamp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  ensureBuild(root);
  await import('../api/main');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
