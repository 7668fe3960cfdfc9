/**
 * How the server keeps its connections, set once for main.ts and the test server alike.
 *
 * Idle keep-alive connections are kept 65 s, longer than the idle timeout of the proxies and load
 * balancers in front of it (nginx's `keepalive_timeout` and AWS's load balancers: 60 s). Node's own
 * 5 s makes the server close a connection that a proxy, or any client whose event loop was busy for a
 * few seconds, is about to reuse: the next request on it fails with ECONNRESET (or a proxy's 502).
 * The client closes first; `Keep-Alive: timeout=65` on every answer tells it when to.
 *
 * A stop (`stopListening`) must not wait those 65 s: idle connections are closed at once, and one busy
 * with a request when the server stops is closed as soon as its answer is sent.
 */
import type { Server } from 'node:http';
import { answerClientErrors, type ClientErrorLog } from './client-error';

export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** `log`: the request log, for the requests Node's parser refuses before the app sees them. */
export function prepareListener(server: Server, log?: ClientErrorLog): void {
  answerClientErrors(server, log);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // A connection's next request has this long for its headers; more than the idle time it may sit.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  server.on('request', (_request, response) => {
    response.once('finish', () => {
      // Stopping: the connection is idle now that its answer is sent; close it rather than keep it.
      if (!server.listening) setImmediate(() => server.closeIdleConnections());
    });
  });
}

/** Stops taking connections, closes idle ones now and busy ones after their answer; resolves when all are closed. */
export function stopListening(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
