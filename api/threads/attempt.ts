/**
 * `fn()` as a promise: its value, or what it threw as a rejection. Unlike an async function, it adds no
 * promise of its own when `fn` returns one (the hot path of a write is built of such calls).
 */
export function attempt<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
