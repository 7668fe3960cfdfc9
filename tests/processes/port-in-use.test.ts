/**
 * The production command (`npm start`: node scripts/start.js on the built server) on a port another
 * process holds: one clear line naming the port and what to do, exit code 1, no stack trace.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir, ROOT } from '../support/server';

const dataDir = makeTempDir('iul-port-');
let holder: Server;
let port: number;

beforeAll(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  port = (holder.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', SEED_DEMO_CONTENT: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server neither started nor stopped:\n${output}`));
    }, 60_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

it('says the port is in use in one line and exits 1', async () => {
  const run = await start({ PORT: String(port), HOST: '127.0.0.1' });
  expect(run.code).toBe(1);
  const errorLines = run.output.split('\n').filter((line) => line.includes(`Port ${port}`));
  expect(errorLines).toEqual([`Port ${port} is in use on 127.0.0.1: stop the other server or set PORT=<another port> (PORT=0 picks a free one).`]);
  expect(run.output).not.toMatch(/\n\s+at /);
  expect(run.output).not.toContain('EADDRINUSE');
  expect(run.output).not.toContain('Site and API on');
}, 90_000);
