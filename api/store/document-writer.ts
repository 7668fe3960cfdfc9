/**
 * Writing JSON documents in batches, each document atomically with lowdb's file adapters (a temporary
 * file beside it, then a rename over it, so a crash leaves the old document or the new one), in the
 * format of lowdb's JSONFile (indented by two spaces).
 *
 * The store's writes run on a worker thread (document-writer.worker.mjs): while a batch is written
 * the event loop goes on answering requests, and one thread round trip serves the whole batch. An
 * asynchronous write through libuv's thread pool costs four round trips per file (open, write, close,
 * rename), which made up most of the time of a create when measured; writing on the event loop itself
 * would stop every other request while the disk works.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { TextFileSync } from 'lowdb/node';

export interface DocumentWrite {
  file: string;
  data: unknown;
}

/**
 * Writes every document of a batch; resolves with one entry per document, in order: null when that
 * document is written, else the error that stopped it. One failed document never fails the others.
 */
export type BatchWriter = (writes: readonly DocumentWrite[]) => Promise<Array<Error | null>>;

function asError(raw: unknown): Error {
  return raw instanceof Error ? raw : new Error(String(raw));
}

/** The document as lowdb's JSONFile writes it; an Error when it cannot be JSON (a cycle, a BigInt). */
function jsonText(data: unknown): string | Error {
  try {
    return JSON.stringify(data, null, 2);
  } catch (error) {
    return asError(error);
  }
}

/** Writes the batch on the calling thread, blocking it (for tools and tests; the server uses the thread). */
export const writeDocumentsHere: BatchWriter = async (writes) =>
  writes.map(({ file, data }) => {
    const text = jsonText(data);
    if (text instanceof Error) return text;
    try {
      new TextFileSync(file).write(text);
      return null;
    } catch (error) {
      return asError(error);
    }
  });

interface Reply {
  id: number;
  failures: Array<{ message: string; code: string | undefined } | null>;
}

interface Waiting {
  /** The files sent to the thread, in the order of its answer. */
  files: string[];
  resolve: (failures: Array<Error | null>) => void;
}

export interface WriterThreadOptions {
  /** The worker script (tests swap in one that misbehaves). */
  workerUrl?: URL;
  /** How long the thread may sit idle before it stops; the next batch starts a new one. */
  idleMs?: number;
}

const WORKER_URL = new URL('./document-writer.worker.mjs', import.meta.url);
const IDLE_MS = 30_000;

/** A worker thread writing batches of documents, started on the first batch; it never keeps the process alive when idle. */
export class DocumentWriterThread {
  readonly #workerUrl: URL;
  readonly #idleMs: number;
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();
  /** The answers still to come, for close(). */
  readonly #unanswered = new Set<Promise<unknown>>();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(options: WriterThreadOptions = {}) {
    this.#workerUrl = options.workerUrl ?? WORKER_URL;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  readonly write: BatchWriter = async (writes) => {
    const texts = writes.map(({ data }) => jsonText(data));
    const sent = writes.flatMap(({ file }, i) => {
      const text = texts[i];
      return typeof text === 'string' ? [[file, text] as [string, string]] : [];
    });
    const answers = sent.length > 0 ? await this.#send(sent) : [];
    let next = 0;
    return texts.map((text) => (text instanceof Error ? text : (answers[next++] ?? null)));
  };

  #send(writes: Array<[file: string, text: string]>): Promise<Array<Error | null>> {
    const answer = new Promise<Array<Error | null>>((resolve) => {
      clearTimeout(this.#idleTimer);
      const worker = this.#start();
      const id = this.#nextId++;
      this.#waiting.set(id, { files: writes.map(([file]) => file), resolve });
      worker.ref();
      worker.postMessage({ id, writes });
    });
    this.#unanswered.add(answer);
    void answer.then(() => this.#unanswered.delete(answer));
    return answer;
  }

  /** True while a thread is running (started and not yet stopped). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the thread once the batches sent to it are answered. */
  async close(): Promise<void> {
    await Promise.all([...this.#unanswered]);
    const worker = this.#worker;
    this.#worker = undefined;
    clearTimeout(this.#idleTimer);
    await worker?.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#workerUrl);
    worker.unref(); // held only while a batch waits for its answer
    worker.on('message', (reply: Reply) => this.#answer(reply));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the writer thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #answer(reply: Reply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    waiting.resolve(reply.failures.map((failure) => (failure ? Object.assign(new Error(failure.message), { code: failure.code }) : null)));
    if (this.#waiting.size === 0 && this.#worker) {
      this.#worker.unref();
      this.#idleTimer = setTimeout(() => void this.close(), this.#idleMs).unref();
    }
  }

  /**
   * The thread died with batches unanswered. A document reaches its name only by the final rename, so
   * the ones that exist were written; every other one failed with the thread's error.
   */
  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { files, resolve } of waiting) resolve(files.map((file) => (existsSync(file) ? null : error)));
  }
}
