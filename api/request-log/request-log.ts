/**
 * The request log's seam: one entry per /api/* request, what the writer takes and the reader answers.
 * The embedded store keeps it in daily JSON-lines files (file-writer.ts, file-reader.ts); a database
 * can implement the same two interfaces and index it. The CLI reaches the reader through
 * api/operations.ts.
 */
import { z } from 'zod';

/** A field someone else changed since the revision a 412's If-Match named: who (a key id, `staff:` with the e-mail redacted, or the scheduler), when, in which revision. */
const conflictFactSchema = z.object({ field: z.string(), by: z.string(), at: z.string(), revision: z.number().int() });

/**
 * What an answer's limit or conflict was, for `blogpost diagnose` and the support bundle: the limit
 * that applied (413, 415, 429, 503), the revisions of a 412. Never a secret, a header's value or a
 * body's personal data: a content type is kept as its type/subtype only, a name that changed a post
 * with its e-mail redacted.
 */
export const requestFactsSchema = z.object({
  /** 413: the most bytes the body may have. */
  limitBytes: z.number().int().optional(),
  /** 415: the media type that was sent (type/subtype, no parameters), null when none was. */
  contentType: z.string().nullable().optional(),
  /** 415: a charset or a Content-Encoding that was refused. */
  charset: z.string().optional(),
  contentEncoding: z.string().optional(),
  /** 415: what an image upload's bytes were found to be. */
  detected: z.string().optional(),
  /** 415: the content types the endpoint takes. */
  accepted: z.array(z.string()).optional(),
  /** 429: which limit (writes, failed writes, validations), how many a window, the window, the wait. */
  rateLimit: z.object({ name: z.string(), perWindow: z.number(), windowSeconds: z.number(), retryAfterSeconds: z.number() }).optional(),
  /** 503: the wait the answer asked for. */
  retryAfterSeconds: z.number().optional(),
  /** 412: the post, the revision the If-Match named, the current one, the fields changed since and those this request changed too. */
  post: z
    .object({
      id: z.string(),
      yourRevision: z.number().int().nullable(),
      currentRevision: z.number().int(),
      changed: z.array(z.string()).nullable(),
      conflicts: z.array(conflictFactSchema).optional(),
    })
    .optional(),
});
export type RequestFacts = z.infer<typeof requestFactsSchema>;

export const requestLogEntrySchema = z.object({
  /** When the request arrived (ISO 8601, UTC). */
  time: z.string(),
  requestId: z.string(),
  method: z.string(),
  /** Without the query string (it may hold a key sent in the wrong place). */
  path: z.string(),
  status: z.number().int(),
  /** The catalogue code of a failed request. */
  code: z.string().nullable(),
  durationMs: z.number(),
  /** The public id of the key the request named; never the secret. */
  keyId: z.string().nullable(),
  /** The client contract/clients.ts recognised (python, postman, curl, ...). */
  client: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string(),
  /** The body's size in bytes (Content-Length, else the bytes received). */
  bodyBytes: z.number().int().nonnegative(),
  /** How the key was sent wrong (line_break, quotes, ...: contract/key-mistakes.ts); never the key itself. */
  keyMistake: z.string().optional(),
  /** The platform a refused body was shaped for (wordpress, ghost, contentful, devto). */
  bodyShape: z.string().optional(),
  /** A request the blogpost CLI made to check its own work (X-Blogpost-Check), not the author's. */
  check: z.boolean().optional(),
  /** Requests refused before routing (Node's HTTP parser): what was wrong, in words, without header values. */
  refusal: z.string().optional(),
  /** Failed writes only: the first 4 KB of the body, secrets and personal data redacted. */
  body: z.string().optional(),
  /** The limit that applied or the conflict that was met (requestFactsSchema); an entry whose facts cannot be read keeps the rest. */
  facts: requestFactsSchema.optional().catch(undefined),
});
export type RequestLogEntry = z.infer<typeof requestLogEntrySchema>;

export interface RequestLogWriter {
  /** Queues an entry; never throws and never waits for the disk. */
  write(entry: RequestLogEntry): void;
  /** Writes what is queued and releases the files. */
  close(): Promise<void>;
}

/** `4xx` (a class) or exact statuses. */
export type StatusFilter = { kind: 'class'; hundreds: number } | { kind: 'exact'; statuses: number[] };

export interface RequestLogQuery {
  keyId?: string;
  status?: StatusFilter;
  code?: string;
  since?: Date;
  requestId?: string;
  client?: string;
  /** At most this many entries, the newest. */
  limit?: number;
}

/** How far the log reaches: where it is and its oldest and newest entries. */
export interface RequestLogExtent {
  location: string;
  oldest: string | null;
  newest: string | null;
}

export interface RequestLogReader {
  /** Entries that match, oldest first (the newest `limit` of them). */
  find(query: RequestLogQuery): Promise<RequestLogEntry[]>;
  /** Calls `onEntry` for every matching entry written from now on, until `signal` aborts. */
  follow(query: RequestLogQuery, onEntry: (entry: RequestLogEntry) => void, signal: AbortSignal): Promise<void>;
  extent(): Promise<RequestLogExtent>;
}

export function matchesQuery(entry: RequestLogEntry, query: RequestLogQuery): boolean {
  if (query.keyId !== undefined && entry.keyId !== query.keyId) return false;
  if (query.code !== undefined && entry.code !== query.code) return false;
  if (query.requestId !== undefined && entry.requestId !== query.requestId) return false;
  if (query.client !== undefined && entry.client !== query.client) return false;
  if (query.since !== undefined && Date.parse(entry.time) < query.since.getTime()) return false;
  if (query.status?.kind === 'class' && Math.floor(entry.status / 100) !== query.status.hundreds) return false;
  if (query.status?.kind === 'exact' && !query.status.statuses.includes(entry.status)) return false;
  return true;
}

/** One line of a log file as an entry; null for a line that is not one (a torn or foreign line). */
export function parseEntry(line: string): RequestLogEntry | null {
  if (line.trim() === '') return null;
  try {
    const parsed = requestLogEntrySchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
