/**
 * The demo key of a fresh install: on the store's first start, a key named after the site config's
 * demo key name ({key} in the specification) with blog:write, whose secret is announced once. The store
 * claims the issue before making the key, so of several instances starting at once only one makes it,
 * and remembers it, so later starts (even after the key is revoked) never create or show it again.
 */
import type { SiteConfig } from '../../contract/site-config';
import type { Services } from './services';

/** The lines announcing the new key's secret, or null when the demo key was issued before. */
export async function issueDemoKey(services: Pick<Services, 'store' | 'keys' | 'clock'>, config: Pick<SiteConfig, 'demoKeyName'>): Promise<string[] | null> {
  const { store, keys, clock } = services;
  // Claimed before it is made: two instances starting at once on one database issue one key.
  if (!(await store.keys.claimDemoKey(clock()))) return null;
  const { key, secret } = await keys
    .create({ name: config.demoKeyName, permissions: ['blog:write'] })
    .catch(async (error: unknown) => {
      // Not issued after all: the next start tries again.
      await store.keys.markDemoKeyIssued(null);
      throw error;
    });
  return [
    `Created the demo API key "${key.name}" (id ${key.id}, permission blog:write). Its secret is shown only this once:`,
    '',
    `  ${secret}`,
    '',
    'Send it as "Authorization: Bearer <key>". Manage keys with: npx blogpost keys list | create | revoke',
  ];
}
