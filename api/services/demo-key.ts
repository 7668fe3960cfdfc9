/**
 * The demo key of a fresh install: on the store's first start, a key named after the site config's
 * demo key name ({key} in the specification) with blog:write, whose secret is given out once. The store
 * claims the issue before making the key, so of several instances starting at once only one makes it,
 * and remembers it, so later starts (even after the key is revoked) never create or show it again.
 *
 * Where the secret goes: on an interactive terminal, the screen. Anywhere else (systemd, a container,
 * anything whose output a log collector keeps) a file in DATA_DIR readable by the server's user only,
 * written once and never overwritten, which the log names: a secret never reaches a log.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteConfig } from '../../contract/site-config';
import type { ApiKeySummary } from '../../contract/keys';
import type { Services } from './services';

export interface DemoKey {
  key: ApiKeySummary;
  secret: string;
}

/** The new demo key and its secret, or null when the demo key was issued before. */
export async function issueDemoKey(services: Pick<Services, 'store' | 'keys' | 'clock'>, config: Pick<SiteConfig, 'demoKeyName'>): Promise<DemoKey | null> {
  const { store, keys, clock } = services;
  // Claimed before it is made: two instances starting at once on one database issue one key.
  if (!(await store.keys.claimDemoKey(clock()))) return null;
  return keys.create({ name: config.demoKeyName, permissions: ['blog:write'] }).catch(async (error: unknown) => {
    // Not issued after all: the next start tries again.
    await store.keys.markDemoKeyIssued(null);
    throw error;
  });
}

/** The file a non-interactive start writes the demo key's secret to. */
export function demoKeyFile(dataDir: string, key: Pick<ApiKeySummary, 'id'>): string {
  return path.join(dataDir, `demo-api-key-${key.id}.txt`);
}

const HOW_TO_USE = 'Send it as "Authorization: Bearer <key>". Manage keys with: npx blogpost keys list | create | revoke';

/**
 * The lines the start-up log shows for a new demo key: its secret itself only when `interactive` (a
 * person at a terminal); otherwise the secret is written to `demoKeyFile` (mode 0600) and only the
 * file's name is shown.
 */
export async function announceDemoKey(demo: DemoKey, where: { interactive: boolean; dataDir: string }): Promise<string[]> {
  const { key, secret } = demo;
  const made = `Created the demo API key "${key.name}" (id ${key.id}, permission blog:write).`;
  if (where.interactive) return [`${made} Its secret is shown only this once:`, '', `  ${secret}`, '', HOW_TO_USE];
  const file = demoKeyFile(where.dataDir, key);
  await mkdir(where.dataDir, { recursive: true });
  // 'wx': never over another file; 0600: the server's user only.
  await writeFile(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
  return [
    `${made} Its secret is not shown here, since this output is not a terminal and may be kept in a log: it is in ${file}, readable by this user only. Copy it where you keep secrets, then delete the file.`,
    HOW_TO_USE,
  ];
}
