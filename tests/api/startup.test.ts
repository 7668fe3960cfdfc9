/**
 * The real entry point as a process: the first start on an empty data directory creates the store and
 * the demo key and prints its secret once; a later start prints no secret; a corrupt data file stops
 * the start with a clear message, exit code 1 and the file untouched.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { checkApiKey } from '../../api/contract/keys';
import { DEFAULT_SITE_CONFIG } from '../../web/content/site-config';
import { makeTempDir, ROOT } from '../support/server';

const dataDir = makeTempDir('iul-startup-');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  output: string;
  code: number | null;
}

/** Starts api/main.ts; resolves once it listens (then stops it) or once it exits by itself. */
function runServer(): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start in time:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Site and API on http://')) child.kill('SIGTERM');
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}

const KEY_LINE = /^\s+(bpk_\S+)\s*$/m;

it('creates the demo key on the first start only, printing its secret once', async () => {
  const first = await runServer();
  expect(first.output).toContain(`Created the demo API key "${DEFAULT_SITE_CONFIG.demoKeyName}"`);
  const secret = KEY_LINE.exec(first.output)?.[1] ?? '';
  expect(checkApiKey(secret).ok).toBe(true);
  const manifest = JSON.parse(readFileSync(path.join(dataDir, 'blog.json'), 'utf8')) as { keys: { name: string; permissions: string[] }[] };
  expect(manifest.keys).toEqual([expect.objectContaining({ name: DEFAULT_SITE_CONFIG.demoKeyName, permissions: ['blog:write'] })]);

  const second = await runServer();
  expect(second.output).toContain('Site and API on http://');
  expect(second.output).not.toContain('demo API key');
  expect(second.output).not.toMatch(KEY_LINE);
}, 120_000);

it('refuses to start on a corrupt data file, says why, and leaves the file as it was', async () => {
  const file = path.join(dataDir, 'blog.json');
  const damaged = '{"format": "blogpost-store", "keys": [ {"id": ';
  writeFileSync(file, damaged);
  const run = await runServer();
  expect(run.code).toBe(1);
  expect(run.output).toContain(`The data file ${file} is damaged`);
  expect(run.output).toContain('left untouched');
  expect(run.output).not.toContain('Site and API on');
  expect(run.output).not.toMatch(/\n\s+at /);
  expect(readFileSync(file, 'utf8')).toBe(damaged);
}, 120_000);
