/**
 * The thread of document-writer.ts (plain JavaScript, so it loads the same under tsx, vitest and the
 * CLI's loader). Each request is a batch of documents: every one is written with lowdb's TextFileSync,
 * which writes a temporary file beside the document and renames it over it. The answer has one entry
 * per document: null when it is written, else why not. The JSON text comes ready from the event loop
 * (a string crosses to the thread much faster than the object it describes).
 */
import { parentPort } from 'node:worker_threads';
import { TextFileSync } from 'lowdb/node';

/** @param {Array<[file: string, text: string]>} documents */
function writeAll(documents) {
  return documents.map(([file, text]) => {
    try {
      new TextFileSync(file).write(text);
      return null;
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
      return { message: error instanceof Error ? error.message : String(error), code };
    }
  });
}

parentPort?.on('message', (/** @type {{ requests: Array<{ id: number, request: Array<[string, string]> }> }} */ message) => {
  parentPort?.postMessage({ replies: message.requests.map(({ id, request }) => ({ id, result: writeAll(request) })) });
});
