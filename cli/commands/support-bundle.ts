/**
 * `blogpost support-bundle <request-id>`: one redacted JSON file support can attach to a ticket: the
 * request as the log holds it with diagnose's explanation, the key's state (never its secret or hash),
 * the post's history when the request touched a post, the version and the settings that matter
 * (COMPLIANCE_MODE, the limits, TRUST_PROXY, the engine). Every free-text value passes the request
 * log's redaction (secrets, e-mail addresses, phone numbers); the file is readable by its user only.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { POST_LIMITS } from '../../contract/blog';
import { loadServerEnv, redact, redactedUrl, redactSecretsAndEmails, type StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { CliError, ExitCode } from '../exit-codes';
import { VERSION } from '../version';
import { explainLogged, type LoggedRequest } from './explain-request';

export interface SupportBundleOptions {
  out?: string;
  force?: boolean;
  dataDir?: string;
  databaseUrl?: string;
  json?: boolean;
}

export const BUNDLE_FORMAT = 'blogpost-support-bundle';

/** Values that are ids, times and addresses by their field's name: kept as they are (their digits are no phone number). */
const KEPT_FIELDS: ReadonlySet<string> = new Set([
  'time', 'requestId', 'request_id', 'made_at', 'at', 'createdAt', 'lastUsedAt', 'revokedAt', 'lastFailedAt', 'generated_at', 'id', 'keyId', 'ip', 'method', 'code', 'client', 'format', 'version', 'engine',
  // The store's place: a data directory, or the database URL without its password (its user@host is no e-mail address).
  'store',
]);
/** Fields whose digits are versions, not phone numbers: only secrets and e-mail addresses are redacted. */
const VERSION_FIELDS: ReadonlySet<string> = new Set(['userAgent']);
const KEY_ACTOR = /^key:[0-9A-Za-z]{10}$/;

/** `value` with every free-text string redacted (secrets, e-mail addresses, phone numbers); numbers and ids kept. */
export function redactBundle(value: unknown, field = ''): unknown {
  if (typeof value === 'string') {
    if (KEPT_FIELDS.has(field) || KEY_ACTOR.test(value)) return value;
    return VERSION_FIELDS.has(field) ? redactSecretsAndEmails(value) : redact(value);
  }
  if (Array.isArray(value)) return value.map((item) => redactBundle(item, field));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, redactBundle(member, name)]));
  return value;
}

/** The settings the server reads from the environment this command runs in. */
async function settingsOf(env: NodeJS.ProcessEnv, location: StoreLocation): Promise<Record<string, unknown>> {
  const engine = location.kind === 'sqlite' ? { engine: 'sqlite', store: location.dataDir } : { engine: 'postgres', store: redactedUrl(location.url) };
  try {
    const { readServerEnv } = await loadServerEnv();
    const server = readServerEnv(env);
    return {
      source: "this command's environment (run it with the server's environment to see the server's settings)",
      ...engine,
      COMPLIANCE_MODE: server.complianceMode,
      TRUST_PROXY: server.trustProxy,
      CORS_ORIGINS: server.corsOrigins,
      RATE_LIMIT_WRITES_PER_MINUTE: server.writesPerMinute,
      RATE_LIMIT_VALIDATIONS_PER_MINUTE: server.validationsPerMinute,
      MEDIA_MAX_BYTES: server.mediaMaxBytes,
      body_limit_bytes: POST_LIMITS.bodyMaxBytes,
      REQUEST_LOG_RETENTION_DAYS: server.requestLogRetentionDays,
    };
  } catch (error) {
    // A setting the server would refuse is worth knowing too: named, not fatal to the bundle.
    return { source: "this command's environment", ...engine, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The key's state: never its secret or its hash (KeyDetails holds neither). */
function keyState(logged: LoggedRequest): Record<string, unknown> | null {
  const { key } = logged.found;
  if (!logged.entry.keyId) return null;
  if (!key) return { id: logged.entry.keyId, status: 'not in this store' };
  return {
    id: key.id,
    name: key.name,
    owner: key.owner,
    status: key.revokedAt ? 'revoked' : 'active',
    permissions: key.permissions,
    createdAt: key.createdAt,
    lastUsedAt: key.lastUsedAt,
    revokedAt: key.revokedAt,
    revokedBy: key.revokedBy,
    revokeReason: key.revokeReason,
  };
}

export async function buildBundle(logged: LoggedRequest, env: NodeJS.ProcessEnv, now: Date): Promise<Record<string, unknown>> {
  const { entry, explanation, found } = logged;
  return redactBundle({
    format: BUNDLE_FORMAT,
    version: 1,
    generated_at: now.toISOString(),
    request_id: entry.requestId,
    server: { version: VERSION },
    settings: await settingsOf(env, logged.location),
    request: entry,
    diagnosis: explanation,
    key: keyState(logged),
    post: found.history,
  }) as Record<string, unknown>;
}

export async function supportBundleCommand(requestId: string, options: SupportBundleOptions, ctx: CommandContext): Promise<ExitCode> {
  if (options.dataDir && options.databaseUrl) throw new CliError('Pass --data-dir or --database-url, not both: the request log is in the data directory, the keys and posts in the store.', ExitCode.Usage);
  const logged = await explainLogged(requestId, options, ctx);
  const bundle = await buildBundle(logged, ctx.io.env, new Date());
  const file = path.resolve(ctx.io.cwd, options.out ?? `support-bundle-${logged.entry.requestId}.json`);
  try {
    writeFileSync(file, `${JSON.stringify(bundle, null, 2)}\n`, { mode: 0o600, flag: options.force ? 'w' : 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new CliError(`${file} exists: choose another --out, or add --force to replace it.`, ExitCode.Usage);
    throw new CliError(`Cannot write ${file}: ${(error as Error).message}`, ExitCode.Local);
  }
  if (options.json) ctx.out.json({ success: true, file, request_id: logged.entry.requestId });
  else {
    ctx.out.success(`Wrote ${file}: request ${logged.entry.requestId} (${logged.entry.method} ${logged.entry.path}, ${logged.entry.status}), redacted.`);
    ctx.out.info('Read it before you send it: secrets, e-mail addresses and phone numbers are replaced, the rest (paths, key ids, the post\'s titles) is as logged.');
  }
  return ExitCode.Ok;
}
