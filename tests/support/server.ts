/**
 * Starts the real app (production build) on 127.0.0.1 with an ephemeral port for one test file,
 * with its own temporary data directory; `close()` stops it and removes the directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { createApp } from '../../api/app';
import type { Logger } from '../../api/middleware/errors';
import { loadSiteConfig } from '../../web/content/site-config-env';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestServer {
  url: string;
  dataDir: string;
  logs: string[];
  close: () => Promise<void>;
}

export async function startTestServer(options: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iul-site-test-'));
  const logs: string[] = [];
  const logger: Logger = {
    info: (message) => logs.push(message),
    error: (message, error) => logs.push(`${message} ${error instanceof Error ? error.stack : String(error ?? '')}`),
  };
  const build = (await import(pathToFileURL(path.join(ROOT, 'build/server/index.js')).href)) as ServerBuild;
  const app = createApp({
    config: loadSiteConfig({ ...options.env }),
    build,
    mode: 'production',
    clientDir: path.join(ROOT, 'build/client'),
    logger,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logs,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
