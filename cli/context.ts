/**
 * What commands share: the IO, output helpers, the exit code the command settles on, and how the
 * server URL, key, input files and the harness state file are found.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { StateStore } from '../harness/types';
import { CliError, ExitCode } from './exit-codes';
import type { CliIO } from './io';
import { type Output } from './output';

export interface CommandContext {
  io: CliIO;
  out: Output;
  /** Records the command's exit code (the bin sets process.exitCode from it). */
  exit: (code: ExitCode) => void;
}

export interface ConnectionOptions {
  url?: string;
  key?: string;
}

/**
 * Time limits for every request the CLI sends (undici's dispatcher behind Node's fetch); `--timeout`
 * sets them. undici is loaded here, by the commands that send requests, not by every run.
 */
export async function configureHttp(timeoutSeconds = 30): Promise<void> {
  const { Agent, setGlobalDispatcher } = await import('undici');
  const ms = timeoutSeconds * 1000;
  setGlobalDispatcher(new Agent({ connectTimeout: Math.min(ms, 10_000), headersTimeout: ms, bodyTimeout: ms }));
}

export function resolveUrl(options: ConnectionOptions, io: CliIO): string {
  const raw = options.url ?? io.env.BLOGPOST_URL;
  if (!raw) throw new CliError('No server URL: pass --url https://your-site or set BLOGPOST_URL.', ExitCode.Usage);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`"${raw}" is not a URL: pass the site's origin, e.g. --url https://your-site.`, ExitCode.Usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`The URL must start with http:// or https://, not ${url.protocol}`, ExitCode.Usage);
  }
  return url.origin;
}

export function resolveKey(options: ConnectionOptions, io: CliIO): string | undefined {
  const key = options.key ?? io.env.BLOGPOST_API_KEY;
  return key?.trim() ? key.trim() : undefined;
}

/** Reads a file, or standard input for "-". */
export async function readInput(file: string, io: CliIO): Promise<{ text: string; name?: string }> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return { text: Buffer.concat(chunks).toString('utf8') };
  }
  const full = path.resolve(io.cwd, file);
  try {
    return { text: readFileSync(full, 'utf8'), name: full };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new CliError(`Cannot read ${file}: ${why}.`, ExitCode.Local);
  }
}

/** The harness state as a JSON file (BLOGPOST_STATE_FILE, default ~/.config/blogpost/state.json). */
export function fileState(io: CliIO): StateStore {
  const file = io.env.BLOGPOST_STATE_FILE ?? path.join(homedir(), '.config', 'blogpost', 'state.json');
  const load = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const save = (data: Record<string, string>) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  };
  return {
    get: (key) => load()[key] ?? null,
    set: (key, value) => save({ ...load(), [key]: value }),
    remove: (key) => {
      const data = load();
      if (key in data) save(Object.fromEntries(Object.entries(data).filter(([name]) => name !== key)));
    },
  };
}
