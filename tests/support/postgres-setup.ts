/**
 * Before the PostgreSQL tests: one throwaway server for the whole run (tests/support/postgres-cluster.ts);
 * each test makes its own databases on it (`freshDatabase(inject('postgresUrl'))`). Stopped afterwards.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The maintenance database of the test server: `postgres://app@127.0.0.1:<port>/postgres`. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
