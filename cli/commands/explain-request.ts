/**
 * `blogpost diagnose <request-id>`: finds a request in the server's request log (data directory) and
 * explains it with the error catalogue: what happened, the cause, the fix for the client it came from,
 * and the key it named (for a revoked key: when, by whom and why). What the log recorded about the
 * answer adds the specifics: the limit that applied to a 413, 415, 429 or 503 and when a wait ends,
 * and for a 412 the fields changed since the revision sent, by whom and when (the post's history read
 * from the store). A request id that is not in the log says where it looked and how far back the log goes.
 */
import type { ClientKind } from '../../contract/clients';
import { catalogueEntry, guidanceFor, isErrorCode } from '../../contract/errors';
import { FIELD_MAPPINGS, FOREIGN_PLATFORMS, type ForeignPlatform, mappingLines, PLATFORM_NAMES } from '../../contract/foreign-shapes';
import { isKeyMistake, KEY_MISTAKE_CAUSES, keyMistakeFixes } from '../../contract/key-mistakes';
import { type KeyDetails, KeyService, openRequestLogReader, type PostHistory, postHistory, type RequestLogEntry, type Store, StoreError, type StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { openCliStore, storeExists, storeLocationOf } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { CLIENT_KINDS } from '../../contract/clients';
import { logsDataDir } from './logs';

export interface ExplainRequestOptions {
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
  /** diagnose's other mode; refused beside a request id. */
  request?: string;
}

export interface Explanation {
  summary: string;
  cause: string[];
  fix: string[];
}

function isClientKind(value: string): value is ClientKind {
  return (CLIENT_KINDS as readonly string[]).includes(value);
}

/**
 * Reads from the store the log's data directory (or DATABASE_URL) names, without making one: null when
 * there is none, or it cannot be opened (the log alone still explains the request).
 */
export async function readStoreAt<T>(location: StoreLocation, work: (store: Store) => Promise<T>): Promise<T | null> {
  if (!storeExists(location)) return null;
  try {
    const store = await openCliStore(location);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  } catch (error) {
    if (error instanceof StoreError || error instanceof CliError) return null;
    throw error;
  }
}

/** What the store adds to a logged request: the key it named, a 412's post history, and the names of the keys in it. */
export interface StoreFacts {
  key: KeyDetails | null;
  history: PostHistory | null;
  keyNames: Map<string, string>;
}

export async function storeFacts(location: StoreLocation, entry: RequestLogEntry): Promise<StoreFacts> {
  const found = await readStoreAt(location, async (store) => {
    const keys = new KeyService(store.keys);
    const key = entry.keyId ? ((await keys.find(entry.keyId)) ?? null) : null;
    const postId = entry.facts?.post?.id ?? postIdOfPath(entry.path);
    const history = postId ? await postHistory(store.posts, postId) : null;
    const keyNames = new Map<string, string>();
    for (const version of history?.versions ?? []) {
      const id = version.made_by?.startsWith('key:') ? version.made_by.slice(4) : null;
      if (id && !keyNames.has(id)) {
        const named = await keys.find(id);
        if (named) keyNames.set(id, named.name);
      }
    }
    return { key, history, keyNames };
  });
  return found ?? { key: null, history: null, keyNames: new Map() };
}

/** The post a request's path names (/api/blog/<id or slug>[/...]), when it names one. */
export function postIdOfPath(path: string): string | null {
  const match = /^\/api\/blog\/([^/]+)/.exec(path);
  const id = match?.[1];
  return id && id !== 'validate' && id !== 'categories' ? decodeURIComponent(id) : null;
}

function when(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** What the key the request named says about its failure. */
function keyFindings(entry: RequestLogEntry, key: KeyDetails | null): string[] {
  if (!entry.keyId) return [];
  if (!key) return [`The request named key ${entry.keyId}, which is not in this store (a key of another installation, a mistyped id, or the wrong --data-dir or --database-url).`];
  const named = `Key "${key.name}" (id ${key.id})`;
  if (key.revokedAt) {
    const by = key.revokedBy ? ` by ${key.revokedBy}` : '';
    const reason = key.revokeReason ? `"${key.revokeReason}"` : 'no reason given';
    const before = Date.parse(entry.time) < Date.parse(key.revokedAt) ? ' (after this request)' : '';
    return [`${named} was revoked on ${when(key.revokedAt)}${by}${before}: ${reason}.`];
  }
  if (entry.code === 'invalid_api_key') return [`${named} exists and is active, so the secret sent with its id did not match: an old or mistyped copy of the key.`];
  if (entry.code === 'insufficient_permissions') return [`${named} holds ${key.permissions.join(', ')}.`];
  return [`${named} is active, with ${key.permissions.join(', ')}.`];
}

function isForeignPlatform(value: string | undefined): value is ForeignPlatform {
  return value !== undefined && (FOREIGN_PLATFORMS as readonly string[]).includes(value);
}

/**
 * The lines the log's own findings add: how the key was sent wrong, which platform the body was
 * shaped for, what the HTTP parser refused. They come before the catalogue's general guidance,
 * because they are about this request and the catalogue is about every request with its code.
 */
function specificFindings(entry: RequestLogEntry, client: ClientKind): Explanation | null {
  const cause: string[] = [];
  const fix: string[] = [];
  if (entry.refusal) cause.push(`${entry.refusal} The app never saw the request, so no body was read.`);
  if (isKeyMistake(entry.keyMistake)) {
    cause.push(KEY_MISTAKE_CAUSES[entry.keyMistake]);
    fix.push(...keyMistakeFixes(entry.keyMistake, client, entry.userAgent));
  }
  if (isForeignPlatform(entry.bodyShape)) {
    cause.push(`The body was shaped for ${PLATFORM_NAMES[entry.bodyShape]}, not this API: the post was there, under that platform's field names.`);
    fix.push("Send one flat JSON object with this API's fields, mapped as follows:", ...mappingLines({ mapping: FIELD_MAPPINGS[entry.bodyShape] }).map((line) => `  ${line}`));
  }
  return cause.length > 0 ? { summary: '', cause, fix } : null;
}

/** Who made a version, in words: the key's name when the store knows it. */
function madeBy(by: string | null, keyNames: ReadonlyMap<string, string>): string {
  if (!by) return 'someone (not recorded)';
  if (by.startsWith('key:')) {
    const name = keyNames.get(by.slice(4));
    return name ? `key "${name}" (${by.slice(4)})` : `key ${by.slice(4)}`;
  }
  if (by.startsWith('staff:')) return `staff member ${by.slice(6)}`;
  return by === 'scheduler' ? 'the scheduler' : by;
}

function bytes(count: number): string {
  const mb = count / (1024 * 1024);
  // Thousands separated: a support bundle's redaction takes a run of seven digits for a phone number.
  const exact = `${count.toLocaleString('en-US')} bytes`;
  return mb >= 1 ? `${exact} (${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB)` : exact;
}

function plus(iso: string, seconds: number): string {
  return when(new Date(Date.parse(iso) + seconds * 1000).toISOString());
}

/** The 412's cause and fix: the revision sent, what changed since, who changed it and when, and how to recover. */
function conflictLines(entry: RequestLogEntry, found: StoreFacts): Explanation {
  const post = entry.facts?.post;
  const cause: string[] = [];
  const fix: string[] = [];
  const history = found.history;
  const id = post?.id ?? history?.post.id ?? postIdOfPath(entry.path) ?? '<post id>';
  if (post) {
    cause.push(
      post.yourRevision === null
        ? `The If-Match named another post's version, not one of this post (${id}), which was at revision ${post.currentRevision}.`
        : `The change was made from revision ${post.yourRevision} (the If-Match sent); the post was at revision ${post.currentRevision}.`,
    );
    if (post.changed && post.changed.length > 0) cause.push(`Changed since revision ${post.yourRevision}: ${post.changed.join(', ')}.`);
    for (const conflict of post.conflicts ?? []) {
      cause.push(`${conflict.field} was changed by this request and, since, by ${madeBy(conflict.by, found.keyNames)} on ${when(conflict.at)} (revision ${conflict.revision}).`);
    }
  }
  const since = post?.yourRevision ?? null;
  const later = history?.versions.filter((version) => since !== null && version.revision > since && version.revision <= (post?.currentRevision ?? Infinity)) ?? [];
  if (later.length > 0) {
    cause.push(`The post's history since revision ${since}:`);
    for (const version of [...later].reverse()) {
      const what = version.fields.length > 0 ? `changed ${version.fields.join(', ')}` : 'saved again';
      cause.push(`  revision ${version.revision}: ${what}, by ${madeBy(version.made_by, found.keyNames)} on ${when(version.made_at)}${version.why ? ` (why: ${version.why})` : ''}.`);
    }
  } else if (!history) cause.push("The post's history is not in this store (pass the server's --data-dir, or --database-url).");
  const slug = history?.post.slug ?? id;
  fix.push(
    `Pull the current version and apply the change to it: blogpost get ${slug} --markdown --output post.md, edit it, then blogpost publish post.md (it sends the current revision as If-Match).`,
    'The merge rules: a change made from an older revision is applied on top of what others changed since when it changes other fields; it is refused with this 412 only when it changes a field someone else changed since to another value.',
    `From the API: GET /api/blog/${id} gives the current ETag; send the change again with If-Match: <that ETag>. GET /api/blog/${id}/revisions lists who changed what.`,
  );
  return { summary: '', cause, fix };
}

/** The limit that applied to a 413, 415, 429 or 503, and when a wait ends, from what the log recorded. */
function limitLines(entry: RequestLogEntry): string[] {
  const facts = entry.facts;
  if (!facts) return [];
  const lines: string[] = [];
  if (facts.limitBytes !== undefined) {
    lines.push(`The limit that applied: ${bytes(facts.limitBytes)}${entry.bodyBytes > 0 ? `; this request's body had ${bytes(entry.bodyBytes)}` : ''}.`);
  }
  if (facts.contentType !== undefined) lines.push(facts.contentType === null ? 'The request had no Content-Type header.' : `The request was sent with Content-Type ${facts.contentType}.`);
  if (facts.charset) lines.push(`The body was declared as charset ${facts.charset}.`);
  if (facts.contentEncoding) lines.push(`The body was compressed (Content-Encoding ${facts.contentEncoding}).`);
  if (facts.detected) lines.push(`Its bytes were found to be ${facts.detected}.`);
  if (facts.accepted) lines.push(`This endpoint takes: ${facts.accepted.join(', ')}.`);
  if (facts.rateLimit) {
    const limit = facts.rateLimit;
    lines.push(
      `The limit that applied: ${limit.perWindow} ${limit.name} per ${limit.windowSeconds} seconds per key${limit.name === 'validations' ? ' (per address for a request without one)' : ''}, refilled evenly over the window.`,
      `It allowed the next request ${limit.retryAfterSeconds} seconds later, from ${plus(entry.time, limit.retryAfterSeconds)}; with no requests meanwhile the whole allowance is back by ${plus(entry.time, limit.windowSeconds)}.`,
    );
  }
  if (facts.retryAfterSeconds !== undefined) lines.push(`The answer asked to retry after ${facts.retryAfterSeconds} seconds (Retry-After), from ${plus(entry.time, facts.retryAfterSeconds)}.`);
  return lines;
}

function explain(entry: RequestLogEntry, found: StoreFacts): Explanation {
  const key = found.key;
  const client = isClientKind(entry.client) ? entry.client : 'unknown';
  const from = client === 'unknown' ? (entry.userAgent ? `an unrecognised client (${entry.userAgent})` : 'a client without a User-Agent') : `${client}${entry.userAgent ? ` (${entry.userAgent})` : ''}`;
  const outcome = entry.code ? `${entry.status} ${entry.code}` : String(entry.status);
  const summary = `${entry.method} ${entry.path} answered ${outcome} on ${when(entry.time)}, from ${from}${entry.keyId ? ` with key ${entry.keyId}` : ''}.`;
  if (!entry.code || !isErrorCode(entry.code)) {
    return { summary, cause: entry.status < 400 ? ['The request succeeded.'] : [`The server answered ${entry.status} without a catalogue code.`], fix: [] };
  }
  const catalogue = catalogueEntry(entry.code);
  const revoked = key?.revokedAt && entry.code === 'invalid_api_key';
  const specific = specificFindings(entry, client);
  const conflict = entry.code === 'precondition_failed' ? conflictLines(entry, found) : null;
  // The catalogue's message names the default size limit; the limit the log recorded is the one that applied.
  const message = revoked ? 'the key has been revoked.' : entry.facts?.limitBytes !== undefined ? 'the request was larger than the limit that applied (below).' : catalogue.message;
  const cause = [`${catalogue.title}: ${message}`, ...(specific?.cause ?? []), ...(conflict?.cause ?? []), ...limitLines(entry), ...keyFindings(entry, key)];
  if (entry.status >= 500 && entry.code === 'server_error') {
    cause.push(`The server's own log (its standard error: the journal of its service) holds the error and its stack under ${entry.requestId}.`);
  }
  // With a specific finding its fix leads; the catalogue's general lines follow, once.
  const first = [...(specific?.fix ?? []), ...(conflict?.fix ?? [])];
  const fix = [...first, ...guidanceFor(entry.code, client).filter((line) => !first.includes(line))];
  if (revoked || entry.code === 'insufficient_permissions') fix.push('As the administrator: blogpost keys create --name NAME --permission blog:write, and send the integrator the new key.');
  if (entry.code === 'server_error') fix.push(`As the operator: find ${entry.requestId} in the server's log (journalctl -u <the site's service> | grep ${entry.requestId}) for the error and its stack.`);
  return { summary, cause, fix };
}

/** A logged request with what the store adds and its explanation. */
export interface LoggedRequest {
  entry: RequestLogEntry;
  found: StoreFacts;
  explanation: Explanation;
  /** The store it was explained with. */
  location: StoreLocation;
}

/**
 * Finds a request in the log of the data directory the options name and explains it; an id the log
 * does not hold ends the command (exit code 1) saying where it looked and how far back the log goes.
 */
export async function explainLogged(requestId: string, options: ExplainRequestOptions, ctx: CommandContext): Promise<LoggedRequest> {
  const dataDir = logsDataDir(options, ctx);
  const reader = openRequestLogReader(dataDir);
  const [entry] = await reader.find({ requestId: requestId.trim(), limit: 1 });
  if (!entry) {
    const extent = await reader.extent();
    const reach = extent.oldest
      ? `it holds requests from ${when(extent.oldest)} to ${when(extent.newest ?? extent.oldest)}; older files are deleted after REQUEST_LOG_RETENTION_DAYS days, 14 by default`
      : 'it holds no requests yet';
    throw new CliError(
      `No request ${requestId} in the request log at ${extent.location} (${reach}). Check the id (the X-Request-Id header, or request_id in the error body) and pass the server's data directory with --data-dir.`,
      ExitCode.Failed,
    );
  }
  const location = storeLocationOf(options.dataDir ? { dataDir } : { ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}) }, ctx);
  const found = await storeFacts(location, entry);
  return { entry, found, explanation: explain(entry, found), location };
}

export async function explainRequestCommand(requestId: string, options: ExplainRequestOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.request !== undefined) {
    throw new CliError(`Pass either a request id (explained from the request log) or --request <file> (a captured request), not both.`, ExitCode.Usage);
  }
  const { entry, found, explanation } = await explainLogged(requestId, options, ctx);
  const { key } = found;
  if (options.json) {
    ctx.out.json({ request: entry, key, ...(found.history ? { post: found.history } : {}), ...explanation });
    return ExitCode.Ok;
  }
  const { out } = ctx;
  out.data(`Request ${entry.requestId}: ${explanation.summary}`);
  if (explanation.cause.length > 0) out.data(['Cause:', ...explanation.cause.map((line) => `  ${line}`)].join('\n'));
  if (explanation.fix.length > 0) out.data(['Fix:', ...explanation.fix.map((line) => `  → ${line}`)].join('\n'));
  if (entry.body !== undefined) out.data(['Body (first 4 KB, secrets and personal data redacted):', `  ${entry.body}`].join('\n'));
  return ExitCode.Ok;
}
