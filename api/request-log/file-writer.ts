/**
 * The request log's embedded writer: pino, writing asynchronously (sonic-boom) to one JSON-lines file a
 * day, `DATA_DIR/logs/requests-YYYY-MM-DD.jsonl` (UTC date). A failed write never fails a request: the
 * first one is reported to the server's logger. Files older than the retention are deleted at start and
 * then daily.
 */
import { mkdirSync, openSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import pino, { type Logger as Pino } from 'pino';
import { dayOfLogFile, requestLogDir, requestLogFile } from './log-files';
import type { RequestLogEntry, RequestLogWriter } from './request-log';

const DAY_MS = 86_400_000;
/** `v` of every line, raised when the entry's fields change meaning. */
const LINE_FORMAT_VERSION = 1;
/** After a failed write, entries are dropped (not queued in memory) for this long before the file is tried again. */
const RETRY_AFTER_FAILURE_MS = 60_000;

export interface FileRequestLogOptions {
  /** Days of files kept (REQUEST_LOG_RETENTION_DAYS), today's included. */
  retentionDays: number;
  /** Told once about the first failure to write the log, and once about the first to sweep it. */
  onError: (message: string, error: unknown) => void;
  now?: () => Date;
}

type Destination = ReturnType<typeof pino.destination>;

class FileRequestLog implements RequestLogWriter {
  readonly #dir: string;
  readonly #options: FileRequestLogOptions;
  readonly #now: () => Date;
  readonly #sweeper: NodeJS.Timeout;
  #day: string | null = null;
  #destination: Destination | null = null;
  #pino: Pino | null = null;
  /** Until when entries are dropped after a failed write (a full disk, a read-only data directory). */
  #failedUntil = 0;
  readonly #reported = new Set<'write' | 'sweep'>();
  #closing: Promise<void> | null = null;

  constructor(dir: string, options: FileRequestLogOptions) {
    this.#dir = dir;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#sweeper = setInterval(() => void this.sweep(), DAY_MS);
    this.#sweeper.unref();
  }

  #report(kind: 'write' | 'sweep', message: string, error: unknown): void {
    if (this.#reported.has(kind)) return;
    this.#reported.add(kind);
    this.#options.onError(message, error);
  }

  /** The pino logger of `day`'s file, opening it (and closing the previous day's) when the day changed. */
  #loggerFor(day: string): Pino {
    if (this.#pino && this.#day === day) return this.#pino;
    if (this.#destination) void endDestination(this.#destination);
    const file = requestLogFile(this.#dir, day);
    // Opened here (synchronously, once a day) so the destination is ready at once: pino flushes it
    // synchronously when the process exits, which a destination still opening, or one whose file never
    // opened, cannot do (it throws then). A file that cannot be opened fails this write (see write()).
    mkdirSync(this.#dir, { recursive: true });
    const fd = openSync(file, 'a');
    const destination = pino.destination({ dest: fd, sync: false });
    destination.on('error', (error: unknown) => {
      failedDestinations.add(destination);
      this.#report('write', `The request log could not be written to ${file}; requests are answered as usual.`, error);
      this.#failedUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
      if (this.#destination === destination) {
        this.#destination = null;
        this.#pino = null;
        this.#day = null;
      }
    });
    this.#destination = destination;
    this.#day = day;
    // The entry's own fields (no pid, hostname or pino timestamp), after the line's format version in place
    // of the level (pino 10 leaves a stray comma when the level formatter returns nothing).
    this.#pino = pino({ base: null, timestamp: false, formatters: { level: () => ({ v: LINE_FORMAT_VERSION }) } }, destination);
    return this.#pino;
  }

  write(entry: RequestLogEntry): void {
    if (this.#closing || Date.now() < this.#failedUntil) return;
    try {
      this.#loggerFor(entry.time.slice(0, 10)).info(entry);
    } catch (error) {
      this.#report('write', 'The request log could not be written; requests are answered as usual.', error);
      this.#failedUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
    }
  }

  /** Deletes the files older than the retention. */
  async sweep(): Promise<void> {
    const oldestKept = new Date(this.#now().getTime() - (this.#options.retentionDays - 1) * DAY_MS).toISOString().slice(0, 10);
    try {
      const names = await readdir(this.#dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return [];
        throw error;
      });
      for (const name of names) {
        const day = dayOfLogFile(name);
        if (day !== null && day < oldestKept) await unlink(path.join(this.#dir, name));
      }
    } catch (error) {
      this.#report('sweep', `Old request log files in ${this.#dir} could not be deleted.`, error);
    }
  }

  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#sweeper);
      if (this.#destination) await endDestination(this.#destination);
    })();
    return this.#closing;
  }
}

/** Destinations that failed: sonic-boom never closes one whose file did not open, so nothing waits for them. */
const failedDestinations = new WeakSet<Destination>();

/** Writes what the destination holds and closes it; settles at once for one that failed. */
function endDestination(destination: Destination): Promise<void> {
  return new Promise<void>((resolve) => {
    if (failedDestinations.has(destination)) {
      resolve();
      return;
    }
    destination.once('close', () => resolve());
    destination.once('error', () => resolve());
    destination.end();
  });
}

/** The writer for `dataDir`, with the old files swept. */
export async function openFileRequestLog(dataDir: string, options: FileRequestLogOptions): Promise<RequestLogWriter> {
  const log = new FileRequestLog(requestLogDir(dataDir), options);
  await log.sweep();
  return log;
}
