/**
 * `blogpost keys create --ghost` (decision 0033): prints the Ghost Admin API key `id:secret` once; a
 * server running on the same data directory takes a token signed with it (the CLI and the server derive
 * the same secret from the store); the audit log records the creation as a Ghost key; `keys list` shows
 * its kind; revoking it from the CLI refuses the app's next request.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { ghostToken as token } from '../support/ghost-token';

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, {});
}

const dataDir = makeTempDir('iul-cli-ghost-keys-');
const at = ['--data-dir', dataDir];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});


function publish(key: string, slug: string): Promise<Response> {
  return fetch(`${server.url}/ghost/api/admin/posts/?source=html`, {
    method: 'POST',
    headers: { Authorization: `Ghost ${token(key)}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ posts: [{ title: 'From iA Writer', html: '<p>Written in a writing app and published here.</p>', status: 'published', slug }] }),
  });
}

describe('blogpost keys create --ghost', () => {
  let key = '';

  it('prints id:secret once (24 and 64 hex digits), and the running server takes a token signed with it', async () => {
    const run = await blogpost(['keys', 'create', '--ghost', '--name', 'Jane iA Writer', '--owner', 'Jane Author', ...at]);
    expect(run.code, run.stderr).toBe(0);
    key = run.stdout.trim();
    expect(key).toMatch(/^[0-9a-f]{24}:[0-9a-f]{64}$/);
    expect(run.stderr).toContain('Created API key "Jane iA Writer"');
    expect(run.stderr).toContain('Ghost Admin API key');
    expect(run.stderr).toContain('shown only this once');
    const response = await publish(key, 'from-ia-writer');
    expect(response.status, await response.clone().text()).toBe(201);
    expect((await server.store.posts.lookupSlug('from-ia-writer'))?.post.slug).toBe('from-ia-writer');
  });

  it('the audit log records the creation as a Ghost key', async () => {
    const run = await blogpost(['audit', '--json', ...at]);
    expect(run.code).toBe(0);
    const entries = JSON.parse(run.stdout) as { action: string; target: string; detail: Record<string, unknown> }[];
    const created = entries.find((entry) => entry.action === 'key.created' && entry.target === key.split(':')[0]);
    expect(created?.detail).toMatchObject({ name: 'Jane iA Writer', owner: 'Jane Author', kind: 'ghost' });
    expect(run.stdout).not.toContain(key.split(':')[1]);
  });

  it('keys list shows its kind, never its secret', async () => {
    const run = await blogpost(['keys', 'list', ...at]);
    expect(run.code).toBe(0);
    const line = run.stdout.split('\n').find((row) => row.includes('Jane iA Writer')) ?? '';
    expect(line).toMatch(/\bghost\s*$/);
    expect(run.stdout).toMatch(/KIND/);
    expect(run.stdout).not.toContain(key.split(':')[1]);
    const json = JSON.parse((await blogpost(['keys', 'list', '--json', ...at])).stdout) as { name: string; kind: string }[];
    expect(json.find((row) => row.name === 'Jane iA Writer')?.kind).toBe('ghost');
  });

  it('revoked from the CLI, the app is refused at once', async () => {
    const run = await blogpost(['keys', 'revoke', key.split(':')[0] ?? '', '--reason', 'lost laptop', ...at]);
    expect(run.code).toBe(0);
    const response = await publish(key, 'after-revoke');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { errors: { message: string }[] }).errors[0]?.message).toBe('Admin API Key revoked');
  });
});
