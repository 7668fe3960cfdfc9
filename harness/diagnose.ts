/**
 * Response -> cause and fix, from the contract's error catalogue: what support staff and the CLI say
 * about a failed request. Also reads bodies that are not JSON at all (a proxy's HTML page).
 */
import { REPLAYED_HEADER } from '../contract/blog';
import { type ClientKind, identifyClient } from '../contract/clients';
import { type ErrorCode, catalogueEntry, errorCodeForStatus, guidanceFor, isApiErrorBody } from '../contract/errors';
import type { HarnessResponse } from './types';

export type ParsedBody = { ok: true; value: unknown } | { ok: false; message: string };

/** Reads a response body as JSON; a failure reports 'Failed to parse response: {text}'. */
export function parseResponseBody(response: HarnessResponse): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(response.text) as unknown };
  } catch {
    const text = response.text.trim() === '' ? '(empty body)' : response.text.trim().slice(0, 300);
    return { ok: false, message: `Failed to parse response: ${text}` };
  }
}

export interface Diagnosis {
  ok: boolean;
  status: number;
  code?: ErrorCode;
  /** One sentence: what went wrong. */
  cause: string;
  /** What to do, in order. */
  fixes: string[];
  /** What the server changed or ignored in an accepted post (the answer's `warnings`). */
  warnings: string[];
}

/** The `warnings` of an accepted answer, and whether it created a post (a 201 naming one, not a replay). */
function acceptedAnswer(response: HarnessResponse, value: unknown): { cause: string; warnings: string[] } {
  const { status } = response;
  const body = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const warnings = Array.isArray(body.warnings) ? body.warnings.map(String) : [];
  const post = typeof body.post === 'object' && body.post !== null ? (body.post as Record<string, unknown>) : undefined;
  const slug = typeof post?.slug === 'string' ? post.slug : undefined;
  if (slug !== undefined && response.headers[REPLAYED_HEADER.toLowerCase()] === 'true') {
    return { cause: `${status}: the API answered with the post "${slug}" created earlier with this Idempotency-Key (nothing new was created)`, warnings };
  }
  if (status === 201 && slug !== undefined) {
    if (post?.status === 'in_review') {
      return { cause: `${status}: the API created the post "${slug}" and held it for compliance review: a staff member approves it before it goes public`, warnings: [...warnings, ...findingLines(body)] };
    }
    const state = typeof post?.status === 'string' ? ` as ${post.status}` : '';
    return { cause: `${status}: the API created the post "${slug}"${state}`, warnings };
  }
  if (body.valid === true) return { cause: `${status}: the API accepted the post (validated only, nothing was saved)`, warnings };
  return { cause: `${status}: the API accepted the request`, warnings };
}

/** One line per compliance finding of an answer (`findings`: contract/compliance.ts), with its suggested rewrite. */
function findingLines(body: Record<string, unknown>): string[] {
  if (!Array.isArray(body.findings)) return [];
  return body.findings.flatMap((finding: unknown) => {
    if (typeof finding !== 'object' || finding === null) return [];
    const { rule, severity, message, suggestion, accepted } = finding as Record<string, unknown>;
    if (typeof rule !== 'string' || typeof message !== 'string') return [];
    const acceptedNote = accepted ? ' (accepted)' : '';
    return [`${String(severity)} ${rule}${acceptedNote}: ${message}${typeof suggestion === 'string' ? ` ${suggestion}` : ''}`];
  });
}

function looksLikeHtml(text: string): boolean {
  return /^\s*<(!doctype|html|head|body)/i.test(text);
}

export function diagnoseResponse(response: HarnessResponse, client: ClientKind = 'unknown'): Diagnosis {
  const { status } = response;
  const parsed = parseResponseBody(response);
  if (parsed.ok && isApiErrorBody(parsed.value)) {
    const body = parsed.value;
    const fieldLines = [...(body.errors ?? []).map((problem) => `${problem.field}: ${problem.message}`), ...findingLines(body as unknown as Record<string, unknown>)];
    const fixes = body.guidance.length > 0 ? body.guidance : guidanceFor(body.code, client);
    return { ok: false, status, code: body.code, cause: `${status} ${body.code}: ${body.message}`, fixes: [...fieldLines, ...fixes], warnings: [] };
  }
  if (status >= 200 && status < 300) {
    if (parsed.ok) return { ok: true, status, ...acceptedAnswer(response, parsed.value), fixes: [] };
    return {
      ok: false,
      status,
      cause: `${parsed.message} (status ${status})`,
      fixes: ['The answer should be JSON: check that the URL points at the blog API itself and not at a page or a proxy.'],
      warnings: [],
    };
  }
  const code = errorCodeForStatus(status);
  const entry = catalogueEntry(code);
  const cause = parsed.ok
    ? `${status} ${entry.title}`
    : looksLikeHtml(response.text)
      ? `${status} ${entry.title}: the answer is an HTML page, not the API's JSON (a proxy, gateway or load balancer in front of the API answered)`
      : `${status} ${entry.title}: ${parsed.message}`;
  const fixes = [...guidanceFor(code, client)];
  if (status === 502 || status === 503 || status === 504) {
    fixes.unshift('The API server did not answer the proxy in front of it: check that it is running and reachable, then retry.');
  }
  return { ok: false, status, code, cause, fixes, warnings: [] };
}

export function clientFromUserAgent(userAgent: string | undefined): ClientKind {
  return identifyClient(userAgent).kind;
}
