/**
 * The prepare thread of prepare-thread.ts: loads prepare.ts through tsx (as the CLI's bin.js does, so
 * it loads the same under `npm start`, vitest and plain node) and says it is ready; then answers each
 * request with `{ id, result }`, or `{ id, error }` when preparing threw (the caller then prepares that
 * body on its own thread, where the error is reported with its stack).
 */
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

/** @type {{ prepareCreate: (request: { text: string, keyId: string | null }) => unknown }} */
const { prepareCreate } = await tsImport('./prepare.ts', import.meta.url);

/** @param {{ id: number, request: { text: string, keyId: string | null } }} item */
function answer({ id, request }) {
  try {
    return { id, result: prepareCreate(request) };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on('message', (/** @type {{ requests: Array<{ id: number, request: { text: string, keyId: string | null } }> }} */ message) => {
  parentPort?.postMessage({ replies: message.requests.map(answer) });
});
parentPort?.postMessage({ ready: true });
