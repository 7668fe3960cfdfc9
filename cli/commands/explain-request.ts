/**
 * `blogpost diagnose <request-id>`: finds a request in the server's request log (data directory) and
 * explains it with the error catalogue: what happened, the cause, the fix for the client it came from,
 * and the key it named (for a revoked key: when, by whom and why). A request id that is not in the log
 * says where it looked and how far back the log goes.
 */
import type { ClientKind } from '../../contract/clients';
import { catalogueEntry, guidanceFor, isErrorCode } from '../../contract/errors';
import { FIELD_MAPPINGS, FOREIGN_PLATFORMS, type ForeignPlatform, mappingLines, PLATFORM_NAMES } from '../../contract/foreign-shapes';
import { isKeyMistake, KEY_MISTAKE_CAUSES, keyMistakeFixes } from '../../contract/key-mistakes';
import { type KeyDetails, KeyService, openRequestLogReader, type RequestLogEntry, StoreError } from '../../api/operations';
import type { CommandContext } from '../context';
import { readDataDirStore } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { CLIENT_KINDS } from '../../contract/clients';
import { logsDataDir } from './logs';

export interface ExplainRequestOptions {
  dataDir?: string;
  json?: boolean;
  /** diagnose's other mode; refused beside a request id. */
  request?: string;
}

interface Explanation {
  summary: string;
  cause: string[];
  fix: string[];
}

function isClientKind(value: string): value is ClientKind {
  return (CLIENT_KINDS as readonly string[]).includes(value);
}

async function findKey(dataDir: string, id: string): Promise<KeyDetails | null> {
  try {
    return await readDataDirStore(dataDir, async (store) => (await new KeyService(store.keys).find(id)) ?? null);
  } catch (error) {
    if (error instanceof StoreError) return null;
    throw error;
  }
}

function when(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}

/** What the key the request named says about its failure. */
function keyFindings(entry: RequestLogEntry, key: KeyDetails | null): string[] {
  if (!entry.keyId) return [];
  if (!key) return [`The request named key ${entry.keyId}, which is not in this data directory (a key of another installation, or a mistyped id).`];
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

function explain(entry: RequestLogEntry, key: KeyDetails | null): Explanation {
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
  const cause = [`${catalogue.title}: ${revoked ? 'the key has been revoked.' : catalogue.message}`, ...(specific?.cause ?? []), ...keyFindings(entry, key)];
  // With a specific finding its fix leads; the catalogue's general lines follow, once.
  const fix = [...(specific?.fix ?? []), ...guidanceFor(entry.code, client).filter((line) => !specific?.fix.includes(line))];
  if (revoked || entry.code === 'insufficient_permissions') fix.push('As the administrator: blogpost keys create --name NAME --permission blog:write, and send the integrator the new key.');
  return { summary, cause, fix };
}

export async function explainRequestCommand(requestId: string, options: ExplainRequestOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.request !== undefined) {
    throw new CliError(`Pass either a request id (explained from the request log) or --request <file> (a captured request), not both.`, ExitCode.Usage);
  }
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
  const key = entry.keyId ? await findKey(dataDir, entry.keyId) : null;
  const explanation = explain(entry, key);
  if (options.json) {
    ctx.out.json({ request: entry, key, ...explanation });
    return ExitCode.Ok;
  }
  const { out } = ctx;
  out.data(`Request ${entry.requestId}: ${explanation.summary}`);
  if (explanation.cause.length > 0) out.data(['Cause:', ...explanation.cause.map((line) => `  ${line}`)].join('\n'));
  if (explanation.fix.length > 0) out.data(['Fix:', ...explanation.fix.map((line) => `  → ${line}`)].join('\n'));
  if (entry.body !== undefined) out.data(['Body (first 4 KB, secrets and personal data redacted):', `  ${entry.body}`].join('\n'));
  return ExitCode.Ok;
}
