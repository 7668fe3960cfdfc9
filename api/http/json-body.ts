/**
 * Reads a JSON request body, refusing early what cannot be a post: a missing or non-JSON content type
 * (415, with the fix for the client that sent it), a compressed body (415), too many bytes (413, before
 * reading when Content-Length says so), and text that is not JSON (400, noting form-encoded text).
 */
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../contract/errors';
import type { ParameterizedContext } from 'koa';
import { BODY_READ_BYTES, loggableType } from '../request-log/redact';
import type { ApiState } from './context';

/** Stateless between calls (no streaming), so one decoder serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What a JSON endpoint takes, as the request log names it for a 415. */
export const JSON_TYPES: readonly string[] = ['application/json', 'application/*+json'];

function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function unsupportedType(received: string): ApiError {
  const what = received === '' ? 'no Content-Type header' : `Content-Type ${received}`;
  const hints: string[] = [];
  if (received === 'application/x-www-form-urlencoded' || received === 'multipart/form-data') {
    hints.push('The body was sent as form fields; the API reads one JSON object.');
  } else if (received === 'text/plain') {
    hints.push('The body was sent as plain text; if it is JSON, label it Content-Type: application/json.');
  } else if (received === '') {
    hints.push('Without a Content-Type the server cannot tell the body is JSON: add Content-Type: application/json.');
  }
  return new ApiError('unsupported_media_type', {
    message: `The request had ${what}; the body must be JSON sent with Content-Type: application/json.`,
    hints,
    extra: { receivedContentType: received === '' ? null : received },
    facts: { contentType: received === '' ? null : loggableType(received), accepted: JSON_TYPES },
  });
}

/**
 * A body that declared a length over the limit by at most this factor is read and thrown away after
 * the 413 (Node does so for a body nobody began to read), so a client still sending it receives the
 * answer: closing with bytes unread makes the kernel reset the connection, and curl then reports
 * "Send failure: Broken pipe" instead of the 413 and its request id. A larger one is not read: the
 * answer closes the connection.
 */
const READ_AWAY_FACTOR = 8;

/** `readAway`: the body declared its length and is small enough to be read and thrown away (see READ_AWAY_FACTOR). */
function tooLarge(limitBytes: number, readAway = false): ApiError {
  return new ApiError('payload_too_large', {
    message: `The request body is larger than ${limitBytes} bytes.`,
    headers: readAway ? {} : { Connection: 'close' },
    extra: { limitBytes },
    facts: { limitBytes },
  });
}

/**
 * The body's bytes, refused once they pass `limitBytes`; then the rest is not read (the 413 closes the
 * connection). Read with events rather than `for await`, whose async iterator cost a create more than
 * the read itself; the listeners are left in place (they die with the request), a flag ignores what
 * comes after the promise settled.
 */
function readLimited(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer | string) => {
      if (settled) return;
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limitBytes) {
        settled = true;
        req.pause();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(buffer);
    });
    req.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size));
    });
    req.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    // A client that hangs up before the end: the request closes without 'end'.
    req.on('close', () => {
      if (settled) return;
      settled = true;
      reject(Object.assign(new Error('The client closed the request before sending all of its body.'), { code: 'ECONNRESET' }));
    });
  });
}

function looksFormEncoded(text: string): boolean {
  return /^[\w.[\]%-]+=[^&]*(?:&[\w.[\]%-]+=[^&]*)*$/.test(text.trim());
}

function invalidJson(message: string, hints: string[] = []): ApiError {
  return new ApiError('invalid_json', { message, hints });
}

export interface JsonBody {
  /** The exact bytes received (an Idempotency-Key retry must repeat them). */
  bytes: Uint8Array;
  /** Their JSON value. */
  value: unknown;
}

export async function readJsonBody(ctx: ParameterizedContext, limitBytes: number): Promise<JsonBody> {
  const type = ctx.request.type;
  if (!isJsonType(type)) throw unsupportedType(type);
  const charset = ctx.request.charset;
  if (charset && !['utf-8', 'utf8', 'us-ascii'].includes(charset.toLowerCase())) {
    throw new ApiError('unsupported_media_type', { message: `The body must be UTF-8; it was declared as ${charset}.`, facts: { charset: loggableType(charset), accepted: ['application/json; charset=utf-8'] } });
  }
  const encoding = (ctx.get('Content-Encoding') || 'identity').toLowerCase();
  if (encoding !== 'identity') {
    throw new ApiError('unsupported_media_type', { message: `Compressed request bodies (${encoding}) are not accepted; send plain JSON.`, facts: { contentEncoding: loggableType(encoding), accepted: JSON_TYPES } });
  }
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limitBytes) throw tooLarge(limitBytes, declared <= limitBytes * READ_AWAY_FACTOR);

  const bytes = await readLimited(ctx.req, limitBytes);
  // The request log keeps the start of a failed write's body (redacted): what was read, not re-read.
  (ctx.state as ApiState).bodyRead = { sample: bytes.subarray(0, BODY_READ_BYTES), size: bytes.length };
  let text: string;
  try {
    text = UTF8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw invalidJson('The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '') throw invalidJson('The request body is empty: send the post as a JSON object.');
  try {
    return { bytes, value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof SyntaxError ? ` (${error.message})` : '';
    throw invalidJson(
      `The request body is not valid JSON${detail}.`,
      looksFormEncoded(text) ? ['The body looks form-encoded (name=value&...) although Content-Type says JSON: send a JSON object instead.'] : [],
    );
  }
}
