/**
 * A worker thread that answers requests, for work the event loop should not do itself (writing files,
 * checking and sanitising posts). The thread starts with the first request (or `warm()`), holds the
 * process open only while a request waits for its answer, and stops after a while without any.
 *
 * Requests asked in the same turn of the event loop cross to the thread in one message, and their
 * answers come back in one: a message between threads wakes the other thread, and on a virtual
 * machine that wake-up cost more than the work of a small request when measured.
 *
 * The worker script receives `{ requests: [{ id, request }] }` and posts back `{ replies: [...] }`
 * with `{ id, result }`, or `{ id, error }` (a message) for a request it could not answer; it may post
 * `{ ready: true }` once it has loaded, which callers read as `ready`. When the thread dies (a crash,
 * a script that cannot load), every waiting request is rejected with why, and the next request starts
 * a new thread: callers decide what a lost answer means for them.
 */
import { Worker } from 'node:worker_threads';

export type ThreadReply<Result> = { id: number; result: Result } | { id: number; error: string };
type Message<Result> = { replies: Array<ThreadReply<Result>> } | { ready: true };

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
  /** Requests asked in this turn of the event loop, sent together at its end. */
  #outbox: Array<{ id: number; request: Request }> = [];
  /** Armed while the thread runs with nothing to do; one timer for all the idle spells it covers. */
  #idleTimer: NodeJS.Timeout | undefined;
  /** When the thread last ran out of requests. */
  #idleSince = 0;
  #ready = false;
  #failedStarts = 0;

  constructor(url: URL, options: RequestThreadOptions = {}) {
    this.#url = url;
    this.#idleMs = options.idleMs ?? IDLE_MS;
  }

  /** Sends `request` to the thread; settles with its answer, or rejects when the thread dies first. */
  ask(request: Request): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const worker = this.#start();
      // Held open while a request waits for its answer.
      if (this.#waiting.size === 0) worker.ref();
      const id = this.#nextId++;
      this.#waiting.set(id, { resolve, reject });
      if (this.#outbox.length === 0) setImmediate(() => this.#send());
      this.#outbox.push({ id, request });
    });
  }

  /** Starts the thread now, without a request, so that it loads while the caller goes on. */
  warm(): void {
    if (this.#worker) return;
    this.#start();
    this.#idleSoon();
  }

  /** True once the running thread has said it loaded (for scripts that post `{ ready: true }`). */
  get ready(): boolean {
    return this.#worker !== undefined && this.#ready;
  }

  /** How many threads in a row died before saying they were ready (a script that cannot load). */
  get failedStarts(): number {
    return this.#failedStarts;
  }

  /** True while a thread is running (started and not yet stopped). */
  get running(): boolean {
    return this.#worker !== undefined;
  }

  /** Stops the thread now; requests still waiting are rejected. */
  async close(): Promise<void> {
    const worker = this.#worker;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (!worker) return;
    this.#lost(worker, new Error('the thread was closed'), true);
    await worker.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(this.#url);
    worker.unref(); // held only while a request waits for its answer
    this.#ready = false;
    worker.on('message', (message: Message<Result>) => this.#receive(worker, message));
    worker.on('error', (error) => this.#lost(worker, error));
    worker.on('exit', (code) => this.#lost(worker, new Error(`the thread stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** Posts the requests of this turn (those still waiting: a thread lost meanwhile rejected the others). */
  #send(): void {
    const outbox = this.#outbox.filter(({ id }) => this.#waiting.has(id));
    this.#outbox = [];
    const worker = this.#worker;
    if (!worker || outbox.length === 0) return;
    try {
      worker.postMessage({ requests: outbox });
    } catch {
      // Something in the batch cannot be copied to the thread: send them one by one, so only that one fails.
      for (const item of outbox) {
        try {
          worker.postMessage({ requests: [item] });
        } catch (error) {
          this.#settle(worker, { id: item.id, error: error instanceof Error ? error.message : String(error) });
        }
      }
    }
  }

  #receive(worker: Worker, message: Message<Result>): void {
    if (this.#worker !== worker) return;
    if ('ready' in message) {
      this.#ready = true;
      this.#failedStarts = 0;
      return;
    }
    for (const reply of message.replies) this.#settle(worker, reply);
  }

  #settle(worker: Worker, reply: ThreadReply<Result>): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if ('error' in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.result);
    if (this.#waiting.size === 0 && this.#worker === worker) {
      worker.unref();
      this.#idleSoon();
    }
  }

  /**
   * Stops the thread once it has had nothing to do for idleMs. The timer is not reset by every request
   * (a busy thread runs out of requests many times a second): when it fires, it checks how long the
   * thread has been idle, and waits out the rest.
   */
  #idleSoon(): void {
    this.#idleSince = Date.now();
    if (this.#idleTimer === undefined) this.#armIdleTimer(this.#idleMs);
  }

  #armIdleTimer(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (!this.#worker || this.#waiting.size > 0) return; // the next idle spell arms it again
      const idleFor = Date.now() - this.#idleSince;
      if (idleFor >= this.#idleMs) void this.close();
      else this.#armIdleTimer(this.#idleMs - idleFor);
    }, ms).unref();
  }

  #lost(worker: Worker, error: Error, closed = false): void {
    if (this.#worker !== worker) return;
    if (!closed && !this.#ready) this.#failedStarts += 1;
    this.#worker = undefined;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const { reject } of waiting) reject(error);
  }
}
