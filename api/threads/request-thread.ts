/**
 * A worker thread that answers requests, for work the event loop should not do itself (writing files,
 * sanitising HTML). The thread starts with the first request, holds the process open only while a
 * request waits for its answer, and stops after a while without any. Requests are answered in order.
 *
 * The worker script receives `{ id, request }` and posts back `{ id, result }`. When the thread dies
 * (a crash, a script that cannot load), every waiting request is rejected with why, and the next
 * request starts a new thread: callers decide what a lost answer means for them.
 */
import { Worker } from 'node:worker_threads';

interface Reply<Result> {
  id: number;
  result: Result;
}

interface Waiting<Result> {
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
}

export interface RequestThreadOptions {
  /** How long the thread may sit idle before it stops. */
  idleMs?: number;
}

const IDLE_MS = 30_000;

export class RequestThread<Request, Result> {
  readonly #url: URL;
  readonly #idleMs: number;
  #worker: Worker | undefined;
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting<Result>>();
  #idleTimer: NodeJS.Timeout | undefined;

  constructor(url: URL, options: RequestThreadOptions = {}) {
    this.#url = url;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Sends `request` to the thread; settles with its answer, or rejects when the thread dies first. */
  ask(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      clearTimeout(this.#idleTimer);
      const worker = this.#start();
      const id = this.#nextId++;
      worker.postMessage({ id, request }); // throws (and so rejects) for data that cannot be copied
      this.#waiting.set(id, { resolve, reject });
      worker.ref();
    });
  }

  /** True while a thread is running (started and not yet stopped). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the thread now; requests still waiting are rejected. */
  async close(): Promise<void> {
    const worker = this.#worker;
    clearTimeout(this.#idleTimer);
    if (!worker) return;
    this.#lost(worker, new Error('the thread was closed'));
    await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#url);
    worker.unref(); // held only while a request waits for its answer
    worker.on('message', (reply: Reply<Result>) => this.#answer(worker, reply));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #answer(worker: Worker, reply: Reply<Result>): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    waiting.resolve(reply.result);
    if (this.#waiting.size === 0 && this.#worker === worker) {
      worker.unref();
      this.#idleTimer = setTimeout(() => {
        if (this.#waiting.size === 0) void this.close();
      }, this.#idleMs).unref();
    }
  }

  #lost(worker: Worker, error: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { reject } of waiting) reject(error);
  }
}
