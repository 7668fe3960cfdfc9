/** The CLI's connection to the world, injected so every command runs in a test without a terminal. */
import type { Readable } from 'node:stream';

export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIO {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: Readable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Waits between retries (tests make it instant). */
  sleep: (ms: number) => Promise<void>;
}

export function processIO(): CliIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Node sets standard input up when process.stdin is first touched: a command that reads none (--help) never does.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}

/** A person can answer a question: standard input and standard error are both a terminal. */
export function isInteractive(io: CliIO): boolean {
  return io.stdin.isTTY === true && io.stderr.isTTY === true;
}

/** Asks on stderr and reads one line from stdin; only "y" or "yes" is a yes. */
export async function askYesNo(io: CliIO, question: string): Promise<boolean> {
  io.stderr.write(`${question} [y/N] `);
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}

/** Aborted by Ctrl-C or SIGTERM to this process (the end of `logs tail`, not an error). */
export function interruption(): AbortSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  controller.signal.addEventListener('abort', () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
  return controller.signal;
}
