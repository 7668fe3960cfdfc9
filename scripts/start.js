/**
 * `npm start`: builds when the build is missing or stale (that needs the devDependencies), then starts
 * the production server, build/app/server.js, with plain node and NODE_ENV=production unless it is set.
 * Stack traces name the TypeScript files.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuild } from './build-stamp.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// React (and the libraries that follow it) pick their production build by NODE_ENV when first loaded:
// unset, the server renders with React's development build, which served uncached pages at about 60% of
// the rate (issue 39). Set before the server's modules load; an operator's own value is kept.
if (!process.env.NODE_ENV) process.env.NODE_ENV = 'production';
try {
  ensureBuild(root);
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(path.join(root, 'build/app/server.js')).href);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
