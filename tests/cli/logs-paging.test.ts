/**
 * `blogpost logs` on a running server's data directory says how many older rows match and how to page
 * back (--before <request-id>, --limit) instead of stopping silently at its limit, and hides the
 * requests the CLI makes to check its own work (X-Blogpost-Check) unless --all, saying how many.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLI_CHECK_HEADER } from '../../contract/clients';
import { call } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';

const dataDir = makeTempDir('iul-cli-logs-paging-');
const at = ['--data-dir', dataDir];
let server: TestServer;
let key = '';

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { DATA_DIR: '' } });
}

async function logged(id: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const run = await blogpost(['logs', '--request-id', id, '--json', '--all', ...at]);
      if (!run.stdout.includes(id)) throw new Error('not logged yet');
    },
    { timeout: 20_000, interval: 200 },
  );
}

beforeAll(async () => {
  server = await startTestServer({ dataDir });
  key = await server.createKey('Integrator');
}, 60_000);

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost logs paging and the CLI’s own checks', () => {
  it('says how many older rows match and pages back with --before', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call(server, 'GET', '/api/blog/no-such-post-for-paging', { headers: { 'User-Agent': 'PostmanRuntime/7.39.0' } })).headers.get('x-request-id') ?? '');
    await logged(ids[4] ?? '');
    const first = await blogpost(['logs', '--code', 'post_not_found', '--limit', '2', ...at]);
    expect(first.stdout).toContain(ids[4]);
    expect(first.stdout).toContain(ids[3]);
    expect(first.stdout).not.toContain(ids[2]);
    expect(first.stderr).toContain(`3 older matching requests are not shown: page back with blogpost logs --code post_not_found --data-dir ${dataDir} --before ${ids[3]}, or show more with --limit 5.`);
    const second = await blogpost(['logs', '--code', 'post_not_found', '--limit', '2', '--before', ids[3] ?? '', ...at]);
    expect(second.stdout).toContain(ids[2]);
    expect(second.stdout).toContain(ids[1]);
    expect(second.stderr).toContain(`1 older matching request is not shown: page back with blogpost logs --code post_not_found --data-dir ${dataDir} --before ${ids[1]}`);
    const last = await blogpost(['logs', '--code', 'post_not_found', '--limit', '2', '--before', ids[1] ?? '', ...at]);
    expect(last.stdout).toContain(ids[0]);
    expect(last.stderr).not.toContain('older');
    const unknown = await blogpost(['logs', '--before', 'req_nope', ...at]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--before takes the request id of a row this search shows');
  });

  it('hides requests marked as the CLI’s checks unless --all, and says how many it hid', async () => {
    const check = await call(server, 'GET', '/api/media/0123456789abcdef0123', { key, headers: { [CLI_CHECK_HEADER]: '1', 'User-Agent': 'blogpost-cli/0.1.0' } });
    const id = check.headers.get('x-request-id') ?? '';
    await logged(id);
    const hidden = await blogpost(['logs', '--since', '1h', ...at]);
    expect(hidden.stdout).not.toContain(id);
    expect(hidden.stderr).toMatch(/\d+ requests? the CLI made to check its own work \(X-Blogpost-Check\) (is|are) hidden: add --all to show them\./);
    const all = await blogpost(['logs', '--since', '1h', '--all', ...at]);
    expect(all.stdout).toContain(id);
    const [entry] = (await blogpost(['logs', '--request-id', id, '--all', '--json', ...at])).stdout.trim().split('\n').map((line) => JSON.parse(line) as { check?: boolean });
    expect(entry?.check).toBe(true);
  });
});
