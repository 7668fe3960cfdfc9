/**
 * An author's file stays valid while others move the post on (through the CLI's own entry against a
 * real server whose clock the test moves): after a schedule, going live, a trip to the trash and back,
 * a reviewer's send-back with a note and an approval, publishing the edited file succeeds without
 * --force and says what happened in between; `history` lists every revision without a gap; two
 * authors changing the same field meet a 412 that names the field, the other author and the time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ID_LENGTH, API_KEY_PREFIX } from '../../contract/keys';
import { call } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

let server: TestServer;
let clock = Date.now();
let author: string;
let colleague: string;
let reviewer: string;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0, complianceMode: 'review' }, now: () => new Date(clock) });
  author = await server.createKey('Evelyn laptop', ['blog:write'], 'Evelyn Hartwell');
  colleague = await server.createKey('Marcus desk', ['blog:write'], 'Evelyn Hartwell');
  reviewer = await server.createKey('Compliance desk', ['blog:admin']);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-revisions-'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function blogpost(args: string[], key = author): Promise<CliRun> {
  return runBlogpost(args, { cwd: tmp, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') } });
}

/** The public id a key is named by in a revision and the audit log (`key:<id>`). */
function keyId(key: string): string {
  return key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_ID_LENGTH);
}

function frontMatterValue(file: string, name: string): string | undefined {
  const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(front)?.[1]?.trim().replace(/^"(.*)"$/, '$1');
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text, `the file holds ${from}`).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

async function stored(id: string) {
  const post = await server.store.posts.getById(id);
  if (!post) throw new Error(`post ${id} is not in the store`);
  return post;
}

async function etagOf(id: string): Promise<string> {
  return (await call(server, 'GET', `/api/blog/${id}`, { key: reviewer })).headers.get('etag') ?? '';
}

describe("an author's file while others move the post on", () => {
  const file = () => path.join(tmp, 'caps.md');
  let id = '';

  beforeAll(async () => {
    writeFileSync(
      file(),
      '---\ntitle: How Caps Shape IUL Credits\ncategory: IUL Strategies\ntags: [caps]\nstatus: draft\nauthor:\n  name: Evelyn Hartwell\n---\n\nA cap limits the credited rate in a good year.\n\nThe floor keeps a bad year at zero.\n',
    );
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    id = frontMatterValue(file(), 'id') ?? '';
  });

  it('keeps a schedule made elsewhere, applies the edit on top and writes the status into the file', async () => {
    const scheduled = await call(server, 'PATCH', `/api/blog/${id}`, { key: colleague, body: { status: 'scheduled', publish_at: '2030-06-01T13:00:00Z' }, headers: { 'If-Match': await etagOf(id) } });
    expect(scheduled.status).toBe(200);
    edit(file(), 'in a good year', 'in a strong year');
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(revision 3, scheduled');
    expect(run.stderr).toContain(`Since revision 1: changed status, publish_at (key:${keyId(colleague)}, `);
    expect(frontMatterValue(file(), 'status')).toBe('scheduled');
    expect(frontMatterValue(file(), 'publish_at')).toBe('2030-06-01T13:00:00.000Z');
    expect(await stored(id)).toMatchObject({ status: 'scheduled', publishAt: '2030-06-01T13:00:00.000Z', revision: 3 });
    expect((await stored(id)).content).toContain('strong year');
  });

  it('keeps the post live after it went live on schedule', async () => {
    clock = Date.parse('2030-06-01T14:00:00Z');
    await server.scheduler.stop();
    await server.scheduler.start();
    expect((await stored(id)).status).toBe('published');
    edit(file(), 'at zero', 'at zero, whatever the index did');
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Since revision 3: went live on schedule (scheduler, 2030-06-01T13:00:00.000Z).');
    expect(frontMatterValue(file(), 'status')).toBe('published');
    expect(frontMatterValue(file(), 'publish_at')).toBeUndefined();
    expect(await stored(id)).toMatchObject({ status: 'published', publishedAt: '2030-06-01T13:00:00.000Z', revision: 5 });
  });

  it('applies the edit after the post went to the trash and came back', async () => {
    expect((await call(server, 'DELETE', `/api/blog/${id}`, { key: colleague })).status).toBe(200);
    const restored = await blogpost(['restore', id]);
    expect(restored.code, restored.stderr).toBe(0);
    edit(file(), 'A cap limits', 'A cap usually limits');
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Since revision 5: moved to the trash (key:${keyId(colleague)}, `);
    expect(run.stderr).toContain(`restored from the trash (key:${keyId(author)}, `);
    expect((await stored(id)).revision).toBe(8);
  });

  it("shows the reviewer's note and the rules after a send-back, instead of a conflict", async () => {
    edit(file(), 'A cap usually limits', 'This policy is risk-free and pays guaranteed returns every year. A cap usually limits');
    const held = await blogpost(['publish', 'caps.md']);
    expect(held.code, held.stderr).toBe(0);
    expect((await stored(id)).status).toBe('in_review');
    const note = 'Please remove the promise of guaranteed returns.';
    const returned = await call(server, 'POST', `/api/blog/${id}/review`, { key: reviewer, body: { decision: 'return', note }, headers: { 'If-Match': await etagOf(id) } });
    expect(returned.status).toBe(200);

    edit(file(), 'This policy is risk-free and pays guaranteed returns every year. ', '');
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Since revision 9: sent back in compliance review: ${note} (key:${keyId(reviewer)}, `);
    expect(run.stderr).toContain(`Reviewer's note: ${note}`);
    expect(run.stderr).toMatch(/Rules to fix: \S/);
    expect(await stored(id)).toMatchObject({ status: 'draft', revision: 11, review: { state: 'returned', note } });
    expect(frontMatterValue(file(), 'status')).toBe('draft');
  });

  it('applies the edit after an approval', async () => {
    writeFileSync(file(), readFileSync(file(), 'utf8').replace(/^status: .*$/m, 'status: published').replace('A cap usually limits', 'This policy is risk-free. A cap usually limits'));
    const held = await blogpost(['publish', 'caps.md']);
    expect(held.code, held.stderr).toBe(0);
    expect((await stored(id)).status).toBe('in_review');
    const approved = await call(server, 'POST', `/api/blog/${id}/review`, { key: reviewer, body: { decision: 'approve', reason: 'Risk-free is removed in the next revision.' }, headers: { 'If-Match': await etagOf(id) } });
    expect(approved.status).toBe(200);

    edit(file(), 'This policy is risk-free. ', '');
    const run = await blogpost(['publish', 'caps.md']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Since revision 12: approved in compliance review despite high findings: Risk-free is removed in the next revision. (key:${keyId(reviewer)}, `);
    expect(await stored(id)).toMatchObject({ status: 'published', revision: 14 });
  });

  it('lists every revision in history, without a gap, with who made each and why', async () => {
    const run = await blogpost(['history', id]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^REVISION\s+MADE\s+BY\s+STATUS\s+TITLE\s+CHANGED\s+WHY$/);
    const numbers = lines.slice(1).map((line) => Number(/^(\d+)/.exec(line)?.[1]));
    expect(numbers).toEqual(Array.from({ length: 14 }, (_, index) => 14 - index));
    expect(run.stdout).toMatch(/^14 \(now\)\s/m);
    expect(run.stdout).toMatch(/^4\s+2030-06-01 13:00 UTC\s+scheduler\s+published\s.*went live on schedule$/m);
    expect(run.stdout).toMatch(new RegExp(`^6\\s+\\S+ \\S+ UTC\\s+key:${keyId(colleague)}\\s+published\\s.*moved to the trash$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^10\\s+\\S+ \\S+ UTC\\s+key:${keyId(reviewer)}\\s+draft\\s.*sent back in compliance review: Please remove`, 'm'));
  });

  it('lets two authors change different fields, and stops the second with the field, the author and the time when both change the same one', async () => {
    const other = path.join(tmp, 'caps-colleague.md');
    writeFileSync(other, readFileSync(file(), 'utf8'));
    edit(other, 'tags: [caps]', 'tags: [caps, floors]');
    const theirs = await blogpost(['publish', 'caps-colleague.md'], colleague);
    expect(theirs.code, theirs.stderr).toBe(0);
    edit(file(), 'title: How Caps Shape IUL Credits', 'title: How Caps and Floors Shape IUL Credits');
    const mine = await blogpost(['publish', 'caps.md']);
    expect(mine.code, mine.stderr).toBe(0);
    expect(mine.stderr).toContain(`Since revision 14: changed tags (key:${keyId(colleague)}, `);
    expect(await stored(id)).toMatchObject({ title: 'How Caps and Floors Shape IUL Credits', tags: ['caps', 'floors'], revision: 16 });

    edit(other, 'The floor keeps', 'The index floor keeps');
    expect((await blogpost(['publish', 'caps-colleague.md'], colleague)).code).toBe(0);
    const at = (await stored(id)).updatedAt;
    edit(file(), 'The floor keeps', 'A floor keeps');
    const stopped = await blogpost(['publish', 'caps.md']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`content was changed there too, by key:${keyId(colleague)} at ${at} (revision 17), and this file changes it as well.`);
    expect((await stored(id)).content).toContain('The index floor keeps');
  });
});
