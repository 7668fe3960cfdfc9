/**
 * `blogpost logs`, `blogpost logs tail` and `blogpost diagnose <request-id>` (through the CLI's own entry, tests/support/cli.ts) on the
 * data directory of a running server: a revoked key's failed requests are found by key and explained
 * (when, by whom, why), the filters and --json work, bad filters are usage errors, and a tail shows a
 * request made while it runs until it is stopped.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CATALOGUE } from '../../contract/errors';
import { call, validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir, ROOT, startTestServer, type TestServer } from '../support/server';

const dataDir = makeTempDir('iul-cli-logs-');
const at = ['--data-dir', dataDir];
let server: TestServer;
let revokedId = '';
const failedIds: string[] = [];
let successId = '';

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { DATA_DIR: '' } });
}

interface LogLine {
  requestId: string;
  status: number;
  code: string | null;
  keyId: string | null;
  client: string;
}

function jsonLines(run: CliRun): LogLine[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

/** Waits until the server's asynchronous log writer has written these requests. */
async function logged(ids: string[]): Promise<void> {
  await vi.waitFor(
    async () => {
      const run = await blogpost(['logs', '--json', '--limit', '1000', ...at]);
      const found = new Set(jsonLines(run).map((line) => line.requestId));
      if (!ids.every((id) => found.has(id))) throw new Error('not logged yet');
    },
    { timeout: 20_000, interval: 200 },
  );
}

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
  const created = await blogpost(['keys', 'create', '--name', 'Former Integrator', '--json', ...at]);
  const { key, secret } = JSON.parse(created.stdout) as { key: { id: string }; secret: string };
  revokedId = key.id;
  const revoked = await blogpost(['keys', 'revoke', revokedId, '--reason', 'contract ended', ...at]);
  expect(revoked.code).toBe(0);
  for (let i = 0; i < 2; i++) {
    const res = await call(server, 'POST', '/api/blog', { key: secret, body: validPost(), headers: { 'User-Agent': 'curl/8.5.0' } });
    expect(res.status).toBe(401);
    failedIds.push(res.headers.get('x-request-id') ?? '');
  }
  const good = await call(server, 'POST', '/api/blog', { key: await server.createKey('Current Integrator'), body: validPost(), headers: { 'User-Agent': 'PostmanRuntime/7.39.0' } });
  expect(good.status).toBe(201);
  successId = good.headers.get('x-request-id') ?? '';
  await logged([...failedIds, successId]);
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost logs', () => {
  it('finds the revoked key’s failed requests by key id, as a table', async () => {
    const run = await blogpost(['logs', '--key', revokedId, ...at]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME \(UTC\)\s+REQUEST ID\s+METHOD\s+PATH\s+STATUS\s+CODE\s+KEY\s+CLIENT\s+MS$/);
    expect(lines).toHaveLength(3);
    for (const [index, id] of failedIds.entries()) {
      expect(lines[index + 1]).toContain(id);
      expect(lines[index + 1]).toMatch(/POST\s+\/api\/blog\s+401\s+invalid_api_key\s+\S+\s+curl/);
    }
    expect(run.stdout).not.toContain(successId);
  });

  it('filters by status, code, client, time and request id, and prints JSON lines with --json', async () => {
    const byKey = jsonLines(await blogpost(['logs', '--key', revokedId, '--json', ...at]));
    expect(byKey.map((line) => line.requestId)).toEqual(failedIds);
    expect(byKey.every((line) => line.status === 401 && line.code === 'invalid_api_key' && line.keyId === revokedId)).toBe(true);
    const ok = jsonLines(await blogpost(['logs', '--status', '2xx', '--json', ...at]));
    expect(ok.map((line) => line.requestId)).toContain(successId);
    expect(ok.every((line) => line.status >= 200 && line.status < 300)).toBe(true);
    expect(jsonLines(await blogpost(['logs', '--status', '401,403', '--json', ...at])).map((line) => line.requestId)).toEqual(failedIds);
    expect(jsonLines(await blogpost(['logs', '--code', 'invalid_api_key', '--json', ...at])).map((line) => line.requestId)).toEqual(failedIds);
    expect(jsonLines(await blogpost(['logs', '--client', 'postman', '--json', ...at])).map((line) => line.requestId)).toEqual([successId]);
    expect(jsonLines(await blogpost(['logs', '--request-id', successId, '--json', ...at])).map((line) => line.client)).toEqual(['postman']);
    expect(jsonLines(await blogpost(['logs', '--since', '1h', '--key', revokedId, '--json', ...at]))).toHaveLength(2);
    expect(jsonLines(await blogpost(['logs', '--since', '2999-01-01T00:00:00Z', '--json', ...at]))).toHaveLength(0);
    expect(jsonLines(await blogpost(['logs', '--limit', '1', '--key', revokedId, '--json', ...at])).map((line) => line.requestId)).toEqual([failedIds[1]]);
  });

  it('refuses bad filters with a usage error that says what to pass', async () => {
    const status = await blogpost(['logs', '--status', '4x', ...at]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--status takes a class like 4xx');
    const since = await blogpost(['logs', '--since', 'yesterday', ...at]);
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since takes a duration like 30m, 2h or 1d');
    const code = await blogpost(['logs', '--code', 'nope', ...at]);
    expect(code.code).toBe(2);
    expect(code.stderr).toContain('--code takes an error code');
    const limit = await blogpost(['logs', '--limit', 'ten', ...at]);
    expect(limit.code).toBe(2);
    expect(limit.stderr).toContain('--limit takes a whole number');
  });
});

describe('blogpost diagnose <request-id>', () => {
  it('explains a revoked key’s failed request: cause, fix, and when, by whom and why it was revoked', async () => {
    const run = await blogpost(['diagnose', failedIds[0] ?? '', ...at]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Request ${failedIds[0]}: POST /api/blog answered 401 invalid_api_key`);
    expect(run.stdout).toContain('from curl (curl/8.5.0)');
    expect(run.stdout).toMatch(new RegExp(`Key "Former Integrator" \\(id ${revokedId}\\) was revoked on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} UTC by cli:${userInfo().username}: "contract ended"`));
    expect(run.stdout).toContain(ERROR_CATALOGUE.invalid_api_key.guidance[1]);
    const json = JSON.parse((await blogpost(['diagnose', failedIds[0] ?? '', '--json', ...at])).stdout) as { request: LogLine; key: { revokedBy: string; revokeReason: string } };
    expect(json.request.requestId).toBe(failedIds[0]);
    expect(json.key).toMatchObject({ revokedBy: `cli:${userInfo().username}`, revokeReason: 'contract ended' });
  });

  it('says where it looked and how far back the log goes for an id it does not find', async () => {
    const run = await blogpost(['diagnose', 'req_0000', ...at]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`No request req_0000 in the request log at ${path.join(dataDir, 'logs')}`);
    expect(run.stderr).toMatch(/it holds requests from \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC to /);
    const both = await blogpost(['diagnose', failedIds[0] ?? '', '--request', 'failing.sh', ...at]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
  });
});

describe('blogpost keys list', () => {
  it('shows the last failure and the revocation, with "no reason given" when there was none', async () => {
    const other = JSON.parse((await blogpost(['keys', 'create', '--name', 'Quiet Revoke', '--json', ...at])).stdout) as { key: { id: string } };
    expect((await blogpost(['keys', 'revoke', other.key.id, ...at])).code).toBe(0);
    const run = await blogpost(['keys', 'list', ...at]);
    const former = run.stdout.split('\n').find((line) => line.startsWith(revokedId)) ?? '';
    expect(former).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} invalid_api_key/);
    expect(former).toContain(`by cli:${userInfo().username}: "contract ended"`);
    const quiet = run.stdout.split('\n').find((line) => line.startsWith(other.key.id)) ?? '';
    expect(quiet).toContain('no reason given');
  });
});

describe('blogpost logs tail', () => {
  it('shows a request made while it runs, then stops on Ctrl-C', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'cli/bin.js'), 'logs', 'tail', '--status', '4xx', ...at], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    try {
      await vi.waitFor(() => expect(stderr).toContain('Following the request log'), { timeout: 30_000, interval: 50 });
      const missing = await call(server, 'POST', '/api/blog', { body: validPost() });
      const ok = await call(server, 'GET', '/api/health');
      const id = missing.headers.get('x-request-id') ?? '';
      await vi.waitFor(() => expect(stdout).toContain(id), { timeout: 20_000, interval: 50 });
      expect(stdout).toMatch(new RegExp(`${id}\\s+POST\\s+/api/blog\\s+401\\s+missing_api_key`));
      expect(stdout).not.toContain(ok.headers.get('x-request-id') ?? 'none');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
