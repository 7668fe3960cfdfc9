/**
 * Starts the real app (production build) on 127.0.0.1 with an ephemeral port for one test file, with
 * its own data store in a temporary directory; `close()` stops it and removes the directory (unless the
 * test passed its own `dataDir`, which it then owns, e.g. to restart a server on the same data). Its
 * services are built and started as api/main.ts does (createServices: the scheduler, the lead outbox,
 * lead retention, the staff session purge), but for what a test leaves out by name (`without`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { createApp } from '../../api/app';
import type { ApiSettings } from '../../api/http/app';
import { prepareListener } from '../../api/http/listener';
import { parseProxyTrust } from '../../api/http/proxy-trust';
import type { ThrottleSettings } from '../../api/staff/sign-in-throttle';
import { readLeadDeliverySettings } from '../../api/leads/delivery-settings';
import type { Logger } from '../../api/logger';
import { openFileRequestLog } from '../../api/request-log/file-writer';
import { openFileRequestLogReader } from '../../api/request-log/file-reader';
import { seedDemoPosts } from '../../api/seed/demo-posts';
import type { LeadIntakeSettings } from '../../api/services/lead-intake';
import type { Scheduler } from '../../api/services/scheduler';
import { type BackgroundWork, createServices, type Services, type ServiceSettings } from '../../api/services/services';
import { openStore } from '../../api/store/open-store';
import { seedStaff } from './staff-seed';
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
  /** The server's services (e.g. `services.outbox.poke()` after a test moved its clock). */
  services: Services;
  /** Adds a staff account (as `blogpost staff add` does) and returns its e-mail. */
  createStaff: (email: string, password: string, name?: string) => Promise<string>;
  /** Adds a staff account straight to the store with a cheap password hash (tests/support/staff-seed.ts) and returns its e-mail. */
  seedStaff: (email: string, password: string, name?: string) => Promise<string>;
  close: () => Promise<void>;
}

export interface TestServerOptions {
  /** The environment the server reads its site config and lead delivery (SMTP_URL...) from. */
  env?: Record<string, string>;
  /** Use this data directory (the caller removes it); default: a new temporary one removed on close. */
  dataDir?: string;
  /** The API's settings, and the services' COMPLIANCE_MODE and MEDIA_MAX_BYTES. */
  api?: Partial<ApiSettings & Pick<ServiceSettings, 'complianceMode' | 'mediaMaxBytes' | 'mediaWork'>>;
  /** Lets a test swap parts of the store (e.g. make a write fail). */
  wrapStore?: (store: Store) => Store;
  now?: () => Date;
  /** The quote form's limits, and its own clock (api/services/lead-intake.ts). */
  leads?: { settings?: Partial<LeadIntakeSettings>; now?: () => Date };
  /** Background work of the services this test leaves out (api/services/services.ts); default: all of it runs. */
  without?: readonly BackgroundWork[];
  /** Opens another store than the SQLite database in `dataDir` (a PostgreSQL one); the server closes it. */
  openStore?: () => Promise<Store>;
  /** TRUST_PROXY as the server reads it (api/http/proxy-trust.ts); default: unset. */
  trustProxy?: string;
  /** The staff sign-in throttle's settings; default: DEFAULT_THROTTLE. */
  signInThrottle?: Partial<ThrottleSettings>;
}

let keyCounter = 0;

export function makeTempDir(prefix = 'iul-site-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Loads the 41 demo articles into `dataDir` (as a fresh install does). */
export async function seedDemoDataDir(dataDir: string): Promise<void> {
  const store = await openStore({ kind: 'sqlite', dataDir });
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
  const opened = options.openStore ? await options.openStore() : await openStore({ kind: 'sqlite', dataDir }, { now, log: logger.info });
  const store = options.wrapStore ? options.wrapStore(opened) : opened;
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const requestLog = await openFileRequestLog(dataDir, { retentionDays: 14, onError: logger.error, now });
  const env = { ...options.env };
  const config = loadSiteConfig(env);
  const { complianceMode, mediaMaxBytes, mediaWork, ...api } = options.api ?? {};
  const services = createServices(
    store,
    {
      config,
      logger,
      leadDelivery: readLeadDeliverySettings(env, config),
      ...(complianceMode ? { complianceMode } : {}),
      ...(mediaMaxBytes ? { mediaMaxBytes } : {}),
      ...(mediaWork ? { mediaWork } : {}),
      ...(options.leads?.settings ? { leadIntake: options.leads.settings } : {}),
      ...(options.leads?.now ? { leadIntakeClock: options.leads.now } : {}),
      ...(options.signInThrottle ? { signInThrottle: options.signInThrottle } : {}),
    },
    now,
  );
  await services.start(options.without ? { without: options.without } : {});
  const app = createApp({
    services,
    mode: 'production',
    trustProxy: parseProxyTrust(options.trustProxy),
    clientDir: path.join(ROOT, 'build/client'),
    build,
    requestLog,
    requestLogReader: openFileRequestLogReader(dataDir, now),
    api,
  });
  const server = app.listen(0, '127.0.0.1');
  prepareListener(server, { writer: requestLog, now });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logs,
    store: opened,
    createKey: async (name, permissions = ['blog:write'], owner) => {
      keyCounter += 1;
      return (await services.keys.create({ name: name ?? `test key ${keyCounter}`, permissions, ...(owner ? { owner } : {}) })).secret;
    },
    scheduler: services.scheduler,
    services,
    createStaff: async (email, password, name = 'Test Staff') => (await services.staff.add({ email, name, password }, 'cli:test')).email,
    seedStaff: (email, password, name = 'Test Staff') => seedStaff(opened, email, password, name, now),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.stop();
      await requestLog.close();
      await opened.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
