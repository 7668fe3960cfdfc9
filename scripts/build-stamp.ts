/**
 * Decides whether the production build is missing or stale: a hash of every input of the web build
 * (sources, public files, build config, lock file) and of the environment that shapes its routes.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['web', 'contract', 'public', 'docs/examples', 'fixtures', 'react-router.config.ts', 'vite.config.ts', 'package-lock.json'];
const BUILD_ENV = ['SITE_PRODUCT_SLUG'];

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, path.join(entry, name)));
}

export function computeBuildStamp(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((entry) => files(root, entry))) {
    hash.update(file).update('\0').update(readFileSync(path.join(root, file))).update('\0');
  }
  for (const name of BUILD_ENV) hash.update(`${name}=${env[name] ?? ''}\0`);
  return hash.digest('hex');
}

function stampFile(root: string): string {
  return path.join(root, 'build', '.build-stamp');
}

export function isBuildFresh(root: string): boolean {
  const stamp = stampFile(root);
  if (!existsSync(stamp) || !existsSync(path.join(root, 'build/server/index.js'))) return false;
  return readFileSync(stamp, 'utf8').trim() === computeBuildStamp(root);
}

const LOCK_STALE_MS = 5 * 60_000;

/** Holds a lock directory while building, so two test runs never write the build at once. */
function withBuildLock(root: string, work: () => void): void {
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

/** Builds with React Router's CLI unless the current build already matches its inputs. */
export function ensureBuild(root: string, log: (line: string) => void = console.log): void {
  if (isBuildFresh(root)) return;
  withBuildLock(root, () => {
    if (isBuildFresh(root)) return; // another process built it while we waited
    log('Building the site (the build is missing or older than its sources)...');
    const bin = path.join(root, 'node_modules', '.bin', 'react-router');
    // Always a production build: under vitest NODE_ENV is "test", which would bundle React's
    // development builds into the client.
    const result = spawnSync(bin, ['build'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    if (result.status !== 0) throw new Error(`The build failed (exit code ${result.status ?? 'none'}); see the output above.`);
    writeFileSync(stampFile(root), `${computeBuildStamp(root)}\n`);
  });
}
