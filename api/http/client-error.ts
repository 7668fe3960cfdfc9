/**
 * Requests Node's HTTP parser refuses before Koa sees them (a carriage return inside a header value, a
 * header line that is not one, oversized headers): answered here, from the server's `clientError`
 * event, with the API's JSON error body instead of Node's bare status line, then the connection is
 * closed; CONNECT, which never reaches Koa, gets a 405 the same way. `prepareListener` (listener.ts) installs it on the server main.ts and the test server listen with.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError, errorBodyFor } from '../../contract/errors';
import { newRequestId } from './request-id';

interface ParserError extends Error {
  code?: string;
}

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function answerFor(error: ParserError, requestId: string): { status: number; body: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, body: '' };
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('request_headers_too_large')
      : new ApiError('bad_request', {
          message: 'The request could not be parsed: a header line or value is malformed (for example a stray carriage return inside a header value).',
          hints: ['Remove control characters from header values and send each header as "Name: value" on a line of its own.'],
        });
  return { status: apiError.status, body: JSON.stringify({ ...errorBodyFor(apiError, 'unknown'), request_id: requestId }) };
}

/** The raw HTTP/1.1 answer for a request the parser refused, with a request id like every other answer. */
export function clientErrorResponse(error: ParserError, requestId = newRequestId()): string {
  const answer = answerFor(error, requestId);
  const type = answer.body === '' ? '' : 'Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n';
  return `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? ''}\r\nX-Request-Id: ${requestId}\r\n${type}Content-Length: ${Buffer.byteLength(answer.body)}\r\nConnection: close\r\n\r\n${answer.body}`;
}

/** Node's own rule: answer only when no response of this connection has started. */
function mayAnswer(socket: Duplex): boolean {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return socket.writable && !inFlight?.headersSent;
}

/**
 * The answer to CONNECT, which Node hands to the server's `connect` event instead of a request (and
 * closes unanswered when nothing listens): a 405 saying this is a website, not a proxy.
 */
export function connectRefusal(requestId = newRequestId()): string {
  const allow = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
  const error = new ApiError('method_not_allowed', {
    message: 'CONNECT is not allowed: this server is a website and its API, not a proxy.',
    hints: ['Send GET, HEAD or POST to a page, or call the API at /api/blog (GET /api/openapi.json lists its endpoints).'],
  });
  const body = JSON.stringify({ ...errorBodyFor(error, 'unknown'), request_id: requestId, allow: allow.split(', ') });
  return `HTTP/1.1 405 Method Not Allowed\r\nX-Request-Id: ${requestId}\r\nAllow: ${allow}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export function answerClientErrors(server: Server): void {
  server.on('connect', (_request, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(connectRefusal());
  });
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !mayAnswer(socket)) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error));
  });
}
