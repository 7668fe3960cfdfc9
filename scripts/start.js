/**
 * `npm start`: builds when the build is missing or stale (that needs the devDependencies), then starts
 * the production server, build/app/server.js, with plain node. Stack traces name the TypeScript files.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './build-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
try {
  ensureBuild(root);
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(root, 'build/app/server.js')).href);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
