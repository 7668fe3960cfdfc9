/**
 * One GET as a browser sends it (`Accept-Encoding: br, gzip`), answered with the bytes exactly as they
 * came over the wire (not decompressed), the headers and the time to the last byte.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ACCEPT_ENCODING } from './load';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** As sent: compressed when `content-encoding` says so. */
  body: Buffer;
  ms: number;
  /** Bytes of the status line and the header block as they came over the wire (HTTP/1.1). */
  headerBytes: number;
}

/** The size of an HTTP/1.1 answer's status line and headers, up to and including the blank line. */
function headerBlockBytes(response: http.IncomingMessage): number {
  let bytes = Buffer.byteLength(`HTTP/${response.httpVersion} ${response.statusCode ?? 0} ${response.statusMessage ?? ''}\r\n`) + 2;
  for (let i = 0; i < response.rawHeaders.length; i += 2) bytes += Buffer.byteLength(`${response.rawHeaders[i] ?? ''}: ${response.rawHeaders[i + 1] ?? ''}\r\n`);
  return bytes;
}

export function getRaw(url: string): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { 'accept-encoding': ACCEPT_ENCODING } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), ms: performance.now() - started, headerBytes: headerBlockBytes(response) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The body decompressed. */
export function decoded(response: RawResponse): Buffer {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(response.body);
  if (encoding === 'gzip') return gunzipSync(response.body);
  return response.body;
}

/** `url` must answer 200: the response, else an error naming the status. */
export async function getOk(url: string): Promise<RawResponse> {
  const response = await getRaw(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return response;
}

/**
 * The answer the cache keeps for `url` once asked for again: a miss is sent compressed quickly and the
 * kept page is compressed at the static level when it is asked for again (decision 0041); the baseline
 * sends those bytes, as a static server would.
 */
export async function keptAnswer(url: string): Promise<RawResponse> {
  const miss = await getOk(url);
  let answer = miss;
  // The second answer starts the static level; a later one brings it (it is made in the thread pool).
  for (let asked = 2; asked <= 50 && answer.body.equals(miss.body); asked += 1) answer = await getOk(url);
  return answer;
}
