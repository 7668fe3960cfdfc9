/** The harness as the pages run it: the browser's fetch and localStorage (memory when storage is blocked). */
import { memoryState } from '../../harness/state';
import { fetchTransport } from '../../harness/transport';
import type { HarnessDeps, StateStore } from '../../harness/types';

/** The result check waits this long after a test finishes, as the original helpers did. */
export const RESULT_CHECK_DELAY_MS = 500;

export function browserState(): StateStore {
  try {
    const storage = window.localStorage;
    storage.getItem('blogApiTest.probe');
    return {
      get: (key) => storage.getItem(key),
      set: (key, value) => storage.setItem(key, value),
      remove: (key) => storage.removeItem(key),
    };
  } catch {
    return memoryState();
  }
}

export function browserHarnessDeps(options: { apiKey?: string; validateOnly?: boolean } = {}): HarnessDeps {
  return {
    baseUrl: window.location.origin,
    transport: fetchTransport('browser'),
    state: browserState(),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.validateOnly ? { validateOnly: true } : {}),
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
