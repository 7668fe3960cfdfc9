/**
 * Runs tasks one at a time in arrival order: every write to the store goes through one, so two requests
 * never read-modify-write the same data at once and lose each other's changes.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();
  #queued = 0;

  run<T>(task: () => Promise<T> | T): Promise<T> {
    this.#queued += 1;
    const result = this.#tail.then(task);
    this.#tail = result.catch(() => undefined);
    const done = () => {
      this.#queued -= 1;
    };
    result.then(done, done);
    return result;
  }

  /** True while a task is queued or running. */
  get busy(): boolean {
    return this.#queued > 0;
  }

  /** Resolves once every task queued so far has finished. */
  async idle(): Promise<void> {
    await this.#tail;
  }
}
