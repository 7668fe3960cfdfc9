/**
 * The production command as a process (`npm start`: plain node on the built server, no tsx): the first
 * start on an empty data directory creates the store and the demo key, writes its secret to a file and loads
 * the demo articles; a later start prints no secret, honours the API's environment and renders the
 * site; a corrupt data file or a bad setting stops the start with a clear message and exit code 1.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { checkApiKey } from '../../contract/keys';
import { DEFAULT_SITE_CONFIG } from '../../contract/site-config';
import { makeTempDir, ROOT } from '../support/server';
import { validPost } from '../api/support';

const dataDir = makeTempDir('iul-startup-');
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

interface Run {
  output: string;
  code: number | null;
}

/**
 * Starts the server as `npm start` does (node scripts/start.js, which runs build/app/server.js: the
 * global setup has built it); once it listens, runs `whileUp` against its URL and stops it. Resolves when the
 * process has exited (by itself, too, when it refuses to start).
 */
function runServer(env: Record<string, string> = {}, whileUp: (url: string) => Promise<void> = async () => {}, script = 'scripts/start.js'): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [script], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let up = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start in time:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Site and API on (http:\/\/\S+)/.exec(output)?.[1];
      if (url && !up) {
        up = true;
        whileUp(url).then(
          () => child.kill('SIGTERM'),
          (error: unknown) => {
            child.kill('SIGTERM');
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
}

it('creates the demo key on the first start only, its secret in a file only its user reads, never in the output (not a terminal)', async () => {
  const first = await runServer();
  expect(first.output).toContain(`Created the demo API key "${DEFAULT_SITE_CONFIG.demoKeyName}"`);
  expect(first.output).not.toMatch(/bpk_/);
  const file = /it is in (\S+), readable by this user only/.exec(first.output)?.[1] ?? '';
  expect(path.dirname(file)).toBe(dataDir);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const secret = readFileSync(file, 'utf8').trim();
  expect(checkApiKey(secret).ok).toBe(true);
  // The bundle finds the demo articles and the data directory from build/app/ as the sources do.
  expect(first.output).toMatch(/Loaded \d+ demo articles into the new data directory/);
  const store = await openSqliteStore(dataDir);
  expect(await store.keys.list()).toEqual([expect.objectContaining({ name: DEFAULT_SITE_CONFIG.demoKeyName, permissions: ['blog:write'] })]);
  await store.close();

  // The second start also reads CORS_ORIGINS and RATE_LIMIT_WRITES_PER_MINUTE, and the demo key works.
  const second = await runServer({ CORS_ORIGINS: 'https://partner.example', RATE_LIMIT_WRITES_PER_MINUTE: '1' }, async (url) => {
    const preflight = await fetch(`${url}/api/blog`, {
      method: 'OPTIONS',
      headers: { origin: 'https://partner.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://partner.example');
    const post = () =>
      fetch(`${url}/api/blog`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify(validPost()),
      });
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(429);
    expect((await fetch(`${url}/`)).status).toBe(200);
  });
  expect(second.output).toContain('Site and API on http://');
  expect(second.output).not.toContain('demo API key');
  expect(second.output).not.toMatch(/bpk_/);
}, 120_000);

it("renders with React's production build when NODE_ENV is not set (npm start sets it), and says so when the built server runs without it", async () => {
  const warning = /NODE_ENV is not set: pages are rendered with React's development build, much slower\. Start with `npm start`/;
  const viaStart = await runServer({ NODE_ENV: '' }, async (url) => {
    expect((await fetch(`${url}/`)).status).toBe(200);
  });
  expect(viaStart.output).toContain('Site and API on http://');
  expect(viaStart.output).not.toMatch(warning);
  const bare = await runServer({ NODE_ENV: '' }, async (url) => {
    expect((await fetch(`${url}/`)).status).toBe(200);
  }, 'build/app/server.js');
  expect(bare.output).toMatch(warning);
}, 120_000);

it('refuses a rate limit that is not a whole number', async () => {
  const run = await runServer({ RATE_LIMIT_WRITES_PER_MINUTE: 'lots' });
  expect(run.code).toBe(1);
  expect(run.output).toContain('RATE_LIMIT_WRITES_PER_MINUTE must be a whole number');
}, 120_000);

it('refuses to start on a file that is not a database, says why and what to do, and leaves the file as it was', async () => {
  const file = path.join(dataDir, 'store.sqlite');
  const damaged = 'SQLite format 3\u0000 but the rest of this file was overwritten';
  writeFileSync(file, damaged);
  const run = await runServer();
  expect(run.code).toBe(1);
  expect(run.output).toContain(`the database file ${file} is damaged`);
  expect(run.output).toContain('blogpost backup');
  expect(run.output).not.toContain('Site and API on');
  expect(run.output).not.toMatch(/\n\s+at /);
  expect(readFileSync(file, 'utf8')).toBe(damaged);
}, 120_000);
