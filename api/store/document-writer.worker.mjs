/**
 * The thread of document-writer.ts (plain JavaScript, so it loads the same under tsx, vitest and the
 * CLI's loader). Writes every document of a batch with lowdb's TextFileSync, which writes a temporary
 * file beside the document and renames it over it, and answers with one entry per document: null when
 * it is written, else why not. The JSON text comes ready from the event loop (a string crosses to the
 * thread much faster than the object it describes).
 */
import { parentPort } from 'node:worker_threads';
import { TextFileSync } from 'lowdb/node';

parentPort?.on('message', (/** @type {{ id: number, request: Array<[file: string, text: string]> }} */ message) => {
  const failures = message.request.map(([file, text]) => {
    try {
      new TextFileSync(file).write(text);
      return null;
    } catch (error) {
      const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
      return { message: error instanceof Error ? error.message : String(error), code };
    }
  });
  parentPort?.postMessage({ id: message.id, result: failures });
});
