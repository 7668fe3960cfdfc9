#!/usr/bin/env node
// The `blogpost` executable: runs the built CLI (build/app/cli.js) with plain node and sets the exit
// code. In a checkout whose build is missing or older than its sources, it runs the TypeScript sources
// through tsx (a devDependency) instead, so an edit shows without a rebuild.
import { existsSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isBuildFresh } from '../scripts/build-stamp.js';

// A reader that stops early (`blogpost --help | head -1`) closes the pipe: that ends the output, not
// the command with an error. Exit quietly with 0 instead of crashing on EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error?.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

// Node 22.1+ keeps the compiled code of the modules it loads in the system's temporary folder, so
// each later run skips compiling them (Node 20 has no such cache: nothing happens there).
module.enableCompileCache?.();

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'build/app/cli.js');

// No source maps by default (decision 0035): the CLI prints messages, not stacks, and
// `NODE_OPTIONS=--enable-source-maps blogpost ...` maps a crash's stack to the TypeScript.
function importBuilt() {
  return import(pathToFileURL(built).href);
}

async function loadCli() {
  if (isBuildFresh(root)) return importBuilt();
  let tsx;
  try {
    tsx = await import('tsx/esm/api');
  } catch (error) {
    // A production install has no devDependencies: it runs the build it was given.
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
  if (tsx) return tsx.tsImport('./main.ts', import.meta.url);
  if (existsSync(built)) return importBuilt();
  return null;
}

const cli = await loadCli();
if (cli) process.exitCode = await cli.run(process.argv.slice(2));
else {
  console.error('blogpost: there is no build (build/app/cli.js) and tsx is not installed: run `npm ci` and `npm run build`.');
  process.exitCode = 4; // ExitCode.Local: a local problem
}
