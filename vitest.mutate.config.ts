/**
 * The tests `npm run mutate` runs against each mutant (stryker.config.mjs). By default the unit tests
 * (colocated `*.test.ts` beside each module, and tests/content/compliance.test.ts): every mutated
 * module has unit tests of its behaviour (a key accepted or refused, a header value, a parsed feed, a
 * write the store contract on SQLite, api/store/sql/sql-store.test.ts, finds stored whole or not at
 * all), and with per-test coverage each mutant runs only the tests that reach it, so a full run stays
 * in hours, not days. The behaviour tests over real HTTP
 * (tests/api/*) cover the same modules end to end; each starts a server and, in the sandbox, builds the
 * site first, so they are opt-in through MUTATE_TESTS.
 *
 * MUTATE_TESTS (comma-separated globs) picks the tests for a run of one module; docs/quality.md lists
 * the fast set of each: `MUTATE_TESTS=contract/compliance.test.ts npm run mutate -- --mutate contract/compliance.ts`;
 * the store's modules (api/store/sql/*.ts) are tested by the contract on SQLite:
 * `MUTATE_TESTS=api/store/sql/sql-store.test.ts npm run mutate -- --mutate api/store/sql/posts.ts`.
 * With a test over real HTTP among them, the site is built first. MUTATION_RUN=1 lets the few tests
 * that try thousands of random cases try fewer (docs/quality.md says which and how many).
 */
import { defineConfig } from 'vitest/config';

const UNIT_TESTS = ['{contract,web,api,cli,harness}/**/*.test.{ts,tsx}', 'tests/content/compliance.test.ts'];

const chosen = process.env.MUTATE_TESTS?.split(',').map((glob) => glob.trim()).filter(Boolean);
const include = chosen && chosen.length > 0 ? chosen : UNIT_TESTS;
const overHttp = include.some((glob) => glob.startsWith('tests/api'));

export default defineConfig({
  test: {
    include,
    environment: 'node',
    // Tells the heaviest tests (contract/compliance.test.ts's properties) that they run once per mutant.
    env: { MUTATION_RUN: '1' },
    ...(overHttp ? { globalSetup: ['tests/support/global-setup.ts'] } : {}),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
