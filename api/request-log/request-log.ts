/**
 * The request log's seam: one entry per /api/* request, what the writer takes and the reader answers.
 * The embedded store keeps it in daily JSON-lines files (file-writer.ts, file-reader.ts); a database
 * can implement the same two interfaces and index it. The CLI reaches the reader through
 * api/operations.ts.
 */
import { z } from 'zod';

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
