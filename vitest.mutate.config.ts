/**
 * The tests `npm run mutate` runs against each mutant (stryker.config.mjs): the unit tests, and the
 * behaviour tests over real HTTP that guard keys, permissions, the sanitiser, the store's durability,
 * idempotency, rate limits, CORS, the feeds, staff sessions and CSRF, and the compliance gate. Not the
 * browser or CLI process tests: a mutant in the sandbox is reached through the modules these tests
 * import, not through the built bundle.
 *
 * MUTATE_TESTS (comma-separated globs) narrows the tests to one module's, for a run of that module
 * alone: `MUTATE_TESTS=contract/compliance.test.ts npm run mutate -- --mutate contract/compliance.ts`.
 * Without a test over real HTTP among them, the site is not built first.
 */
import { defineConfig } from 'vitest/config';

const ALL_TESTS = [
  '{contract,web,api,cli,harness}/**/*.test.{ts,tsx}',
  'tests/api/{create-post,xss,durability,keys-at-rest,rate-limits,protocol,malformed-requests,admin-guidance,errors,reads,concurrency,startup,staff-security,compliance,compliance-review}.test.ts',
  'tests/content/compliance.test.ts',
];

const chosen = process.env.MUTATE_TESTS?.split(',').map((glob) => glob.trim()).filter(Boolean);
const include = chosen && chosen.length > 0 ? chosen : ALL_TESTS;
const overHttp = include.some((glob) => glob.startsWith('tests/api'));

export default defineConfig({
  test: {
    include,
    environment: 'node',
    ...(overHttp ? { globalSetup: ['tests/support/global-setup.ts'] } : {}),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
