/**
 * Runs asynchronous writes of independent files, at most `limit` at a time, started in the order they
 * were submitted. The post store decides what must be race-free (ids, order, slugs, idempotency keys)
 * synchronously before it submits a write, so the writes themselves need no order between them: a burst
 * of posts goes to disk together (a group commit) instead of one file after another, and the limit
 * keeps the number of open files bounded however many requests arrive at once.
 */
export class WriteQueue {
  readonly limit: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  readonly #unsettled = new Set<Promise<unknown>>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`A write queue runs at least one write at a time (got ${limit}).`);
    this.limit = limit;
  }

  /** Runs `write` now when fewer than `limit` writes are running, else when one ends; settles as it does. */
  run<T>(write: () => Promise<T>): Promise<T> {
    const result = new Promise<T>((resolve, reject) => {
      const start = () => {
        this.#running += 1;
        let running: Promise<T>;
        try {
          running = write();
        } catch (error) {
          running = Promise.reject(error);
        }
        running.then(resolve, reject).finally(() => {
          this.#running -= 1;
          this.#waiting.shift()?.();
        });
      };
      if (this.#running < this.limit) start();
      else this.#waiting.push(start);
    });
    this.#unsettled.add(result);
    const forget = () => this.#unsettled.delete(result);
    result.then(forget, forget);
    return result;
  }

  /** Writes submitted and not yet settled (running or waiting for a turn). */
  get pending(): number {
    return this.#unsettled.size;
  }

  /** Resolves once every write submitted so far has settled, whether it succeeded or failed. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#unsettled]);
  }
}
