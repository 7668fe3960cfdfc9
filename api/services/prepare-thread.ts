/**
 * Where a create's body is prepared (prepare.ts: the contract's checks, then the cleaning and the HTML
 * sanitiser): on a worker thread or on the event loop.
 *
 * Preparing is the largest piece of a create's work and grows with the post: a body of 250,000
 * characters of HTML took 70-120 ms when measured, time in which the event loop would serve no page.
 * So a large body (LARGE_BODY_CHARS or more) always goes to the thread. Small bodies go to it while
 * creates keep coming (BUSY_PER_SECOND within a second starts it), where it frees the event loop for
 * everything else; on an idle server a small body is prepared at once on the event loop, as a hop to
 * a sleeping thread costs more than the work.
 *
 * The thread stops after IDLE_MS without a body. Until it has loaded, small bodies are prepared on the
 * event loop; whenever it fails, a body is prepared on the event loop again (where an error has its
 * stack), so no request is lost with a thread. A thread that cannot start (MAX_FAILED_STARTS in a row,
 * e.g. its script cannot load) is not tried again.
 */
import { attempt } from '../threads/attempt';
import { RequestThread } from '../threads/request-thread';
import { type PrepareOutcome, type PrepareRequest, preparePayload } from './prepare';

export type PrepareThreadMode = 'auto' | 'always' | 'never';

export interface PreparerOptions {
  /** 'auto' (the default) as described above; 'always' or 'never' to pin it (tests, measurements). */
  thread?: PrepareThreadMode;
  /** How long the thread may sit idle before it stops. */
  idleMs?: number;
  /** The worker script (tests pass broken ones). */
  workerUrl?: URL;
}

export const LARGE_BODY_CHARS = 32 * 1024;
export const BUSY_PER_SECOND = 10;
const IDLE_MS = 5 * 60_000;
export const MAX_FAILED_STARTS = 3;
const WORKER_URL = new URL('./prepare.worker.mjs', import.meta.url);

export class PostPreparer {
  readonly #mode: PrepareThreadMode;
  readonly #thread: RequestThread<PrepareRequest, PrepareOutcome>;
  #windowStart = 0;
  #inWindow = 0;

  constructor(options: PreparerOptions = {}) {
    this.#mode = options.thread ?? 'auto';
    this.#thread = new RequestThread(options.workerUrl ?? WORKER_URL, { idleMs: options.idleMs ?? IDLE_MS });
  }

  /**
   * Prepares `request`; `body` is its text parsed already, if the caller has it: a body prepared here is
   * then not parsed twice, and one sent to the thread (which gets the text) is not parsed here at all.
   * Not async: a body on the thread costs no promise beyond the thread's own.
   */
  prepare(request: PrepareRequest, body?: unknown): Promise<PrepareOutcome> {
    // JSON never parses to undefined: undefined means "not parsed yet".
    const here = () => preparePayload(body === undefined ? JSON.parse(request.text) : body, request.keyId);
    if (!this.#usesThread(request)) return attempt(here);
    // The thread died, or preparing threw there: prepare it here, where an error has its stack.
    return this.#thread.ask(request).catch(here);
  }

  /** True while a thread is loaded and takes bodies. */
  get onThread(): boolean {
    return this.#thread.ready;
  }

  /** True once threads failed to start MAX_FAILED_STARTS times in a row: bodies stay on the event loop. */
  get threadBroken(): boolean {
    return this.#thread.failedStarts >= MAX_FAILED_STARTS;
  }

  /** Stops the thread (bodies asked of it meanwhile are prepared on the event loop). */
  close(): Promise<void> {
    return this.#thread.close();
  }

  #usesThread(request: PrepareRequest): boolean {
    if (this.#mode === 'never' || this.threadBroken) return false;
    if (this.#mode === 'always' || this.#thread.ready || request.text.length >= LARGE_BODY_CHARS) return true;
    if (this.#busy()) this.#thread.warm();
    return false;
  }

  /** Counts this body; true once BUSY_PER_SECOND have come within the current second. */
  #busy(): boolean {
    const now = Date.now();
    if (now - this.#windowStart >= 1000) {
      this.#windowStart = now;
      this.#inWindow = 0;
    }
    this.#inWindow += 1;
    return this.#inWindow >= BUSY_PER_SECOND;
  }
}
