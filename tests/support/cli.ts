/**
 * Runs `blogpost` for a test, with its output and exit code, two ways:
 * - `blogpost()`: the CLI's `run(argv, io)` (cli/main.ts, the entry `cli/bin.js` calls) in the test's own
 *   process, with standard output and error captured, standard input given, and the environment and
 *   working folder of a fresh process (NO_COLOR, no BLOGPOST_URL or BLOGPOST_API_KEY inherited). What a
 *   command prints, stores and returns is the same as a real process's; it costs milliseconds instead of
 *   the half second a Node process takes to start and load the CLI (decision 0013).
 * - `blogpostProcess()`: the `blogpost` bin as a real process (as `npx blogpost` does), for the tests
 *   about the process itself: several CLI processes beside a server, the bin's build check and exit code.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { run } from '../../cli/main';
import type { CliIO } from '../../cli/io';
import { ROOT } from './server';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  input?: string;
  cwd?: string;
}

/** The environment a test's `blogpost` starts with: the test's own, without colour or a default server and key. */
function cliEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return { ...process.env, NO_COLOR: '1', BLOGPOST_URL: '', BLOGPOST_API_KEY: '', ...extra };
}

/** A stream that keeps what a command writes to it, as the bytes a pipe would carry. */
function captured(): { stream: CliIO['stdout']; text: () => string } {
  const chunks: Buffer[] = [];
  return {
    stream: { write: (chunk: string | Uint8Array) => chunks.push(Buffer.from(chunk)) },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

export async function blogpost(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const stdout = captured();
  const stderr = captured();
  // Standard input as a pipe that holds the given text and then ends, as a spawned process's does.
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  const io: CliIO = {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin,
    env: cliEnv(options.env),
    cwd: options.cwd ?? ROOT,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const code = await run(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

export function blogpostProcess(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin.js'), ...args], {
      cwd: options.cwd ?? ROOT,
      env: cliEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
