/**
 * What `blogpost diagnose` knows of an API key beyond its shape: first from a data directory that
 * holds it (read only, nothing recorded), else from the server's validation endpoint. Prints the
 * finding once, with what the integrator can do about it.
 */
import path from 'node:path';
import { checkApiKey } from '../contract/keys';
import { hashApiKey, resolveDataDir, StoreError } from '../api/operations';
import { checkKeyWithServer, type KeyStatus } from '../harness/key-check';
import { fetchTransport } from '../harness/transport';
import type { CommandContext } from './context';
import { readDataDirStore } from './data-dir';

export interface KeyLookup {
  apiKey: string;
  /** --data-dir as given (else DATA_DIR, else the project's data/). */
  dataDir?: string | undefined;
  /** The site to ask when no data directory holds the key; none: do not ask. */
  origin?: string | undefined;
}

/** The key's record in the data directory; undefined when the directory does not hold it. */
async function fromDataDir(apiKey: string, dataDir: string): Promise<KeyStatus | undefined> {
  const shape = checkApiKey(apiKey);
  if (!shape.ok) return undefined;
  let record;
  try {
    record = await readDataDirStore(dataDir, (store) => store.keys.findById(shape.publicId));
  } catch (error) {
    if (error instanceof StoreError) return { state: 'unchecked', reason: error.message };
    throw error;
  }
  if (!record) return undefined;
  const source = `the data directory ${dataDir}`;
  if (record.hash !== hashApiKey(apiKey)) return { state: 'unknown', source };
  if (record.revokedAt !== null) return { state: 'revoked', source, revokedAt: record.revokedAt };
  if (!record.permissions.includes('blog:write')) return { state: 'lacks_write', source, permissions: [...record.permissions] };
  return { state: 'active', source, permissions: [...record.permissions] };
}

export async function lookUpKey(lookup: KeyLookup, ctx: CommandContext): Promise<KeyStatus> {
  const dataDir = lookup.dataDir ? path.resolve(ctx.io.cwd, lookup.dataDir) : resolveDataDir(ctx.io.env);
  const local = await fromDataDir(lookup.apiKey, dataDir);
  if (local) return local;
  if (!lookup.origin) return { state: 'unchecked', reason: `the data directory ${dataDir} does not hold this key, and the server was not asked` };
  return ctx.out.spin('Checking the key with the server', () => checkKeyWithServer(lookup.origin ?? '', lookup.apiKey, fetchTransport('node')));
}

const ASK_ADMIN = "Ask the site's administrator for a new key with blog:write.";

/** One line for the key's status, and what to do when it cannot write. */
export function reportKeyStatus(status: KeyStatus, ctx: CommandContext): void {
  const { out } = ctx;
  switch (status.state) {
    case 'active':
      out.success(`API key: active, holds blog:write (checked with ${status.source}).`);
      return;
    case 'revoked':
      out.error(`API key: the key is revoked${status.revokedAt ? ` (since ${status.revokedAt})` : ''}, so every request with it is refused (checked with ${status.source}).`);
      out.info(`  → ${ASK_ADMIN} A revoked key stays revoked.`);
      return;
    case 'lacks_write':
      out.error(`API key: the key lacks blog:write${status.permissions ? ` (it holds ${status.permissions.join(', ') || 'nothing'})` : ''}, so it cannot create posts (checked with ${status.source}).`);
      out.info(`  → ${ASK_ADMIN} A key's permissions are set when it is made.`);
      return;
    case 'unknown':
      out.error(`API key: the site does not recognise this key (checked with ${status.source}).`);
      out.info("  → Check that the key belongs to this site (--url), and copy it again in full from where it was first shown.");
      out.info(`  → ${ASK_ADMIN}`);
      return;
    case 'unchecked':
      out.warn(`API key: its status (active, revoked, permissions) is not known: ${status.reason}.`);
  }
}
