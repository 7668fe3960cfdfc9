/**
 * Decides whether the production build is missing or stale, and makes it when it is: a hash of every
 * input of the build (the site, the server and CLI bundle, public files, build configs, lock file) and
 * of the environment that shapes the site's routes. Plain JavaScript, so that `npm start` and the
 * `blogpost` bin can check the build with plain node before anything is built.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = [
  'api',
  'cli',
  'contract',
  'harness',
  'web',
  'public',
  'docs/examples',
  'fixtures',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'react-router.config.ts',
  'vite.config.ts',
  'vite.server.config.ts',
  'vite.cli.config.ts',
  'scripts/vite-inline-script.ts',
];
const BUILD_ENV = ['SITE_PRODUCT_SLUG'];
/** Tests sit beside their code but are never built: editing one does not make the build stale. */
const NOT_BUILT = /\.test\.tsx?$/;

/** What the build makes; all of it must exist for the build to count as present. */
export const BUILD_OUTPUTS = ['build/server/index.js', 'build/client', 'build/app/server.js', 'build/app/cli.js'];

function files(root, entry) {
  const full = path.join(root, entry);
  const stat = statSync(full, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return NOT_BUILT.test(entry) ? [] : [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, path.join(entry, name)));
}

/** The hash of the build's inputs as they are now. */
export function computeBuildStamp(root, env = process.env) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(root, entry))) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  for (const name of BUILD_ENV) hash.update(`${name}=${env[name] ?? ''}\0`);
  return hash.digest('hex');
}

function stampFile(root) {
  return path.join(root, 'build', '.build-stamp');
}

/** Records which inputs the build just made was made from. */
export function writeBuildStamp(root) {
  writeFileSync(stampFile(root), `${computeBuildStamp(root)}\n`);
}

export function isBuildPresent(root) {
  return BUILD_OUTPUTS.every((output) => existsSync(path.join(root, output)));
}

export function isBuildFresh(root) {
  const stamp = stampFile(root);
  if (!existsSync(stamp) || !isBuildPresent(root)) return false;
  return readFileSync(stamp, 'utf8').trim() === computeBuildStamp(root);
}

/** Whether the build tools (devDependencies) are installed: a production install has none. */
export function canBuild(root) {
  return existsSync(path.join(root, 'node_modules', '.bin', 'react-router')) && existsSync(path.join(root, 'node_modules', '.bin', 'vite'));
}

const LOCK_STALE_MS = 5 * 60_000;

/** Holds a lock directory while building, so two test runs never write the build at once. */
function withBuildLock(root, work) {
  const lock = path.join(root, '.build.lock');
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS || Date.now() > deadline) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function runBuildStep(root, bin, args) {
  // Always a production build: under vitest NODE_ENV is "test", which would bundle React's
  // development builds into the client.
  const result = spawnSync(path.join(root, 'node_modules', '.bin', bin), args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`The build failed (${bin} ${args.join(' ')}: exit code ${result.status ?? 'none'}); see the output above.`);
}

/** The whole build (what `npm run build` runs): the site, then the server bundle and the CLI bundle, then the stamp. */
export function build(root) {
  runBuildStep(root, 'react-router', ['build']);
  runBuildStep(root, 'vite', ['build', '--config', 'vite.server.config.ts']);
  runBuildStep(root, 'vite', ['build', '--config', 'vite.cli.config.ts']);
  writeBuildStamp(root);
}

/** Builds unless the current build already matches its inputs. */
export function ensureBuild(root, log = console.log) {
  if (isBuildFresh(root)) return;
  if (!canBuild(root)) {
    // A production install (no devDependencies) runs the build it was given, even if it is older.
    if (isBuildPresent(root)) {
      log('Warning: the build is older than its sources and the build tools are not installed; running the existing build (`npm run build` where devDependencies are installed makes a new one).');
      return;
    }
    throw new Error('There is no build and the build tools are not installed: run `npm ci` (with devDependencies) and `npm run build`.');
  }
  withBuildLock(root, () => {
    if (isBuildFresh(root)) return; // another process built it while we waited
    log('Building the site and the server (the build is missing or older than its sources)...');
    build(root);
  });
}
