/**
 * The production server as its own process (`node scripts/start.js`, what `npm start` runs), for the
 * tests that must kill it (SIGKILL mid-write) or run two of it: started on 127.0.0.1 on a free port, and
 * found listening by its "Site and API on" line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { ROOT } from './server';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it has printed so far, stdout and stderr together. */
  output: () => string;
}

/** Starts the server with `env` over the test's own environment; resolves once it listens, rejects if it exits first or takes over a minute. */
export function startServerProcess(env: Record<string, string>, name = 'the server'): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Site and API on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before listening:\n${output}`));
    });
  });
}

/** Resolves when the process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}
