/**
 * The one place the JSON API turns errors into answers: the ApiError's code, message and guidance from
 * the catalogue, tailored to the client's User-Agent. A store that cannot write (a full disk, a
 * read-only data directory) is a 507 or 503 with a stable code and guidance; nothing stored is lost. A
 * database out of reach (PostgreSQL restarting) is a 503 `storage_unavailable` with Retry-After.
 * Any other 5xx never shows its stack or internal message: it is logged with the request id. Every error
 * body carries `request_id` for support and the RFC 9457 fields (`type` links the error's entry on the
 * usage-examples page), served as application/problem+json to clients that prefer it.
 */
import { identifyClientWithHints } from '../../contract/clients';
import { API_DOCS_PATH, ApiError, catalogueEntry, errorBodyFor, errorCodeForStatus } from '../../contract/errors';
import type { Logger } from '../logger';
import { isStoreRefusal, StoreError, storeErrorCode, UNAVAILABLE_RETRY_AFTER_SECONDS } from '../store/store-error';
import { type ApiMiddleware, requestPath } from './context';
import { newRequestId } from './request-id';

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
  headers?: unknown;
}

function statusOf(error: HttpLikeError): number {
  const status = typeof error.status === 'number' ? error.status : typeof error.statusCode === 'number' ? error.statusCode : 500;
  return status >= 400 && status <= 599 ? status : 500;
}

/** What a client is told when the database is damaged (the operator's log names the file and the restore). */
const DAMAGED_MESSAGE =
  "The server's database is damaged, so this request could not be answered; nothing was changed. The site's operator has been told how to restore it from a backup; try again later.";

/** What a client is told while the database is out of reach (a restart): a read or a write, either is worth retrying. */
const UNAVAILABLE_MESSAGE = `The server cannot reach its database right now (it is probably restarting), so this request could not be answered. Retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds; a write answered with this error was not acknowledged, and nothing stored before was lost.`;
const UNAVAILABLE_HINT = 'Send a retried create with the same Idempotency-Key as the first attempt: if that attempt was stored after all, the retry gets its answer instead of a second post.';

/** Any thrown value as an ApiError: ApiErrors as they are, storage failures by their cause, http-errors by their status, the rest as 500. */
export function toApiError(raw: unknown): ApiError {
  if (raw instanceof ApiError) return raw;
  if (raw instanceof StoreError) {
    const code = storeErrorCode(raw);
    // The catalogue's words are about a write the disk refused; a damaged database fails reads too.
    if (raw.problem === 'damaged') return new ApiError('storage_unavailable', { message: DAMAGED_MESSAGE, cause: raw });
    if (raw.problem === 'unavailable') {
      const retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS;
      return new ApiError('storage_unavailable', { message: UNAVAILABLE_MESSAGE, headers: { 'Retry-After': String(retryAfterSeconds) }, hints: [UNAVAILABLE_HINT], extra: { retryAfterSeconds }, facts: { retryAfterSeconds }, cause: raw });
    }
    if (code) return new ApiError(code, { cause: raw });
  }
  const error: HttpLikeError = typeof raw === 'object' && raw !== null ? raw : {};
  const status = statusOf(error);
  const code = errorCodeForStatus(status);
  const exposed = status < 500 && error.expose === true && typeof error.message === 'string';
  const headers =
    typeof error.headers === 'object' && error.headers !== null
      ? Object.fromEntries(Object.entries(error.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
  return new ApiError(code, { ...(exposed ? { message: String(error.message) } : {}), headers, cause: raw });
}

/**
 * Logs a request that failed with a 5xx: with its stack when it is a fault of the server's; on one line
 * when the 5xx was chosen, not a fault: the store refused (the database away, the disk full: every
 * request meets it until the operator acts, and a stack each would bury the log), or the code answered
 * with an ApiError of its own (an image upload turned away while the server is busy, media_busy).
 */
export function logRequestFailure(logger: Logger, line: string, raw: unknown): void {
  if (isStoreRefusal(raw)) logger.error(`${line}: ${raw.message}`);
  else if (raw instanceof ApiError) logger.error(`${line}: ${raw.code}: ${raw.message}`);
  else logger.error(line, raw);
}

/** The link an error's RFC 9457 `type` names: its entry in the usage-examples page's error list. */
export function errorTypeUrl(siteUrl: string, code: string): string {
  return `${siteUrl}${API_DOCS_PATH}#error-${code}`;
}

/**
 * `siteUrl` (SITE_URL) makes the `type` links absolute; without it they are relative to the API's origin.
 */
export function apiErrorHandler(logger: Logger, siteUrl = ''): ApiMiddleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (raw) {
      const error = toApiError(raw);
      const requestId = ctx.state.requestId ?? newRequestId();
      if (error.status >= 500) {
        logRequestFailure(logger, `${ctx.method} ${requestPath(ctx)} failed (request ${requestId})`, raw);
        error.extra.requestId = requestId;
      }
      ctx.state.errorCode = error.code;
      if (error.facts) ctx.state.errorFacts = error.facts;
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.set('Cache-Control', 'no-store');
      const body = errorBodyFor(error, identifyClientWithHints(ctx.get('User-Agent'), ctx.query).kind);
      ctx.body = {
        ...body,
        request_id: requestId,
        type: errorTypeUrl(siteUrl, error.code),
        title: catalogueEntry(error.code).title,
        detail: body.message,
        instance: requestPath(ctx),
      };
      // jsonOnce (http/app.ts) keeps the type set here when it serialises the body.
      ctx.type = ctx.accepts('application/json', 'application/problem+json') === 'application/problem+json' ? 'application/problem+json' : 'application/json';
    }
  };
}
