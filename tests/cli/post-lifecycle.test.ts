/**
 * An author's whole life with a post through `blogpost` (through the CLI's own entry, tests/support/cli.ts) against a real server:
 * publish creates and writes the id into the file, publishing again updates the same post (and never
 * duplicates it), a change made elsewhere to a field the file changes too stops the update with a 412
 * that shows it (--force overwrites), one to other fields is kept and said, list/get/unpublish/delete/restore/history/revert/schedule, the Markdown round trip of
 * `get --markdown`, --strict and another owner's post.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ID_LENGTH, API_KEY_PREFIX } from '../../contract/keys';
import { call } from '../api/support';
import { blogpost as runBlogpost, type CliRun } from '../support/cli';
import { startTestServer, type TestServer } from '../support/server';

const FIXTURE = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures/policy-loans.md');

let server: TestServer;
let writer: string;
let otherOwner: string;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer({ api: { writesPerMinute: 0 } });
  writer = await server.createKey('Evelyn laptop', ['blog:write'], 'Evelyn Hartwell');
  otherOwner = await server.createKey('Someone else', ['blog:write']);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'blogpost-lifecycle-'));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

function blogpost(args: string[], key = writer, input?: string): Promise<CliRun> {
  return runBlogpost(args, { cwd: tmp, env: { BLOGPOST_URL: server.url, BLOGPOST_API_KEY: key, BLOGPOST_STATE_FILE: path.join(tmp, 'state.json') }, ...(input !== undefined ? { input } : {}) });
}

function frontMatterValue(file: string, name: string): string | undefined {
  const front = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  // A value YAML would read as something else (a time) is written quoted: the value is what is inside.
  return new RegExp(`^${name}:\\s*(.+)$`, 'm').exec(front)?.[1]?.trim().replace(/^"(.*)"$/, '$1');
}

function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next, `edit of ${String(from)}`).not.toBe(text);
  writeFileSync(file, next);
}

async function storedPost(id: string) {
  const post = await server.store.posts.getById(id);
  if (!post) throw new Error(`post ${id} is not in the store`);
  return post;
}

describe('blogpost publish, again and again', () => {
  const file = () => path.join(tmp, 'loans.md');
  let id = '';

  it('creates the post the first time and writes its id and revision into the front matter', async () => {
    copyFileSync(FIXTURE, file());
    const run = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`${server.url}/blog/how-policy-loans-work-in-an-iul`);
    expect(run.stderr).toContain('Created "How Policy Loans Work in an IUL" as published');
    id = frontMatterValue(file(), 'id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(frontMatterValue(file(), 'revision')).toBe('1');
    // Everything the author wrote is still there, byte for byte, after the two new lines; the status
    // line says what --status made the post, so publishing the file alone sends the same.
    expect(readFileSync(file(), 'utf8')).toContain(readFileSync(FIXTURE, 'utf8').replace(/^---\n/, '').replace('status: draft\n', 'status: published\n'));
    expect((await storedPost(id)).status).toBe('published');
  });

  it('updates that post after an edit, printing what changed, and never makes a second one', async () => {
    edit(file(), 'tags: [policy loans, cash value]', 'tags: [policy loans, cash value, taxes]');
    edit(file(), 'Loan interest typically runs 4-6%.', 'Loan interest typically runs 5-8%.');
    const run = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('Updated "How Policy Loans Work in an IUL" (revision 2, published): changed content, tags.');
    expect(run.stderr).toContain('  tags: ["policy loans","cash value"] → ["policy loans","cash value","taxes"]');
    expect(run.stderr).toMatch(/ {2}content: changed \(\d+ → \d+ characters\)/);
    expect(frontMatterValue(file(), 'revision')).toBe('2');
    expect(await server.store.posts.counts()).toMatchObject({ published: 1, drafts: 0 });
    expect((await storedPost(id)).content).toContain('5-8%');
    const again = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No changes: "How Policy Loans Work in an IUL" is already as this file says (revision 2).');
  });

  it('stops with the other side\'s changes when the post changed on the server since in a field the file changes too, and --force overwrites them', async () => {
    const current = await call(server, 'GET', `/api/blog/${id}`, { key: writer });
    const content = (await storedPost(id)).content.replace('5-8%', '5-10%');
    const theirs = await call(server, 'PATCH', `/api/blog/${id}`, { key: writer, body: { title: 'Policy Loans, Explained', content }, headers: { 'If-Match': current.headers.get('etag') ?? '' } });
    expect(theirs.status).toBe(200);
    edit(file(), 'Loan interest typically runs 5-8%.', 'Loan interest typically runs 5-9%.');

    const stopped = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain(`The post ${id} was changed on the server since revision 2, which this file holds: it is at revision 3 now.`);
    const by = `key:${writer.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_ID_LENGTH)}`;
    expect(stopped.stderr).toContain(`content was changed there too, by ${by} at ${(await storedPost(id)).updatedAt} (revision 3), and this file changes it as well.`);
    expect(stopped.stderr).toContain('title: "How Policy Loans Work in an IUL" → "Policy Loans, Explained"');
    expect(stopped.stderr).toContain('--force');
    expect((await storedPost(id)).title).toBe('Policy Loans, Explained');
    expect((await storedPost(id)).content).not.toContain('5-9%');

    const forced = await blogpost(['publish', 'loans.md', '--status', 'published', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain('--force: replacing those changes with this file.');
    expect(forced.stderr).toContain('changed title, content');
    expect((await storedPost(id)).title).toBe('How Policy Loans Work in an IUL');
    expect(frontMatterValue(file(), 'revision')).toBe('4');
  });

  it('says to restore a post in the trash before publishing its file again, and changes nothing', async () => {
    expect((await call(server, 'DELETE', `/api/blog/${id}`, { key: writer })).status).toBe(200);
    const run = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The post ${id} is in the trash, so it was not updated: bring it back with blogpost restore ${id}, then publish again`);
    expect((await storedPost(id)).deletedAt).not.toBeNull();
    expect(frontMatterValue(file(), 'revision')).toBe('4');
    const restored = await blogpost(['restore', 'loans.md']);
    expect(restored.code, restored.stderr).toBe(0);
    // The delete and the restore moved the revision on, changing no field the file holds: the file is
    // still good, and publishing it says what happened since (before, only --force got through).
    const again = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('No changes');
    expect(again.stderr).toMatch(/Since revision 4: moved to the trash \(key:\w+, [^)]+\); restored from the trash \(key:\w+, [^)]+\)\./);
    expect(frontMatterValue(file(), 'revision')).toBe('6');
  });

  it('updates without a word of conflict when a change made elsewhere was undone since (no field differs)', async () => {
    const current = await call(server, 'GET', `/api/blog/${id}`, { key: writer });
    const changed = await call(server, 'PATCH', `/api/blog/${id}`, { key: writer, body: { title: 'A Title Tried Out' }, headers: { 'If-Match': current.headers.get('etag') ?? '' } });
    expect(changed.status).toBe(200);
    const undone = await call(server, 'POST', `/api/blog/${id}/revisions/6/revert`, { key: writer, headers: { 'If-Match': changed.headers.get('etag') ?? '' } });
    expect(undone.status).toBe(200);
    edit(file(), 'Loan interest typically runs 5-9%.', 'Loan interest typically runs 5-7%.');
    const run = await blogpost(['publish', 'loans.md', '--status', 'published']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Since revision 6: changed title, source \(key:\w+, [^)]+\); reverted to revision 6 \(key:\w+, [^)]+\)\./);
    expect(run.stderr).toContain('changed content');
    expect(frontMatterValue(file(), 'revision')).toBe('9');
  });

  it('--new creates another post and puts its id in the file', async () => {
    const run = await blogpost(['publish', 'loans.md', '--status', 'draft', '--new']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`--new: a new post is created, and the file's id ${id} is replaced`);
    const newId = frontMatterValue(file(), 'id');
    expect(newId).not.toBe(id);
    expect(await server.store.posts.counts()).toMatchObject({ published: 1, drafts: 1 });
    expect(run.stderr).toContain('Possible duplicate');
    await call(server, 'DELETE', `/api/blog/${newId}`, { key: writer });
  });

  it('writes the status and time that schedule gave into a file that had none, so the file publishes again as it is', async () => {
    const text = readFileSync(FIXTURE, 'utf8').replace('title: "How Policy Loans Work in an IUL"', 'title: "Policy Loans Scheduled Ahead"').replace('status: draft\n', '');
    writeFileSync(path.join(tmp, 'ahead.md'), text);
    const scheduled = await blogpost(['schedule', 'ahead.md', '--at', '2030-06-01T09:00:00-04:00']);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    expect(frontMatterValue(path.join(tmp, 'ahead.md'), 'status')).toBe('scheduled');
    // Written quoted, so YAML keeps it the text the author gave (unquoted, it would read it as a date).
    expect(readFileSync(path.join(tmp, 'ahead.md'), 'utf8')).toContain('publish_at: "2030-06-01T09:00:00-04:00"\n');
    const scheduledId = frontMatterValue(path.join(tmp, 'ahead.md'), 'id') ?? '';
    expect((await storedPost(scheduledId)).status).toBe('scheduled');

    edit(path.join(tmp, 'ahead.md'), 'Loan interest typically runs 4-6%.', 'Loan interest typically runs 5-7%.');
    const again = await blogpost(['publish', 'ahead.md']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('(revision 2, scheduled');
    expect((await storedPost(scheduledId)).content).toContain('5-7%');
    await call(server, 'DELETE', `/api/blog/${scheduledId}`, { key: writer });
  });

  it('takes a JSON post from standard input twice as one post (the Idempotency-Key), and says how to record its id', async () => {
    const body = JSON.stringify({ title: 'Stdin Post About Caps', content: '<p>Caps limit the credited rate.</p>', excerpt: 'Caps.', category: 'IUL Strategies', author: { name: 'Evelyn Hartwell' }, status: 'draft' });
    const first = await blogpost(['publish', '-'], writer, body);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('note: add "id: ');
    const second = await blogpost(['publish', '-'], writer, body);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Already published with this Idempotency-Key: nothing new was created');
  });
});

describe('blogpost list, get, unpublish, delete, restore, history, revert and schedule', () => {
  let id = '';
  const slug = 'tax-free-retirement-income-with-iul';

  beforeAll(async () => {
    writeFileSync(
      path.join(tmp, 'income.md'),
      '---\ntitle: Tax-Free Retirement Income with IUL\ncategory: Tax Benefits\ntags: [retirement, "tax-free"]\nstatus: published\nauthor:\n  name: Evelyn Hartwell\n---\n\nPolicy loans can give **tax-free** income[^1] in retirement.\n\n## How it works\n\n1. Fund the policy.\n2. Borrow against it.\n\n| Age | Income |\n| --- | --- |\n| 65 | $40,000 |\n\n[^1]: Under current tax law, when the policy stays in force.\n',
    );
    const run = await blogpost(['publish', 'income.md']);
    expect(run.code, run.stderr).toBe(0);
    id = frontMatterValue(path.join(tmp, 'income.md'), 'id') ?? '';
  });

  it('list --mine shows the owner\'s posts in every status, as a table, CSV or JSON; another owner sees none of them', async () => {
    const table = await blogpost(['list', '--mine']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+DATE\s+TITLE$/);
    expect(table.stdout).toContain(id);
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+published\\s+\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\s+Tax-Free Retirement Income with IUL`));
    expect(table.stdout).toMatch(/draft\s+changed/);

    const csv = await blogpost(['list', '--mine', '--format', 'csv']);
    const [header, ...rows] = csv.stdout.trim().split('\n');
    expect(header).toBe('id,status,title,slug,category,tags,author,created_at,updated_at,published_at,publish_at,deleted_at,revision,url');
    expect(rows.find((row) => row.startsWith(id))).toContain(`,published,Tax-Free Retirement Income with IUL,${slug},tax-benefits,retirement; tax-free,Evelyn Hartwell,`);

    const json = JSON.parse((await blogpost(['list', '--mine', '--status', 'published', '--json'])).stdout) as { posts: { id: string; status: string }[]; total: number };
    expect(json.posts.every((post) => post.status === 'published')).toBe(true);
    expect(json.posts.map((post) => post.id)).toContain(id);

    const others = await blogpost(['list', '--mine'], otherOwner);
    expect(others.code).toBe(0);
    expect(others.stderr).toContain('You have no posts here yet');
    const both = await blogpost(['list', '--json', '--format', 'csv']);
    expect(both.code).toBe(2);
  });

  it('get shows a post by slug; get --markdown writes a file that publish takes back unchanged', async () => {
    const shown = await blogpost(['get', slug]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${id}$`, 'm'));
    expect(shown.stdout).toMatch(/^revision\s+1 \(ETag "[0-9a-f]{8}-r1"\)$/m);

    const written = await blogpost(['get', slug, '--markdown', '--output', 'copy.md']);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toContain('Wrote "Tax-Free Retirement Income with IUL" (revision 1) to copy.md');
    expect(frontMatterValue(path.join(tmp, 'copy.md'), 'id')).toBe(id);
    const exists = await blogpost(['get', slug, '--markdown', '--output', 'copy.md']);
    expect(exists.code).toBe(1);
    expect(exists.stderr).toContain('copy.md exists: pass --force');

    const before = await storedPost(id);
    const back = await blogpost(['publish', 'copy.md']);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain('No changes');
    const after = await storedPost(id);
    expect(after.revision).toBe(before.revision);
    expect(after.content).toBe(before.content);
    expect(after.content).toContain('footnote');
  });

  it('unpublish makes it a draft (off the site), schedule --at publishes it later, delete sends it to the trash (410), restore brings it back', async () => {
    const unpublished = await blogpost(['unpublish', 'income.md']);
    expect(unpublished.code, unpublished.stderr).toBe(0);
    expect(unpublished.stderr).toContain('is a draft again');
    expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(404);

    const past = await blogpost(['schedule', id, '--at', '2020-01-01T09:00:00-05:00']);
    expect(past.code).toBe(2);
    expect(past.stderr).toContain('is in the past');
    const zoneless = await blogpost(['schedule', id, '--at', '2030-01-01T09:00:00']);
    expect(zoneless.code).toBe(2);
    expect(zoneless.stderr).toMatch(/offset/);
    const scheduled = await blogpost(['schedule', id, '--at', '2030-06-01T09:00:00-04:00']);
    expect(scheduled.code, scheduled.stderr).toBe(0);
    expect(scheduled.stderr).toContain('goes live at 2030-06-01T13:00:00.000Z');
    expect((await storedPost(id)).status).toBe('scheduled');
    await call(server, 'PATCH', `/api/blog/${id}`, { key: writer, body: { status: 'published', publish_at: null }, headers: { 'If-Match': '*' } });

    const deleted = await blogpost(['delete', slug]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain('Moved "Tax-Free Retirement Income with IUL" to the trash: its page answers 410 Gone.');
    expect(deleted.stderr).toContain(`blogpost restore ${id}`);
    expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(410);
    const trashed = await blogpost(['list', '--mine', '--status', 'trashed']);
    expect(trashed.stdout).toMatch(new RegExp(`${id}\\s+trashed\\s+deleted`));

    const restored = await blogpost(['restore', id]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain(`Restored "Tax-Free Retirement Income with IUL" as published: ${server.url}/blog/${slug}`);
    expect((await fetch(`${server.url}/blog/${slug}`)).status).toBe(200);
  });

  it('history lists every version with who made it, what it changed and why, and revert brings one back as a new revision', async () => {
    const renamed = await call(server, 'PATCH', `/api/blog/${id}`, { key: writer, body: { excerpt: 'A shorter summary.' }, headers: { 'If-Match': '*' } });
    expect(renamed.status).toBe(200);
    const history = await blogpost(['history', id]);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stderr).toMatch(/is at revision \d+\./);
    expect(history.stdout.split('\n')[0]).toMatch(/^REVISION\s+MADE\s+BY\s+STATUS\s+TITLE\s+CHANGED\s+WHY$/);
    expect(history.stdout).toMatch(/^1\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\s+key:\w+\s+published\s+Tax-Free Retirement Income with IUL\s+-\s+created$/m);
    expect(history.stdout).toMatch(/^\d+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\s+key:\w+\s+published\s+Tax-Free Retirement Income with IUL\s+-\s+moved to the trash$/m);

    const current = await storedPost(id);
    const reverted = await blogpost(['revert', id, '1']);
    expect(reverted.code, reverted.stderr).toBe(0);
    expect(reverted.stderr).toContain(`has the content of revision 1 again, as revision ${current.revision + 1}`);
    expect((await storedPost(id)).excerpt).not.toBe('A shorter summary.');
    const missing = await blogpost(['revert', id, '999']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('revision_not_found');
  });

  it('refuses another owner\'s post with 403 not_post_owner, and names a file that was never published', async () => {
    const refused = await blogpost(['delete', id], otherOwner);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('403 not_post_owner');
    expect((await storedPost(id)).deletedAt).toBeNull();
    writeFileSync(path.join(tmp, 'fresh.md'), '---\ntitle: Never Sent\n---\nText.\n');
    const fresh = await blogpost(['unpublish', 'fresh.md']);
    expect(fresh.code).toBe(1);
    expect(fresh.stderr).toContain('fresh.md has no id in its front matter');
  });
});

describe('blogpost --strict and warnings', () => {
  it('names an unknown category with the closest built-in one, and --strict stops before sending', async () => {
    writeFileSync(path.join(tmp, 'typo.md'), '---\ntitle: Caps and Floors in Practice\ncategory: Tax Benefit\nauthor:\n  name: Evelyn Hartwell\nstatus: draft\n---\nCaps and floors shape the credited rate.\n');
    const before = await server.store.posts.counts();
    const strict = await blogpost(['publish', 'typo.md', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('Category "Tax Benefit" is not a built-in category');
    expect(strict.stderr).toContain('Did you mean "Tax Benefits"?');
    expect(strict.stderr).toContain('--strict: 1 warning, so nothing was sent.');
    expect(await server.store.posts.counts()).toEqual(before);
    const validate = await blogpost(['validate', 'typo.md', '--strict']);
    expect(validate.code).toBe(1);
    const relaxed = await blogpost(['validate', 'typo.md']);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stderr).toContain('Did you mean "Tax Benefits"?');
  });

  it('--strict refuses a possible duplicate before creating it', async () => {
    writeFileSync(path.join(tmp, 'dup.md'), '---\ntitle: Tax-Free Retirement Income with IUL\ncategory: Tax Benefits\nauthor:\n  name: Evelyn Hartwell\nstatus: draft\n---\nThe same title again.\n');
    const before = await server.store.posts.counts();
    const run = await blogpost(['publish', 'dup.md', '--strict']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Possible duplicate');
    expect(run.stderr).toContain('nothing was sent');
    expect(await server.store.posts.counts()).toEqual(before);
  });
});
