/**
 * `blogpost keys create|list|revoke` through the CLI's own entry, as the bin runs it (tests/support/cli.ts):
 * output, exit codes, and the effect on a server running on the same data directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiKeySummary, checkApiKey } from '../../contract/keys';
import { call, validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';
import { inStore } from './data-dir-store';

function blogpost(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runBlogpost(args, { env });
}

/** The names of the keys stored in a data directory. */
function keyNames(dir: string): Promise<string[]> {
  return inStore(dir, async (store) => (await store.keys.list()).map((key) => key.name));
}

const dataDir = makeTempDir('iul-cli-keys-');
const at = ['--data-dir', dataDir];
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ dataDir, api: { writesPerMinute: 0 } });
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('blogpost keys', () => {
  let secret = '';
  let id = '';

  it('is listed in the help', async () => {
    const run = await blogpost(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/keys\s+Manage API keys/);
    const keys = await blogpost(['keys', '--help']);
    expect(keys.code).toBe(0);
    expect(keys.stdout).toContain('create [options]');
    expect(keys.stdout).toContain('revoke [options] <id-or-name>');
  });

  it('create prints the secret once on stdout, and the key works against the running server', async () => {
    const run = await blogpost(['keys', 'create', '--name', 'Jane Author', ...at]);
    expect(run.code).toBe(0);
    secret = run.stdout.trim();
    expect(checkApiKey(secret).ok).toBe(true);
    expect(run.stderr).toContain('Created API key "Jane Author"');
    expect(run.stderr).toContain('shown only this once');
    const res = await call(server, 'POST', '/api/blog', { key: secret, body: validPost() });
    expect(res.status).toBe(201);
    // Only its hash is stored: no file of the data directory (the database, its write-ahead log) holds
    // the secret. Searched by another process: closing a file this process opened on the database would
    // drop the SQLite locks of the server running in it.
    expect(existsSync(path.join(dataDir, 'store.sqlite'))).toBe(true);
    const search = spawnSync('grep', ['-r', '-l', '-F', '-a', secret, dataDir], { encoding: 'utf8' });
    expect(search.status, search.stdout).toBe(1);
  });

  it('create --json gives the key record and secret, with the permissions asked for', async () => {
    const run = await blogpost(['keys', 'create', '--name', 'Reader', '--permission', 'blog:read', 'blog:write', '--json', ...at]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { success: boolean; key: ApiKeySummary; secret: string };
    expect(out.success).toBe(true);
    expect(out.key).toMatchObject({ name: 'Reader', permissions: ['blog:read', 'blog:write'], lastUsedAt: null, revokedAt: null });
    expect(out.key).not.toHaveProperty('hash');
    expect(checkApiKey(out.secret)).toMatchObject({ ok: true, publicId: out.key.id });
    id = out.key.id;
  });

  it('create refuses a wrong permission (2), a taken name (1) and a missing name (2)', async () => {
    const bad = await blogpost(['keys', 'create', '--name', 'X', '--permission', 'blog:delete', ...at]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('blog:write, blog:read, blog:admin');
    const taken = await blogpost(['keys', 'create', '--name', 'jane author', ...at]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already named');
    const unnamed = await blogpost(['keys', 'create', ...at]);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toContain('--name');
  });

  it('list shows every key without secrets, as a table or JSON', async () => {
    const run = await blogpost(['keys', 'list', ...at]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+OWNER\s+PERMISSIONS\s+CREATED\s+LAST USED\s+LAST FAILURE\s+STATUS\s+KIND$/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/\sapi$/);
    expect(run.stdout).toContain('Jane Author');
    expect(run.stdout).not.toContain('bpk_');
    const json = await blogpost(['keys', 'list', '--json', ...at]);
    const keys = JSON.parse(json.stdout) as ApiKeySummary[];
    expect(keys.map((k) => k.name)).toEqual(['Jane Author', 'Reader']);
    expect(keys[0]?.lastUsedAt).not.toBeNull();
    expect(json.stdout).not.toContain('sha256');
  });

  it('create --owner gives keys one owner: they share their posts, another owner gets 403, blog:admin may change any', async () => {
    const laptop = await blogpost(['keys', 'create', '--name', 'Sam laptop', '--owner', 'Sam Writer', ...at]);
    expect(laptop.code).toBe(0);
    expect(laptop.stderr).toContain('for owner "Sam Writer"');
    const phone = (await blogpost(['keys', 'create', '--name', 'Sam phone', '--owner', 'Sam Writer', ...at])).stdout.trim();
    const other = (await blogpost(['keys', 'create', '--name', 'Someone else', ...at])).stdout.trim();
    const admin = await blogpost(['keys', 'create', '--name', 'Editor', '--permission', 'blog:write', 'blog:admin', ...at]);
    expect(admin.stderr).toContain('may change every post');

    const created = await call(server, 'POST', '/api/blog', { key: laptop.stdout.trim(), body: validPost({ title: 'Owned by Sam' }) });
    expect(created.status).toBe(201);
    const post = created.json.post as { id: string; etag: string };
    const byPhone = await call(server, 'PATCH', `/api/blog/${post.id}`, { key: phone, body: { excerpt: 'Changed from the phone.' }, headers: { 'If-Match': post.etag } });
    expect(byPhone.status).toBe(200);
    const byOther = await call(server, 'PATCH', `/api/blog/${post.id}`, { key: other, body: { excerpt: 'Not mine.' }, headers: { 'If-Match': byPhone.json.etag as string } });
    expect(byOther.status).toBe(403);
    expect(byOther.json.code).toBe('not_post_owner');
    const byAdmin = await call(server, 'PATCH', `/api/blog/${post.id}`, { key: admin.stdout.trim(), body: { excerpt: 'Edited.' }, headers: { 'If-Match': byPhone.json.etag as string } });
    expect(byAdmin.status).toBe(200);

    const listed = JSON.parse((await blogpost(['keys', 'list', '--json', ...at])).stdout) as ApiKeySummary[];
    expect(listed.filter((k) => k.owner === 'Sam Writer').map((k) => k.name)).toEqual(['Sam laptop', 'Sam phone']);
    expect(listed.find((k) => k.name === 'Someone else')?.owner).toBe('Someone else');
  });

  it('revoke stops the key at once on the running server; revoking again is harmless', async () => {
    const run = await blogpost(['keys', 'revoke', 'Jane Author', ...at]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('Revoked key "Jane Author"');
    const res = await call(server, 'POST', '/api/blog', { key: secret, body: validPost() });
    expect(res.status).toBe(401);
    expect(res.json.message).toContain('revoked');
    const again = await blogpost(['keys', 'revoke', 'Jane Author', '--json', ...at]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ success: true, alreadyRevoked: true });
    const byId = await blogpost(['keys', 'revoke', id, ...at]);
    expect(byId.code).toBe(0);
    const list = await blogpost(['keys', 'list', ...at]);
    expect(list.stdout.match(/revoked \d{4}-\d{2}-\d{2}/g)).toHaveLength(2);
  });

  it('revoke of an unknown key fails with 1', async () => {
    const run = await blogpost(['keys', 'revoke', 'nobody', ...at]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('No key has the id or name "nobody"');
  });

  it('uses DATA_DIR when --data-dir is not given, and lists nothing where there is no store', async () => {
    const empty = makeTempDir('iul-cli-empty-');
    try {
      const run = await blogpost(['keys', 'list'], { DATA_DIR: path.join(empty, 'none') });
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('No API keys in');
      expect(existsSync(path.join(empty, 'none'))).toBe(false);
      const created = await blogpost(['keys', 'create', '--name', 'Env', '--json'], { DATA_DIR: empty });
      expect(created.code).toBe(0);
      expect(await keyNames(empty)).toEqual(['Env']);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('works, with DATABASE_URL set and no --data-dir, on PostgreSQL: a database out of reach is exit code 4 with its password hidden', async () => {
    const empty = makeTempDir('iul-cli-pg-');
    try {
      // Nothing listens on port 1: the database the servers use is out of reach.
      const env = { DATA_DIR: empty, DATABASE_URL: 'postgres://app:hunter2-secret@127.0.0.1:1/site' };
      const run = await blogpost(['keys', 'create', '--name', 'Nowhere'], env);
      expect(run.code).toBe(4);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Cannot open the database at postgres://app:***@127.0.0.1:1/site');
      expect(run.stderr).not.toContain('hunter2-secret');
      expect(run.stderr).not.toMatch(/^\s+at /m);
      // No key was made in the data directory instead, which no server reads.
      expect(readdirSync(empty)).toEqual([]);
      const staff = await blogpost(['staff', 'list'], env);
      expect(staff.code).toBe(4);
      expect(staff.stderr).toContain('Cannot open the database at postgres://app:***@');
      // A URL that is not PostgreSQL's, or two stores named at once, is wrong usage.
      const mysql = await blogpost(['leads', 'list'], { DATA_DIR: empty, DATABASE_URL: 'mysql://app@db/site' });
      expect(mysql.code).toBe(2);
      expect(mysql.stderr).toContain('DATABASE_URL must start with postgres:// or postgresql://');
      const both = await blogpost(['audit', '--data-dir', empty, '--database-url', 'postgres://app@127.0.0.1:1/site']);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('Pass --data-dir or --database-url, not both.');
      // --data-dir says which store is meant.
      expect((await blogpost(['keys', 'create', '--name', 'Here', '--data-dir', empty], env)).code).toBe(0);
      expect(await keyNames(empty)).toEqual(['Here']);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('reports a damaged database file with exit code 4 and leaves it alone', async () => {
    const broken = makeTempDir('iul-cli-broken-');
    const file = path.join(broken, 'store.sqlite');
    const damaged = 'SQLite format 3\u0000 but the rest of this file was overwritten';
    try {
      writeFileSync(file, damaged);
      const run = await blogpost(['keys', 'list', '--data-dir', broken]);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain(`the database file ${file} is damaged`);
      expect(run.stderr).toContain('blogpost backup');
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
