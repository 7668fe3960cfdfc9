/**
 * Starts the real app (production build) on 127.0.0.1 with an ephemeral port for one test file, with
 * its own data store in a temporary directory; `close()` stops it and removes the directory (unless the
 * test passed its own `dataDir`, which it then owns, e.g. to restart a server on the same data).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { type AppOptions, createApp } from '../../api/app';
import type { ApiSettings } from '../../api/http/app';
import { answerClientErrors } from '../../api/http/client-error';
import type { Logger } from '../../api/logger';
import { openFileRequestLog } from '../../api/request-log/file-writer';
import { openFileRequestLogReader } from '../../api/request-log/file-reader';
import { seedDemoPosts } from '../../api/seed/demo-posts';
import { KeyService } from '../../api/services/keys';
import { StaffService } from '../../api/staff/staff-service';
import { postScheduler, type Scheduler } from '../../api/services/scheduler';
import { openFileStore } from '../../api/store/file-store';
import type { Store } from '../../api/store/store';
import type { ApiPermission } from '../../contract/keys';
import { loadSiteConfig } from '../../contract/site-config-env';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestServer {
  url: string;
  dataDir: string;
  logs: string[];
  /** The store the server writes to (flush it before reading its files). */
  store: Store;
  /** Creates an API key in the server's store and returns its secret. */
  createKey: (name?: string, permissions?: ApiPermission[], owner?: string) => Promise<string>;
  /** The server's scheduled publishing. */
  scheduler: Scheduler;
  /** Adds a staff account (as `blogpost staff add` does) and returns its e-mail. */
  createStaff: (email: string, password: string, name?: string) => Promise<string>;
  close: () => Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  /** Use this data directory (the caller removes it); default: a new temporary one removed on close. */
  dataDir?: string;
  api?: Partial<ApiSettings>;
  /** Lets a test swap parts of the store (e.g. make a write fail). */
  wrapStore?: (store: Store) => Store;
  now?: () => Date;
  /** The quote form's limits, notifications and clock (api/services/lead-intake.ts). */
  leads?: AppOptions['leads'];
  /** Opens another store than the file store in `dataDir` (a PostgreSQL one); the server closes it. */
  openStore?: () => Promise<Store>;
}

let keyCounter = 0;

export function makeTempDir(prefix = 'iul-site-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Loads the 41 demo articles into `dataDir` (as a fresh install does). */
export async function seedDemoDataDir(dataDir: string): Promise<void> {
  const store = await openFileStore(dataDir);
  try {
    await seedDemoPosts(store);
  } finally {
    await store.close();
  }
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? makeTempDir();
  const logs: string[] = [];
  const logger: Logger = {
    info: (message) => logs.push(message),
    error: (message, error) => logs.push(`${message} ${error instanceof Error ? error.stack : String(error ?? '')}`),
  };
  const now = options.now ?? (() => new Date());
  const opened = options.openStore ? await options.openStore() : await openFileStore(dataDir, { now, log: logger.info });
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const requestLog = await openFileRequestLog(dataDir, { retentionDays: 14, onError: logger.error, now });
  const scheduler = postScheduler(store.posts, { now, log: logger.info, onError: (error) => logger.error('Scheduler', error) });
  await scheduler.start();
  const app = createApp({
    config: loadSiteConfig({ ...options.env }),
    build,
    mode: 'production',
    clientDir: path.join(ROOT, 'build/client'),
    logger,
    store,
    now,
    requestLog,
    requestLogReader: openFileRequestLogReader(dataDir, now),
    scheduler,
    ...(options.api ? { api: options.api } : {}),
    ...(options.leads ? { leads: options.leads } : {}),
  });
  const server = app.listen(0, '127.0.0.1');
  answerClientErrors(server);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const keys = new KeyService(opened.keys, now);
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logs,
    store: opened,
    createKey: async (name, permissions = ['blog:write'], owner) => {
      keyCounter += 1;
      return (await keys.create({ name: name ?? `test key ${keyCounter}`, permissions, ...(owner ? { owner } : {}) })).secret;
    },
    scheduler,
    createStaff: async (email, password, name = 'Test Staff') => (await new StaffService(opened, now).add({ email, name, password }, 'cli:test')).email,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await scheduler.stop();
      await requestLog.close();
      await opened.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
