/**
 * Runs tasks one at a time in arrival order: every write to the store goes through one, so two requests
 * never read-modify-write the same data at once and lose each other's changes.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T> | T): Promise<T> {
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task queued so far has finished. */
  async idle(): Promise<void> {
    await this.#tail;
  }
}
