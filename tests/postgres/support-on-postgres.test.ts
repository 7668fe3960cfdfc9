/**
 * `blogpost diagnose <request-id>` and `blogpost support-bundle` with DATABASE_URL set (a server on
 * PostgreSQL; its request log in its DATA_DIR, as every server keeps its own): a 412's history and the
 * key's state are read from the database, and the bundle names the engine without the URL's password.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, inject, vi } from 'vitest';
import { redactedUrl } from '../../api/store/redacted-url';
import { openPostgresStore } from '../../api/store/sql/sql-store';
import { validPost } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { freshDatabase } from '../support/postgres-cluster';
import { makeTempDir, startTestServer, type TestServer } from '../support/server';

const work = makeTempDir('iul-support-pg-');
let server: TestServer;
let databaseUrl = '';

function blogpost(args: string[]): Promise<CliRun> {
  return runBlogpost(args, { env: { DATABASE_URL: databaseUrl, DATA_DIR: server.dataDir }, cwd: work });
}

beforeAll(async () => {
  databaseUrl = await freshDatabase(inject('postgresUrl'), 'support_bundle');
  server = await startTestServer({ openStore: () => openPostgresStore(databaseUrl, redactedUrl(databaseUrl)) });
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

it('explains a 412 from the database’s history and bundles it, the engine named without a password', async () => {
  const writer = await server.createKey('Integrator', ['blog:write', 'blog:read'], 'alice');
  const colleague = await server.createKey('Colleague', ['blog:write', 'blog:read'], 'alice');
  const send = (method: string, pathname: string, key: string, body: unknown, ifMatch?: string) =>
    fetch(`${server.url}${pathname}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(ifMatch ? { 'if-match': ifMatch } : {}) }, body: JSON.stringify(body) });
  const created = (await (await send('POST', '/api/blog', writer, validPost({ title: 'On PostgreSQL' }))).json()) as { post: { id: string; etag: string } };
  expect((await send('PATCH', `/api/blog/${created.post.id}`, colleague, { excerpt: 'Theirs.' }, created.post.etag)).status).toBe(200);
  const refused = await send('PATCH', `/api/blog/${created.post.id}`, writer, { excerpt: 'Mine.' }, created.post.etag);
  expect(refused.status).toBe(412);
  const id = refused.headers.get('x-request-id') ?? '';
  await vi.waitFor(async () => {
    if (!(await blogpost(['logs', '--request-id', id, '--json'])).stdout.includes(id)) throw new Error('not logged yet');
  }, { timeout: 20_000, interval: 200 });

  const diagnose = await blogpost(['diagnose', id]);
  expect(diagnose.code, diagnose.stderr).toBe(0);
  expect(diagnose.stdout).toContain(`revision 2: changed excerpt, by key "Colleague" (${colleague.slice(4, 14)}) on `);
  expect(diagnose.stdout).toContain('Key "Integrator"');

  const bundled = await blogpost(['support-bundle', id, '--out', 'pg.json']);
  expect(bundled.code, bundled.stderr).toBe(0);
  const text = readFileSync(path.join(work, 'pg.json'), 'utf8');
  const bundle = JSON.parse(text) as { settings: { engine: string; store: string }; key: { name: string }; post: { versions: Array<{ revision: number }> } };
  expect(bundle.settings.engine).toBe('postgres');
  expect(bundle.settings.store).toBe(redactedUrl(databaseUrl));
  expect(bundle.key.name).toBe('Integrator');
  expect(bundle.post.versions.map((version) => version.revision)).toEqual([2, 1]);
  expect(text).not.toContain(writer.slice(15));
});
