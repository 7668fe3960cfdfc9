/** `npm run build`: the site, the server and CLI bundle, and the stamp that says what they were built from. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build-stamp.js';

try {
  build(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
