/**
 * One pass of background work at a time (the scheduler's, the outbox's): asking for a run while one is
 * under way does not start a second, it asks for one more pass after it, unless the owner stopped.
 */
export class SerialRuns {
  readonly #pass: () => Promise<void>;
  readonly #stopped: () => boolean;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(pass: () => Promise<void>, stopped: () => boolean) {
    this.#pass = pass;
    this.#stopped = stopped;
  }

  /** Starts a pass, or asks for one more after the pass under way; resolves when that pass ends. */
  run(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#pass().finally(() => {
      this.#running = undefined;
      if (this.#again && !this.#stopped()) {
        this.#again = false;
        void this.run();
      }
    });
    return this.#running;
  }

  /** Resolves when the pass under way (if any) has ended. */
  async settled(): Promise<void> {
    await this.#running;
  }
}
