/**
 * Group commit: items submitted while a batch is being written gather into the next batch, so N
 * concurrent writers cost about one durable write each round instead of N. The first item of an idle
 * queue waits one turn of the event loop (setImmediate) so the requests already read join it.
 */

/** Writes a batch; one entry per item, in order: null when written, else why not. */
export type BatchWrite<T> = (items: readonly T[]) => Promise<Array<Error | null>>;

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class GroupCommit<T> {
  readonly #writeBatch: BatchWrite<T>;
  #next: Array<Pending<T>> = [];
  #running: Promise<void> | null = null;

  constructor(writeBatch: BatchWrite<T>) {
    this.#writeBatch = writeBatch;
  }

  /** Resolves once this item is written; rejects with its own error only. */
  submit(item: T): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.#next.push({ item, resolve, reject }));
    this.#running ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.#drain());
    return done;
  }

  /** Resolves once every item submitted so far has settled. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    while (this.#next.length > 0) {
      const batch = this.#next;
      this.#next = [];
      let results: Array<Error | null>;
      try {
        results = await this.#writeBatch(batch.map(({ item }) => item));
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        results = batch.map(() => failure);
      }
      batch.forEach(({ resolve, reject }, i) => {
        const result = results[i];
        if (result === null) resolve();
        else reject(result ?? new Error('the batch writer gave no answer'));
      });
    }
    this.#running = null;
  }
}
