/** Runs the `blogpost` bin as a real process (as `npx blogpost` does), with its output and exit code. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './server';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function blogpost(args: readonly string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin.js'), ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', BLOGPOST_URL: '', BLOGPOST_API_KEY: '', ...options.env },
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
