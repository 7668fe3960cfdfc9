/**
 * The tests `npm run mutate` runs against each mutant (stryker.config.mjs): the unit tests, and the
 * behaviour tests over real HTTP that guard keys, permissions, the sanitiser, the store's durability,
 * idempotency, rate limits, CORS, the feeds, staff sessions and CSRF, and the compliance gate. Not the browser or CLI process tests: a mutant in the
 * sandbox is reached through the modules these tests import, not through the built bundle.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      '{contract,web,api,cli,harness}/**/*.test.{ts,tsx}',
      'tests/api/{create-post,xss,durability,keys-at-rest,rate-limits,protocol,malformed-requests,admin-guidance,errors,reads,concurrency,startup,staff-security,compliance,compliance-review}.test.ts',
      'tests/content/compliance.test.ts',
    ],
    environment: 'node',
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
