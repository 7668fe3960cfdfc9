/**
 * `blogpost keys create|list|revoke`: manages API keys in the store the servers use (the SQLite
 * database of a data directory, or PostgreSQL: see cli/data-dir.ts), so a running server sees the
 * change at once. Each key has an
 * owner (default: its name): a blog:write key changes only posts made by keys of its owner, a
 * blog:admin key any post. A key's secret is printed once, on stdout, when it is created; the store
 * keeps only its hash. A revocation records who (`cli:<user>`) and why. Creating and revoking a key
 * are written to the same store's audit log too (`blogpost audit`).
 */
import { userInfo } from 'node:os';
import { type ApiPermission } from '../../contract/keys';
import { ghostSecret, type KeyDetails, KeyError, KeyService, type StoreLocation } from '../../api/operations';
import type { CommandContext } from '../context';
import { type LocationOptions, placeOf, storeLocationOf, withExistingStoreAt, withStoreAt } from '../data-dir';
import { CliError, ExitCode } from '../exit-codes';
import { table } from '../output';
import { appendAudit, type AuditTarget, storeAuditTarget } from './audit';

export interface DataDirOptions extends LocationOptions {
  json?: boolean;
}

export interface RevokeOptions extends DataDirOptions {
  reason?: string;
}

export interface CreateOptions extends DataDirOptions {
  name: string;
  owner?: string;
  permission?: ApiPermission[];
  ghost?: boolean;
}

/**
 * Opens the keys and the audit log of the store at `location` (null when a data directory has no
 * store yet and `create` is false; `create` makes one), turning store problems into exit code 4 and
 * key rule violations into 1 or 2.
 */
async function withKeys<T>(location: StoreLocation, create: boolean, work: (keys: KeyService, audit: AuditTarget, ghostSecretOf: (id: string) => Promise<string>) => Promise<T>): Promise<T | null> {
  const open = create ? withStoreAt : withExistingStoreAt;
  try {
    return await open(location, (store) => work(new KeyService(store.keys), storeAuditTarget(store, location), async (id) => ghostSecret(await store.audit.pseudonymKey(), id)));
  } catch (error) {
    if (error instanceof KeyError) {
      const usage = error.problem === 'invalid_name' || error.problem === 'no_permissions';
      throw new CliError(error.message, usage ? ExitCode.Usage : ExitCode.Failed);
    }
    throw error;
  }
}

function minute(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function status(key: KeyDetails): string {
  if (!key.revokedAt) return 'active';
  const by = key.revokedBy ? ` by ${key.revokedBy}` : '';
  return `revoked ${minute(key.revokedAt)}${by}: ${key.revokeReason ? `"${key.revokeReason}"` : 'no reason given'}`;
}

function lastFailure(key: KeyDetails): string {
  return key.lastFailedAt ? `${minute(key.lastFailedAt)} ${key.lastFailureCode ?? ''}`.trimEnd() : 'never';
}

/** Who runs this command, as a revocation records it. */
export function cliUser(env: Record<string, string | undefined>): string {
  let name: string | undefined;
  try {
    name = userInfo().username;
  } catch {
    name = env.USER ?? env.USERNAME;
  }
  return `cli:${name?.trim() || 'unknown'}`;
}

export async function createKeyCommand(options: CreateOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const where = placeOf(location);
  const permissions = options.permission?.length ? options.permission : (['blog:write'] as ApiPermission[]);
  const outcome = await withKeys(location, true, async (keys, audit, ghostSecretOf) => {
    const input = { name: options.name, permissions, ...(options.owner ? { owner: options.owner } : {}) };
    const made = options.ghost ? await keys.createGhost(input, ghostSecretOf) : await keys.create(input);
    const { key } = made;
    const code = await appendAudit(audit, ctx, {
      actor: cliUser(ctx.io.env),
      action: 'key.created',
      target: key.id,
      detail: { name: key.name, owner: key.owner, permissions: key.permissions.join(','), ...(options.ghost ? { kind: 'ghost' } : {}) },
    });
    return { created: made, audited: code };
  });
  if (!outcome) throw new CliError(`Cannot open the data directory ${where}.`, ExitCode.Local);
  const { created, audited } = outcome;
  if (options.json) {
    ctx.out.json({ success: true, key: created.key, secret: created.secret });
    return audited;
  }
  ctx.out.success(`Created API key "${created.key.name}" (id ${created.key.id}) for owner "${created.key.owner}" with ${created.key.permissions.join(', ')} in ${where}.`);
  ctx.out.info(
    created.key.permissions.includes('blog:admin')
      ? '  It may change every post (blog:admin).'
      : `  Its posts are shared with every key of owner "${created.key.owner}"; posts of other owners need blog:admin to change.`,
  );
  if (options.ghost) {
    ctx.out.info("  A Ghost Admin API key: paste it into the writing app's Ghost settings (iA Writer, Ulysses, Obsidian) with the site's URL.");
    ctx.out.info('  Copy the key below now: it is shown only this once (the server keeps no copy of it).');
    ctx.out.data(created.secret);
    return audited;
  }
  ctx.out.info('  Copy the key below now: it is shown only this once (the server keeps just a hash).');
  ctx.out.info('  Send it as: Authorization: Bearer <key>');
  ctx.out.data(created.secret);
  return audited;
}

export async function listKeysCommand(options: DataDirOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const keys = (await withKeys(location, false, (service) => service.details())) ?? [];
  if (options.json) {
    ctx.out.json(keys);
    return ExitCode.Ok;
  }
  if (keys.length === 0) {
    ctx.out.info(`No API keys in ${placeOf(location)}. Create one with: blogpost keys create --name NAME`);
    return ExitCode.Ok;
  }
  const rows = [
    ['ID', 'NAME', 'OWNER', 'PERMISSIONS', 'CREATED', 'LAST USED', 'LAST FAILURE', 'STATUS', 'KIND'],
    ...keys.map((key) => [key.id, key.name, key.owner, key.permissions.join(','), key.createdAt.slice(0, 10), key.lastUsedAt ? minute(key.lastUsedAt) : 'never', lastFailure(key), status(key), key.kind]),
  ];
  ctx.out.data(table(rows));
  return ExitCode.Ok;
}

export async function revokeKeyCommand(idOrName: string, options: RevokeOptions, ctx: CommandContext): Promise<ExitCode> {
  const location = storeLocationOf(options, ctx);
  const outcome = await withKeys(location, false, async (keys, audit) => {
    const revoked = await keys.revoke(idOrName, { by: cliUser(ctx.io.env), reason: options.reason });
    const code = revoked.alreadyRevoked
      ? ExitCode.Ok
      : await appendAudit(audit, ctx, {
          actor: revoked.key.revokedBy ?? cliUser(ctx.io.env),
          action: 'key.revoked',
          target: revoked.key.id,
          detail: { name: revoked.key.name, reason: revoked.key.revokeReason },
        });
    return { result: revoked, audited: code };
  });
  if (!outcome) throw new CliError(`No API keys in ${placeOf(location)}, so there is no "${idOrName}" to revoke.`, ExitCode.Failed);
  const { result, audited } = outcome;
  if (options.json) {
    ctx.out.json({ success: true, key: result.key, alreadyRevoked: result.alreadyRevoked });
    return audited;
  }
  if (result.alreadyRevoked) ctx.out.warn(`Key "${result.key.name}" (id ${result.key.id}) was already ${status(result.key)}.`);
  else ctx.out.success(`Revoked key "${result.key.name}" (id ${result.key.id}) as ${result.key.revokedBy ?? 'unknown'}: ${result.key.revokeReason ? `"${result.key.revokeReason}"` : 'no reason given'}. Requests with it now get 401.`);
  return audited;
}
