import { accessSync, constants, statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/** Browser tests that measure timing-sensitive behaviour: run alone (the e2e-alone project). */
const E2E_ALONE = ['tests/e2e/hydrate-on-interaction.test.ts', 'tests/e2e/visitors-phone.test.ts'];

/**
 * How long `expect.poll` waits in the browser tests: what they poll for follows a tap (the app loading
 * and hydrating, a scroll settling), which on a loaded two-core machine has taken over Vitest's 1 s
 * default. A poll ends as soon as its condition holds, so this costs nothing when the test passes.
 */
const BROWSER_EXPECT = { poll: { timeout: 10_000 } };

/**
 * Every project shares a worker's modules between its files instead of loading the server, the site's
 * content and Playwright again for every file (Vitest's isolation). Each file starts and stops its own
 * server, store and browser, and no test mocks a module, stubs a global or the environment, or fakes
 * timers, so nothing one file does is seen by the next. Measured on this 2-core machine, the same
 * commit both ways, one after the other: the whole `npm test` 829 s isolated, 658 s shared (the module
 * loading summed over files, 186 s and 48 s); the unit project alone 67.5 s isolated, 33.7 s shared
 * (and 32.6 s and 36.7 s with its files shuffled, all 959 tests passing).
 */
const SHARED_MODULES = { isolate: false };

/**
 * The inner loop's tests (`npm run test:fast`: unit and server) make their data folders on the
 * machine's RAM disk (/dev/shm, tmpfs) when it has one and TMPDIR is not set: the SQLite store
 * commits with `synchronous=FULL`, an fsync a write, which took 4.7-4.9 ms on this machine's disk
 * against 0.3-1.5 ms on tmpfs (decision 0038). What these tests prove does not hang on the fsync (a
 * killed process loses nothing the page cache holds; the tests that kill servers are in `processes`).
 */
function ramDiskTmpdir(): { TMPDIR?: string } {
  if (process.env.TMPDIR) return {};
  try {
    accessSync('/dev/shm', constants.W_OK);
    return statSync('/dev/shm').isDirectory() ? { TMPDIR: '/dev/shm' } : {};
  } catch {
    return {};
  }
}
const FAST_TMPDIR = ramDiskTmpdir();

export default defineConfig({
  test: {
    // Two files at a time: Vitest's default here ran one (the suite waits on servers and Chromium more
    // than it computes); only the e2e-alone project runs its files one after another.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          ...SHARED_MODULES,
          env: FAST_TMPDIR,
          include: ['{contract,web,api,cli,harness,scripts}/**/*.test.{ts,tsx}', 'tests/content/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        // The API and the CLI over real HTTP against a listening server in the test's process, the CLI
        // run in that process too (tests/support/cli.ts; the site build is needed because the server
        // also renders pages).
        test: {
          name: 'server',
          ...SHARED_MODULES,
          env: FAST_TMPDIR,
          include: ['tests/{api,cli}/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // What only real processes show: the server as `npm start` runs it (start-up, a port in use,
        // SIGKILL mid-burst), several `blogpost` processes beside it, the bin in shell pipelines, and
        // the integration examples in each language. Seconds a file: kept out of `npm run test:fast`.
        test: {
          name: 'processes',
          ...SHARED_MODULES,
          include: ['tests/processes/**/*.test.ts'],
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
          ...SHARED_MODULES,
          include: ['tests/postgres/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/postgres-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Tests of the built site over real HTTP and in real Chromium, two files at a time beside the
        // other projects (each file starts its own server and browser).
        test: {
          name: 'e2e',
          ...SHARED_MODULES,
          include: ['tests/{site,e2e}/**/*.test.ts'],
          exclude: E2E_ALONE,
          environment: 'node',
          expect: BROWSER_EXPECT,
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The production rehearsal (tests/rehearsal): nginx terminating TLS in front of two production
        // servers on a PostgreSQL cluster of its own, which it stops for 20 s, and a full disk on a
        // tmpfs of its own; with Chromium. Beside the other projects (one file: one worker): what it
        // stops and fills is its own, and it asserts answers, not timings. Not in group 1, whose
        // browser tests time what a visitor sees and want the machine to themselves.
        test: {
          name: 'rehearsal',
          ...SHARED_MODULES,
          include: ['tests/rehearsal/**/*.test.ts'],
          environment: 'node',
          expect: BROWSER_EXPECT,
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The browser tests that time what a visitor sees as it happens (the app starting under a
        // tap, layout shifts): one file at a time, after everything else (its own sequence group), so
        // no other test shares the machine with them.
        test: {
          name: 'e2e-alone',
          ...SHARED_MODULES,
          include: E2E_ALONE,
          environment: 'node',
          expect: BROWSER_EXPECT,
          globalSetup: ['tests/support/global-setup.ts'],
          fileParallelism: false,
          // Group 1 runs after group 0, every other project's (Vitest also refuses a project of one
          // worker in the same group as projects of two once their files share modules).
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
