// @ts-check
/**
 * Mutation testing (`npm run mutate`, not part of `npm test`): Stryker changes the code where a silent
 * break costs most, one small change at a time, and runs the tests that cover each change; a change
 * no test notices is a surviving mutant. docs/quality.md keeps the score per module and a reason for
 * every survivor. Incremental: a second run re-tests only what changed since the last one
 * (reports/mutation/incremental.json). One module with its fast tests (the list is in docs/quality.md):
 * `MUTATE_TESTS=api/http/cors.test.ts npm run mutate -- --mutate api/http/cors.ts`, or for a module of
 * the store `MUTATE_TESTS=api/store/sql/sql-store.test.ts npm run mutate -- --mutate api/store/sql/posts.ts`; the tests run
 * are the unit tests unless MUTATE_TESTS says otherwise (vitest.mutate.config.ts). `npm run mutate`
 * (scripts/mutate.ts) ends with the score table and the budgets (scripts/mutation-budgets.ts); `npm
 * run mutate:summary` prints them again.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  // No type check of each mutant by default (docs/decisions/0010-mutation-runs-without-the-type-
  // checker.md): on two cores it made a run six times slower, too slow for a whole run to fit a
  // working session. `npm run mutate -- --checkers typescript` turns it on; it compiles the mutated
  // modules and what they import (tsconfig.mutate.json), not the whole project.
  checkers: [],
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: [
    // Key format and verification, authentication and permissions.
    'contract/keys.ts',
    'api/services/keys.ts',
    'api/http/auth.ts',
    // The sanitiser.
    'api/services/sanitize.ts',
    // The store (one SQL implementation, tested by the store contract on SQLite,
    // api/store/sql/sql-store.test.ts): its transactions and what a database error means, posts (slug
    // uniqueness, revisions, idempotency claims), keys, leads with their outbox, staff and sessions.
    'api/store/sql/database.ts',
    'api/store/sql/posts.ts',
    'api/store/sql/keys.ts',
    'api/store/sql/leads.ts',
    'api/store/sql/staff.ts',
    // Idempotency, the rate limit, CORS.
    'api/services/idempotency.ts',
    'api/http/rate-limit.ts',
    'api/http/cors.ts',
    // The XML and JSON-LD writers.
    'web/seo/feeds.ts',
    'web/seo/blog-jsonld.ts',
    // The harness's diagnosis.
    'harness/diagnose.ts',
    // Staff sessions and CSRF, and the compliance rules with their gate.
    'api/staff/sessions.ts',
    'api/site/staff-guard.ts',
    'contract/compliance.ts',
    'api/services/compliance-gate.ts',
    // The key mistakes a 401 names, and the fix `diagnose` shows.
    'contract/key-mistakes.ts',
    // Speed to lead's settings and office-hours arithmetic: when a lead escalates.
    'api/leads/follow-up-settings.ts',
  ],
  ignorePatterns: ['build', 'reports', 'data', 'coverage', '.react-router', '.tmp'],
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 95, low: 90, break: null },
  concurrency: 2,
  timeoutMS: 30_000,
  tempDirName: '.tmp/stryker',
  cleanTempDir: 'always',
};
