/**
 * The author's Markdown comes back exactly, with the server and the `blogpost` bin as real processes
 * (decision 0022): the post (hard-wrapped paragraphs, a table with `:---:` and `---:` columns,
 * a fenced code block, a footnote, a blockquote, negative percentages, two local images) is published,
 * `get --markdown` into a new file gives the author's file byte for byte apart from id, revision and
 * status, and publishing that file again prints "No changes" and makes no revision.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { KeyService } from '../../api/services/keys';
import { openSqliteStore } from '../../api/store/sql/sql-store';
import { AUTHOR_FILE, withoutBookkeeping, writeAuthorImages } from '../support/author-post';
import { blogpostProcess, type CliRun } from '../support/cli';
import { exited, startServerProcess, type ServerProcess } from '../support/server-process';
import { makeTempDir } from '../support/server';

const dataDir = makeTempDir('iul-markdown-data-');
const work = makeTempDir('iul-markdown-author-');
let server: ServerProcess;
let key = '';

beforeAll(async () => {
  const store = await openSqliteStore(dataDir);
  key = (await new KeyService(store.keys).create({ name: 'Evelyn laptop', permissions: ['blog:write'] })).secret;
  await store.close();
  await writeAuthorImages(work);
  server = await startServerProcess({ DATA_DIR: dataDir, SEED_DEMO_CONTENT: 'false', RATE_LIMIT_WRITES_PER_MINUTE: '0' });
}, 120_000);

afterAll(async () => {
  server?.child.kill('SIGTERM');
  if (server) await exited(server.child);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function blogpost(args: string[]): Promise<CliRun> {
  return blogpostProcess(args, { cwd: work, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(work, 'state.json') } });
}

async function revisionCount(id: string): Promise<number> {
  const res = await fetch(`${server.url}/api/blog/${id}/revisions`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { revisions: unknown[] }).revisions.length;
}

it('publishes the issue\'s post, pulls it back byte for byte, and publishing it again changes nothing', async () => {
  writeFileSync(path.join(work, 'loans.md'), AUTHOR_FILE);
  const published = await blogpost(['publish', 'loans.md']);
  expect(published.code, published.stderr).toBe(0);
  expect(published.stderr).toContain('Images: 2 uploaded');
  expect(published.stderr).not.toMatch(/Removed attribute align/);
  const written = readFileSync(path.join(work, 'loans.md'), 'utf8');
  const id = /^id: (.+)$/m.exec(written)?.[1] ?? '';
  expect(id).not.toBe('');

  const pulled = await blogpost(['get', id, '--markdown', '--output', 'pulled.md']);
  expect(pulled.code, pulled.stderr).toBe(0);
  const text = readFileSync(path.join(work, 'pulled.md'), 'utf8');
  expect(withoutBookkeeping(text)).toBe(withoutBookkeeping(AUTHOR_FILE));
  expect(text).toBe(written);

  const before = await revisionCount(id);
  const again = await blogpost(['publish', 'pulled.md']);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toContain('No changes');
  expect(await revisionCount(id)).toBe(before);
  const current = await fetch(`${server.url}/api/blog/${id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(((await current.json()) as { post: { revision: number } }).post.revision).toBe(1);
}, 180_000);
