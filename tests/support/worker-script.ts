/**
 * Worker scripts for the tests of the request threads, each in a temporary file with `parentPort` in
 * scope; removeWorkerScripts() deletes them (call it after each test).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dirs: string[] = [];

export function workerScript(body: string): URL {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-worker-'));
  dirs.push(dir);
  const file = path.join(dir, 'worker.mjs');
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\n${body}`);
  return pathToFileURL(file);
}

export function removeWorkerScripts(): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
