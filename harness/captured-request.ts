/**
 * Reads a captured failing request: a curl command line (as copied from a terminal, Postman's code
 * view or a browser's "Copy as cURL") or a HAR file exported from a browser or Postman. Bodies given
 * as @file are read as curl reads them, through a reader the caller passes in.
 */
import { parse as parseShell } from 'shell-quote';
import type { HarnessRequest, HarnessResponse } from './types';

export interface CapturedRequest {
  source: 'curl' | 'har';
  request: HarnessRequest;
  /** A HAR file also holds the answer. */
  response?: HarnessResponse;
}

export class CapturedRequestError extends Error {
  override name = 'CapturedRequestError';
}

/**
 * Reads the file a curl option names with @file (the name as written in the command). The CLI
 * passes one that resolves it against the current directory, as curl does; whatever it throws
 * (a missing file) is passed on unchanged.
 */
export type BodyFileReader = (name: string) => Uint8Array;

export interface CurlOptions {
  readFile?: BodyFileReader;
}

/** How curl treats the value of each body option (see `man curl`). */
type DataKind = 'ascii' | 'binary' | 'raw' | 'urlencode' | 'json';
const DATA_FLAGS: Record<string, DataKind> = {
  '-d': 'ascii',
  '--data': 'ascii',
  '--data-ascii': 'ascii',
  '--data-binary': 'binary',
  '--data-raw': 'raw',
  '--data-urlencode': 'urlencode',
  '--json': 'json',
};
const IGNORED_WITH_VALUE = new Set(['-o', '--output', '-w', '--write-out', '-m', '--max-time', '--connect-timeout', '-e', '--referer', '-b', '--cookie', '-x', '--proxy', '--retry', '-u', '--user']);
/** Short options whose value curl also takes attached: -XPOST, -d@body.json, -H'Accept: x'. */
const ATTACHED_SHORT = /^-([XHdA])(.+)$/s;

function readBodyFile(name: string, flag: string, options: CurlOptions): string {
  if (name === '-') {
    throw new CapturedRequestError(`The curl command reads its body from standard input (${flag} @-): save the body to a file and use ${flag} @file instead.`);
  }
  if (name === '') throw new CapturedRequestError(`The curl option ${flag} @ names no file.`);
  if (!options.readFile) throw new CapturedRequestError(`The body is in the file ${name} (${flag} @${name}), which cannot be read here: paste the body in its place.`);
  return new TextDecoder().decode(options.readFile(name));
}

/** curl's URL encoding (curl_easy_escape): everything but A-Z a-z 0-9 - . _ ~ as %XX. */
function curlEscape(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** One body option's value as curl sends it. */
function dataPiece(flag: string, kind: DataKind, value: string, options: CurlOptions): string {
  if (kind === 'raw') return value;
  if (kind === 'urlencode') {
    // content, =content, name=content, @file, name@file: the first = or @ decides.
    const at = /[=@]/.exec(value);
    if (!at) return curlEscape(value);
    const name = value.slice(0, at.index);
    const rest = value.slice(at.index + 1);
    const content = at[0] === '@' ? readBodyFile(rest, flag, options) : rest;
    return name ? `${name}=${curlEscape(content)}` : curlEscape(content);
  }
  if (!value.startsWith('@')) return value;
  const text = readBodyFile(value.slice(1), flag, options);
  // -d @file drops carriage returns and newlines; --data-binary and --json send the file as it is.
  return kind === 'ascii' ? text.replace(/[\r\n]/g, '') : text;
}

export function parseCurl(commandLine: string, options: CurlOptions = {}): CapturedRequest {
  // Line continuations of shells (\ at the end) and of Windows cmd (^) are joined first.
  const text = commandLine.replace(/\\\r?\n/g, ' ').replace(/\^\r?\n/g, ' ').trim();
  let parsed: ReturnType<typeof parseShell>;
  try {
    parsed = parseShell(text);
  } catch (error) {
    throw new CapturedRequestError(`The curl command cannot be read as a shell command line: ${(error as Error).message}.`);
  }
  const tokens = parsed.map((token) => {
    if (typeof token === 'string') return token;
    if ('op' in token && token.op === 'glob') return token.pattern;
    throw new CapturedRequestError('The curl command contains shell operators (pipes, redirects or ;). Paste the curl command alone.');
  });
  if (tokens[0] !== 'curl') throw new CapturedRequestError('This does not start with "curl". Paste the whole curl command, or give a .har file.');
  let method: string | undefined;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  const data: string[] = [];
  let json = false;
  for (let i = 1; i < tokens.length; i += 1) {
    const attached = ATTACHED_SHORT.exec(tokens[i] ?? '');
    const token = attached ? `-${attached[1]}` : (tokens[i] ?? '');
    const next = () => {
      if (attached) return attached[2] ?? '';
      i += 1;
      const value = tokens[i];
      if (value === undefined) throw new CapturedRequestError(`The curl option ${token} has no value.`);
      return value;
    };
    const dataKind = Object.hasOwn(DATA_FLAGS, token) ? DATA_FLAGS[token] : undefined;
    if (token === '-X' || token === '--request') method = next().toUpperCase();
    else if (token === '-H' || token === '--header') {
      const header = next();
      const colon = header.indexOf(':');
      if (colon > 0) headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (dataKind) {
      const piece = dataPiece(token, dataKind, next(), options);
      // curl joins -d pieces with &, and appends --json pieces as they are.
      data.push(data.length > 0 && dataKind !== 'json' ? `&${piece}` : piece);
      if (dataKind === 'json') json = true;
    } else if (token === '--url') url = next();
    else if (token === '-A' || token === '--user-agent') headers['User-Agent'] = next();
    else if (IGNORED_WITH_VALUE.has(token)) next();
    else if (!token.startsWith('-')) url ??= token;
  }
  if (!url) throw new CapturedRequestError('The curl command has no URL.');
  if (!/^https?:\/\//i.test(url)) url = `http://${url}`;
  const hasHeader = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  if (json) {
    if (!hasHeader('content-type')) headers['Content-Type'] = 'application/json';
    if (!hasHeader('accept')) headers.Accept = 'application/json';
  } else if (data.length > 0 && !hasHeader('content-type')) {
    // What curl itself sends with -d and no Content-Type.
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  if (!hasHeader('user-agent')) headers['User-Agent'] = 'curl/8.5.0';
  return {
    source: 'curl',
    request: {
      method: method ?? (data.length > 0 ? 'POST' : 'GET'),
      url,
      headers,
      ...(data.length > 0 ? { body: data.join('') } : {}),
    },
  };
}

interface HarEntry {
  request?: { method?: string; url?: string; headers?: { name: string; value: string }[]; postData?: { text?: string; mimeType?: string } };
  response?: { status?: number; headers?: { name: string; value: string }[]; content?: { text?: string; encoding?: string } };
}

/** The last request to the blog API in a HAR file (or the last request at all). */
export function parseHar(text: string): CapturedRequest {
  let har: { log?: { entries?: HarEntry[] } };
  try {
    har = JSON.parse(text) as typeof har;
  } catch (error) {
    throw new CapturedRequestError(`The HAR file is not valid JSON: ${(error as Error).message}`);
  }
  const entries = har.log?.entries;
  if (!Array.isArray(entries) || entries.length === 0) throw new CapturedRequestError('The HAR file holds no requests (log.entries is empty).');
  const entry = [...entries].reverse().find((e) => e.request?.url?.includes('/api/blog')) ?? entries[entries.length - 1];
  const req = entry?.request;
  if (!entry || !req?.url || !req.method) throw new CapturedRequestError('The HAR entry has no request URL or method.');
  const headers: Record<string, string> = {};
  for (const { name, value } of req.headers ?? []) {
    if (!name.startsWith(':')) headers[name] = value; // HTTP/2 pseudo-headers are not headers to replay
  }
  if (req.postData?.mimeType && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = req.postData.mimeType;
  }
  const res = entry.response;
  const responseHeaders: Record<string, string> = {};
  for (const { name, value } of res?.headers ?? []) responseHeaders[name.toLowerCase()] = value;
  const body = res?.content?.text;
  return {
    source: 'har',
    request: { method: req.method.toUpperCase(), url: req.url, headers, ...(req.postData?.text !== undefined ? { body: req.postData.text } : {}) },
    ...(res?.status
      ? {
          response: {
            status: res.status,
            headers: responseHeaders,
            text: body !== undefined && res.content?.encoding === 'base64' ? atob(body) : (body ?? ''),
          },
        }
      : {}),
  };
}

export function parseCapturedRequest(text: string, fileName?: string, options: CurlOptions = {}): CapturedRequest {
  if (fileName?.toLowerCase().endsWith('.har') || text.trimStart().startsWith('{')) return parseHar(text);
  return parseCurl(text, options);
}
