/** The CLI's connection to the world, injected so every command runs in a test without a terminal. */
import type { Readable } from 'node:stream';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: Readable;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Waits between retries (tests make it instant). */
  sleep: (ms: number) => Promise<void>;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
