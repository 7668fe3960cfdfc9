/**
 * The request log's embedded reader, over the daily files of file-writer.ts: finds entries by key,
 * status, code, time, request id and client, follows new ones as they are written (by polling the
 * day's file, which works the same on every platform), and says how far back the log goes.
 */
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { dayOfLogFile, requestLogDir, requestLogFile } from './log-files';
import { matchesQuery, parseEntry, type RequestLogEntry, type RequestLogExtent, type RequestLogQuery, type RequestLogReader } from './request-log';

const FOLLOW_INTERVAL_MS = 250;

async function logDays(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names.flatMap((name) => dayOfLogFile(name) ?? []).sort();
}

async function entriesOf(file: string): Promise<RequestLogEntry[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text.split('\n').flatMap((line) => parseEntry(line) ?? []);
}

async function sizeOf(file: string): Promise<number> {
  return (await stat(file).catch(() => null))?.size ?? 0;
}

/** The bytes of `file` from `offset` on. */
async function readFrom(file: string, offset: number): Promise<Buffer> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return Buffer.alloc(0);
  try {
    const { size } = await handle.stat();
    if (size <= offset) return Buffer.alloc(0);
    const buffer = Buffer.alloc(size - offset);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

class FileRequestLogReader implements RequestLogReader {
  readonly #dir: string;
  readonly #now: () => Date;

  constructor(dir: string, now: () => Date) {
    this.#dir = dir;
    this.#now = now;
  }

  async find(query: RequestLogQuery): Promise<RequestLogEntry[]> {
    const sinceDay = query.since?.toISOString().slice(0, 10);
    const days = (await logDays(this.#dir)).filter((day) => sinceDay === undefined || day >= sinceDay);
    const found: RequestLogEntry[] = [];
    for (const day of days) {
      for (const entry of await entriesOf(requestLogFile(this.#dir, day))) if (matchesQuery(entry, query)) found.push(entry);
    }
    return query.limit !== undefined && found.length > query.limit ? found.slice(found.length - query.limit) : found;
  }

  async follow(query: RequestLogQuery, onEntry: (entry: RequestLogEntry) => void, signal: AbortSignal): Promise<void> {
    let day = this.#now().toISOString().slice(0, 10);
    let offset = await sizeOf(requestLogFile(this.#dir, day));
    let partial = '';
    const drain = async () => {
      const bytes = await readFrom(requestLogFile(this.#dir, day), offset);
      offset += bytes.length;
      const lines = (partial + bytes.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const entry = parseEntry(line);
        if (entry && matchesQuery(entry, query)) onEntry(entry);
      }
    };
    while (!signal.aborted) {
      await drain();
      const today = this.#now().toISOString().slice(0, 10);
      if (today !== day) {
        day = today;
        offset = 0;
        partial = '';
        continue;
      }
      await sleep(FOLLOW_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
    }
  }

  async extent(): Promise<RequestLogExtent> {
    const days = await logDays(this.#dir);
    let oldest: string | null = null;
    for (const day of days) {
      oldest = (await entriesOf(requestLogFile(this.#dir, day)))[0]?.time ?? null;
      if (oldest) break;
    }
    let newest: string | null = null;
    for (const day of [...days].reverse()) {
      newest = (await entriesOf(requestLogFile(this.#dir, day))).at(-1)?.time ?? null;
      if (newest) break;
    }
    return { location: this.#dir, oldest, newest };
  }
}

export function openFileRequestLogReader(dataDir: string, now: () => Date = () => new Date()): RequestLogReader {
  return new FileRequestLogReader(requestLogDir(dataDir), now);
}

