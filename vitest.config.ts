import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two files at a time: Vitest's default here ran one (the suite waits on servers and Chromium more
    // than it computes), while the e2e project still runs its own files one after another.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{contract,web,api,cli,harness,scripts}/**/*.test.{ts,tsx}', 'tests/content/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        // The API and the CLI over real HTTP against a listening server (the site build is needed
        // because the server also renders pages).
        test: {
          name: 'server',
          include: ['tests/{api,cli}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The PostgreSQL store against a real server: one throwaway cluster for the run
        // (tests/support/postgres-setup.ts), a database per test; and app servers sharing one database.
        test: {
          name: 'postgres',
          include: ['tests/postgres/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/postgres-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Tests of the built site over real HTTP and in real Chromium: one file at a time (2 cores).
        test: {
          name: 'e2e',
          include: ['tests/{site,e2e}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
