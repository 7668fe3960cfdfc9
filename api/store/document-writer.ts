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
import { TextFileSync } from 'lowdb/node';
import { RequestThread, type RequestThreadOptions } from '../threads/request-thread';

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

/** What the thread says about each document: null when it is written, else why not. */
type ThreadAnswer = Array<{ message: string; code: string | undefined } | null>;

const WORKER_URL = new URL('./document-writer.worker.mjs', import.meta.url);

/** Batches of documents written on a worker thread (document-writer.worker.mjs). */
export class DocumentWriterThread {
  readonly #thread: RequestThread<Array<[file: string, text: string]>, ThreadAnswer>;

  constructor(options: RequestThreadOptions & { workerUrl?: URL } = {}) {
    this.#thread = new RequestThread(options.workerUrl ?? WORKER_URL, options);
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

  /** True while the thread is running. */
  get running(): boolean {
    return this.#thread.running;
  }

  close(): Promise<void> {
    return this.#thread.close();
  }

  async #send(writes: Array<[file: string, text: string]>): Promise<Array<Error | null>> {
    try {
      const answer = await this.#thread.ask(writes);
      return answer.map((failure) => (failure ? Object.assign(new Error(failure.message), { code: failure.code }) : null));
    } catch (error) {
      // The thread died before answering. A document reaches its name only by the final rename, so
      // the ones that exist were written; every other one failed with the thread's error.
      return writes.map(([file]) => (existsSync(file) ? null : asError(error)));
    }
  }
}
