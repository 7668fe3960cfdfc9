/**
 * Requests Node's HTTP parser refuses before Koa sees them (a carriage return inside a header value, a
 * header line that is not one, oversized headers): answered here, from the server's `clientError`
 * event, with the API's JSON error body instead of Node's bare status line, then the connection is
 * closed; CONNECT, which never reaches Koa, gets a 405 the same way. Each refusal goes to the request
 * log like any answer, so its request id is found by `blogpost logs` and `diagnose`; a key sent with a
 * line break (the usual reason a header holds a stray carriage return) is answered as that mistake. `prepareListener` (listener.ts) installs it on the server main.ts and the test server listen with.
 */
import { maxHeaderSize, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { identifyClient } from '../../contract/clients';
import { ApiError, errorBodyFor, type ErrorCode } from '../../contract/errors';
import { classifyAuthorizationMistake, KEY_MISTAKE_MESSAGES, type KeyMistake } from '../../contract/key-mistakes';
import { checkApiKey } from '../../contract/keys';
import type { RequestLogEntry, RequestLogWriter } from '../request-log/request-log';
import { BEARER_CHALLENGE } from './auth';
import { newRequestId } from './request-id';

interface ParserError extends Error {
  code?: string;
  /** The bytes of the refused request Node had read (its request line and headers, as far as they got). */
  rawPacket?: Buffer;
}

/** What the refused bytes tell: enough to log the request and name a key sent wrong, never a header's value. */
export interface RefusedRequest {
  method: string;
  path: string;
  userAgent: string | null;
  /** The public id of a key that is right once its line break is removed: the key's own record shows who. */
  keyId: string | null;
  keyMistake: KeyMistake | null;
  /** The header whose value held a stray control character, when one did. */
  badHeader: string | null;
}

/**
 * Reads the request line and headers of a refused request the way the parser should have: lines end
 * with CRLF, so a lone CR or LF is inside a value. Only names, the key's public id and the mistake's
 * kind leave this function.
 */
export function readRefusedRequest(raw: Buffer | undefined): RefusedRequest {
  const text = raw ? raw.toString('latin1') : '';
  const head = text.split('\r\n\r\n', 1)[0] ?? '';
  const [requestLine = '', ...lines] = head.split('\r\n');
  const [method = '', target = ''] = requestLine.split(' ');
  const refused: RefusedRequest = {
    method: /^[A-Z]{1,20}$/.test(method) ? method : '-',
    path: target.startsWith('/') ? (target.split('?', 1)[0] ?? '/').slice(0, 300) : '-',
    userAgent: null,
    keyId: null,
    keyMistake: null,
    badHeader: null,
  };
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1);
    if (/[\r\n]/.test(value) && refused.badHeader === null) refused.badHeader = name.slice(0, 60);
    const lower = name.toLowerCase();
    if (lower === 'user-agent') refused.userAgent = value.trim().replace(/[\r\n].*$/s, '').slice(0, 200) || null;
    if (lower === 'authorization') {
      refused.keyMistake = classifyAuthorizationMistake(value);
      const token = /^\s*bearer\s+(\S+)/i.exec(value)?.[1];
      const key = token ? checkApiKey(token) : null;
      if (key?.ok) refused.keyId = key.publicId;
    }
  }
  return refused;
}

function apiErrorFor(error: ParserError, refused: RefusedRequest): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') return new ApiError('request_headers_too_large');
  if (refused.keyMistake) {
    return new ApiError('malformed_api_key', {
      message: KEY_MISTAKE_MESSAGES[refused.keyMistake],
      headers: { 'WWW-Authenticate': `${BEARER_CHALLENGE}, error="invalid_token"` },
      extra: { key_problem: refused.keyMistake },
    });
  }
  const where = refused.badHeader ? `the value of the ${refused.badHeader} header holds a stray line break or carriage return` : 'a header line or value is malformed';
  return new ApiError('bad_request', {
    message: `The request could not be parsed: ${where} (for example a stray carriage return inside a header value).`,
    hints: ['Remove control characters from header values and send each header as "Name: value" on a line of its own.'],
  });
}

export interface ClientErrorLog {
  writer: RequestLogWriter;
  now?: () => Date;
}

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

interface ParserAnswer {
  status: number;
  code: ErrorCode | null;
  headers: Record<string, string>;
  body: string;
}

function answerFor(error: ParserError, refused: RefusedRequest, requestId: string): ParserAnswer {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: null, headers: {}, body: '' };
  const apiError = apiErrorFor(error, refused);
  const client = identifyClient(refused.userAgent).kind;
  return { status: apiError.status, code: apiError.code, headers: apiError.headers, body: JSON.stringify({ ...errorBodyFor(apiError, client), request_id: requestId }) };
}

function rawAnswer(answer: ParserAnswer, requestId: string): string {
  const extra = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const type = answer.body === '' ? '' : 'Content-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n';
  return `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? ''}\r\nX-Request-Id: ${requestId}\r\n${extra}${type}Content-Length: ${Buffer.byteLength(answer.body)}\r\nConnection: close\r\n\r\n${answer.body}`;
}

/** The raw HTTP/1.1 answer for a request the parser refused, with a request id like every other answer. */
export function clientErrorResponse(error: ParserError, requestId = newRequestId()): string {
  return rawAnswer(answerFor(error, readRefusedRequest(error.rawPacket), requestId), requestId);
}

/**
 * The request log's entry for a refused request: the parser gave no request object, so it holds what
 * the bytes and the socket tell (time, the code, the remote address, the path and client when they
 * could be read), under the request id the client was answered with.
 */
export function refusedEntry(error: ParserError, refused: RefusedRequest, answer: ParserAnswer, meta: { requestId: string; time: Date; ip: string }): RequestLogEntry {
  const what = error.code === 'HPE_HEADER_OVERFLOW' ? 'the request line and headers together were larger than the server reads' : refused.keyMistake ? `the key in the Authorization header was sent wrong (${refused.keyMistake.replace('_', ' ')})` : refused.badHeader ? `a stray line break in the ${refused.badHeader} header` : 'a malformed request line or header';
  return {
    time: meta.time.toISOString(),
    requestId: meta.requestId,
    method: refused.method,
    path: refused.path,
    status: answer.status,
    code: answer.code,
    durationMs: 0,
    keyId: refused.keyId,
    client: identifyClient(refused.userAgent).kind,
    userAgent: refused.userAgent,
    ip: meta.ip,
    bodyBytes: 0,
    refusal: `Refused by the HTTP parser (${error.code ?? 'unknown'}): ${what}.`,
    // The limit that applied to headers too large: Node's, for the request line and every header together.
    ...(error.code === 'HPE_HEADER_OVERFLOW' ? { facts: { limitBytes: maxHeaderSize } } : {}),
    ...(refused.keyMistake ? { keyMistake: refused.keyMistake } : {}),
  };
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

/** `log`: the request log the refusals go to (with none, as in a bare test server, they are only answered). */
export function answerClientErrors(server: Server, log?: ClientErrorLog): void {
  server.on('connect', (_request, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(connectRefusal());
  });
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !mayAnswer(socket)) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    const refused = readRefusedRequest(error.rawPacket);
    const answer = answerFor(error, refused, requestId);
    socket.end(rawAnswer(answer, requestId));
    const ip = (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? '-';
    log?.writer.write(refusedEntry(error, refused, answer, { requestId, time: (log.now ?? (() => new Date()))(), ip }));
  });
}
