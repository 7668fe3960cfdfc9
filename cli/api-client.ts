/**
 * How commands talk to the blog API: one request at a time through the harness's node transport,
 * with the key as a Bearer token, a spinner on a terminal, retries on 429, 502-504 and network errors
 * (as Retry-After says, for requests that are safe to repeat), and a refusal turned into a CliError
 * that says what went wrong and what to do (the harness's diagnosis of the answer).
 */
import { checkApiKey } from '../contract/keys';
import { diagnoseResponse } from '../harness/diagnose';
import { fetchTransport } from '../harness/transport';
import type { HarnessRequest, HarnessResponse } from '../harness/types';
import { type CommandContext, type ConnectionOptions, configureHttp, resolveKey, resolveUrl } from './context';
import { CliError, ExitCode } from './exit-codes';
import { VERSION } from './version';

export interface ClientOptions extends ConnectionOptions {
  retries?: number;
  timeout?: number;
}

export interface ApiAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface SendOptions {
  body?: unknown;
  /** A binary body (an image upload), sent as it is with the Content-Type given in `headers`. */
  bytes?: Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
  /** What the spinner says. */
  label?: string;
  /** May the request be sent again after a network error or a 429/5xx? (GET, and writes with If-Match or an Idempotency-Key.) */
  repeatable?: boolean;
}

const MAX_WAIT_SECONDS = 60;
const RETRYABLE = new Set([429, 502, 503, 504]);

function retryAfterSeconds(response: HarnessResponse, attempt: number): number {
  const header = response.headers['retry-after'];
  const seconds = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header) : 2 ** attempt;
  return Math.min(Math.max(seconds, 1), MAX_WAIT_SECONDS);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class ApiClient {
  readonly origin: string;
  readonly apiKey: string | undefined;
  readonly #ctx: CommandContext;
  readonly #retries: number;
  readonly #timeout: number | undefined;
  #httpReady: Promise<void> | undefined;
  readonly #transport = fetchTransport('node');

  constructor(options: ClientOptions, ctx: CommandContext, { keyRequired }: { keyRequired: boolean }) {
    this.origin = resolveUrl(options, ctx.io);
    this.apiKey = resolveKey(options, ctx.io);
    this.#ctx = ctx;
    this.#retries = options.retries ?? 1;
    if (keyRequired && !this.apiKey) {
      throw new CliError('No API key: pass --key or set BLOGPOST_API_KEY (create one with: blogpost keys create --name NAME).', ExitCode.Usage);
    }
    if (this.apiKey) {
      const check = checkApiKey(this.apiKey);
      if (!check.ok) throw new CliError(`${check.message} Nothing was sent.`, ExitCode.Failed);
    }
    this.#timeout = options.timeout;
  }

  request(method: string, route: string, options: SendOptions = {}): HarnessRequest {
    return {
      method,
      url: `${this.origin}${route}`,
      headers: {
        Accept: 'application/json',
        'User-Agent': `blogpost-cli/${VERSION}`,
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) } : {}),
    };
  }

  async send(method: string, route: string, options: SendOptions = {}): Promise<ApiAnswer> {
    this.#httpReady ??= configureHttp(this.#timeout);
    await this.#httpReady;
    const request = this.request(method, route, options);
    const attempts = options.repeatable === false ? 1 : this.#retries;
    const { out, io } = this.#ctx;
    for (let attempt = 1; ; attempt += 1) {
      let response: HarnessResponse;
      try {
        response = await out.spin(options.label ?? `${method} ${route}`, () => (options.bytes ? sendBytes(request, options.bytes) : this.#transport.send(request)));
      } catch (error) {
        const reason = (error as Error).message;
        if (attempt >= attempts) {
          const unsure = method === 'GET' ? '' : ' The change was not confirmed: run the same command again (it is safe to repeat).';
          throw new CliError(`Could not reach ${this.origin}: ${reason}.${unsure}`, ExitCode.Unavailable);
        }
        const wait = 2 ** (attempt - 1);
        out.warn(`Could not reach the server (${reason}); retrying in ${wait}s.`);
        await io.sleep(wait * 1000);
        continue;
      }
      if (!RETRYABLE.has(response.status) || attempt >= attempts) return { ...response, json: parseJson(response.text) };
      const wait = retryAfterSeconds(response, attempt - 1);
      out.warn(`${response.status === 429 ? 'Rate limited' : `Server answered ${response.status}`}; retrying in ${wait}s (attempt ${attempt + 1} of ${attempts}).`);
      await io.sleep(wait * 1000);
    }
  }
}

/** Sends a request with a binary body (the harness's transport sends text only). */
async function sendBytes(request: HarnessRequest, bytes: Uint8Array<ArrayBuffer>): Promise<HarnessResponse> {
  const response = await globalThis.fetch(request.url, { method: request.method, headers: request.headers, body: bytes, redirect: 'manual' });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return { status: response.status, headers, text: await response.text() };
}

/** The API's error code of a refusal (`precondition_failed`, ...). */
export function apiCode(answer: ApiAnswer): string | undefined {
  const code = (answer.json as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A refusal as a CliError: what the API said, what to do, and exit 1 (4xx) or 3 (5xx). */
export function refusal(answer: ApiAnswer, what: string): CliError {
  const diagnosis = diagnoseResponse(answer);
  const lines = [`${what}: ${diagnosis.cause}`, ...diagnosis.fixes.map((fix) => `  → ${fix}`)];
  return new CliError(lines.join('\n'), answer.status >= 500 ? ExitCode.Unavailable : ExitCode.Failed);
}
