/**
 * The request log's middleware in the site server: one entry for every request it applies to (the
 * API's), written when the answer is decided. Failed writes also keep a redacted sample of their body
 * as the route read it (api/http/json-body.ts); a body nobody read (a 401 comes before the body) has none,
 * and neither has one that is not JSON: an image upload (POST /api/media) is never read or logged here,
 * only its size.
 */
import { performance } from 'node:perf_hooks';
import type { Middleware, ParameterizedContext } from 'koa';
import { CLI_CHECK_HEADER, identifyClientWithHints } from '../../contract/clients';
import type { ApiState } from '../http/context';
import { bodySample } from './redact';
import { type RequestLogEntry, type RequestLogWriter, requestFactsSchema } from './request-log';

const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Only JSON bodies are sampled: never an image or any other file. */
function isJsonType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

function statusOfThrown(error: unknown): number {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

export interface RequestLogMiddlewareOptions {
  writer: RequestLogWriter;
  /** Whether a request is logged (the site server logs the API's). */
  applies: (ctx: ParameterizedContext<ApiState>) => boolean;
  now?: () => Date;
}

export function requestLogMiddleware(options: RequestLogMiddlewareOptions): Middleware<ApiState> {
  const now = options.now ?? (() => new Date());
  return async (ctx, next) => {
    if (!options.applies(ctx)) return next();
    const time = now().toISOString();
    const started = performance.now();
    let status: number | undefined;
    try {
      await next();
    } catch (error) {
      status = statusOfThrown(error);
      throw error;
    } finally {
      status ??= ctx.status;
      const declared = Number(ctx.get('Content-Length'));
      const read = ctx.state.bodyRead;
      const sample = read && status >= 400 && WRITE_METHODS.has(ctx.method) && isJsonType(ctx.request.type) ? read.sample : null;
      // Only the facts the schema names are kept: nothing else an error carries reaches the file.
      const facts = ctx.state.errorFacts ? requestFactsSchema.safeParse(ctx.state.errorFacts) : null;
      const entry: RequestLogEntry = {
        time,
        requestId: ctx.state.requestId ?? '',
        method: ctx.method,
        path: ctx.originalUrl.split('?', 1)[0] ?? ctx.path,
        status,
        code: ctx.state.errorCode ?? null,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        keyId: ctx.state.key?.id ?? ctx.state.keyId ?? null,
        client: identifyClientWithHints(ctx.get('User-Agent'), ctx.query).kind,
        userAgent: ctx.get('User-Agent') || null,
        ip: ctx.ip,
        bodyBytes: Number.isSafeInteger(declared) && declared >= 0 && ctx.get('Content-Length') !== '' ? declared : (read?.size ?? 0),
        ...(ctx.state.keyMistake ? { keyMistake: ctx.state.keyMistake } : {}),
        ...(ctx.state.bodyShape ? { bodyShape: ctx.state.bodyShape } : {}),
        ...(ctx.get(CLI_CHECK_HEADER) === '1' ? { check: true } : {}),
        ...(sample && sample.length > 0 ? { body: bodySample(sample) } : {}),
        ...(facts?.success ? { facts: facts.data } : {}),
      };
      options.writer.write(entry);
    }
  };
}
