/**
 * The first start on a data directory of the file store imports it: fixtures/file-store-v1 is such a
 * directory, written by the previous release's server code through its API and services (seven posts,
 * one of each state, one renamed with two kept versions, one held for review and one sent back; two
 * keys, one revoked, and the demo key's date; a staff account and its session; three quote requests
 * with their consent records and notifications, sent, failing and waiting; the audit log; an uploaded
 * image with its six variant files). Each test opens a copy with openSqliteStore.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../project-root';
import { deliveryRecordSchema, keyRecordSchema, leadRecordSchema, manifestSchema, mediaRecordSchema, postRecordSchema, revisionsFileSchema } from '../records';
import { openSqliteStore } from '../sql/sql-store';
import type { Store } from '../store';
import { StoreError } from '../store-error';
import type { DamagedFile, LegacyPostEntry } from './file-store-reader';
import { hasLegacyData } from './import-file-store';
import { planPosts } from './import-posts';

const FIXTURE = path.join(PROJECT_ROOT, 'fixtures', 'file-store-v1');
const NOW = new Date('2026-11-28T12:00:00.000Z');
const MOVED = 'file-store-2026-11-28';

const dirs: string[] = [];
const stores: Store[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture, with a day of request log beside it (which must stay where it is). */
function copyOfFixture(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-legacy-import-'));
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(path.join(dir, 'logs'));
  writeFileSync(path.join(dir, 'logs', 'requests-2026-11-02.jsonl'), '{"at":"2026-11-02T10:00:00.000Z"}\n');
  return dir;
}

async function open(dir: string, options: { beforeQuery?: (sql: string) => void } = {}): Promise<{ store: Store; log: string[] }> {
  const log: string[] = [];
  const store = await openSqliteStore(dir, { now: () => NOW, log: (line) => log.push(line), ...options });
  stores.push(store);
  return { store, log };
}

const json = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const fixtureFile = (...parts: string[]) => path.join(FIXTURE, ...parts);
const names = (...parts: string[]) => readdirSync(fixtureFile(...parts)).sort();
const idOf = (name: string) => name.slice(0, -'.json'.length);

/** Every file under `dir`, relative to it, with the SHA-256 of its bytes. */
function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, file), createHash('sha256').update(readFileSync(file)).digest('hex'));
  }
  return found;
}

async function postBySlug(store: Store, slug: string) {
  const post = await store.posts.getBySlug(slug);
  if (!post) throw new Error(`no post ${slug}`);
  return post;
}

describe('the first start on a data directory of the file store', () => {
  it('knows a data directory of the file store from an empty one', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'iul-legacy-empty-'));
    dirs.push(empty);
    expect(hasLegacyData(FIXTURE)).toBe(true);
    expect(hasLegacyData(empty)).toBe(false);
  });

  it('imports every post with its status, slugs now and before, and kept versions', async () => {
    const { store } = await open(copyOfFixture());
    expect(store.created).toBe(false);
    expect(await store.posts.counts()).toEqual({ published: 2, drafts: 2, scheduled: 1, inReview: 1, trashed: 1 });
    for (const name of names('posts')) {
      expect(await store.posts.getById(idOf(name))).toEqual(postRecordSchema.parse(json(fixtureFile('posts', name))));
    }
    const renamed = await postBySlug(store, 'how-iul-policy-loans-work');
    expect(renamed).toMatchObject({ status: 'published', revision: 3, previousSlugs: ['how-policy-loans-work'], title: 'How IUL Policy Loans Work' });
    expect(await store.posts.lookupSlug('how-policy-loans-work')).toMatchObject({ kind: 'previous', post: { id: renamed.id } });
    const kept = await store.posts.revisions(renamed.id);
    expect(kept).toEqual(revisionsFileSchema.parse(json(fixtureFile('revisions', `${renamed.id}.json`))).revisions);
    expect(kept.map((revision) => [revision.record.revision, revision.changed])).toEqual([[2, ['title', 'slug', 'excerpt']], [1, ['content']]]);

    expect((await postBySlug(store, 'draft-comparing-term-and-iul-premiums')).status).toBe('draft');
    expect(await postBySlug(store, 'the-2031-contribution-limits-explained')).toMatchObject({ status: 'scheduled', publishAt: '2031-01-15T09:00:00.000Z' });
    expect(await store.posts.nextScheduledAt()).toEqual(new Date('2031-01-15T09:00:00.000Z'));
    const trashed = await store.posts.list({ status: 'trashed' });
    expect(trashed.entries.map((entry) => entry.slug)).toEqual(['an-outdated-note-on-policy-loans']);
    expect(await postBySlug(store, 'guaranteed-returns-with-no-risk')).toMatchObject({
      status: 'in_review',
      review: { state: 'pending', requestedStatus: 'published', rules: expect.arrayContaining(['guaranteed-returns', 'risk-free']) as unknown },
    });
    expect(await postBySlug(store, 'risk-free-retirement-income')).toMatchObject({
      status: 'draft',
      review: { state: 'returned', note: 'Please remove the promises of guaranteed returns.', decidedBy: 'staff:reviewer@example.com' },
    });
    const cover = (await postBySlug(store, 'why-max-funded-iul-beats-a-taxable-account')).coverImage;
    expect(cover?.mediaId).toBe(idOf(names('media').find((name) => name.endsWith('.json')) ?? ''));
  });

  it('imports the keys and the demo key date, the staff account, its session and the audit log', async () => {
    const { store } = await open(copyOfFixture());
    const manifest = manifestSchema.parse(json(fixtureFile('blog.json')));
    expect(await store.keys.list()).toEqual(manifest.keys.map((key) => keyRecordSchema.parse(key)));
    expect((await store.keys.list()).map((key) => [key.name, key.revokedAt !== null])).toEqual([['Demo key', false], ['Old CMS integration', true]]);
    expect(await store.keys.demoKeyIssuedAt()).toBe(manifest.demoKeyIssuedAt);
    const { staff } = json(fixtureFile('staff.json')) as { staff: unknown[] };
    expect(await store.staff.list()).toEqual(staff);
    expect((await store.staff.findByEmail('Reviewer@Example.com'))?.name).toBe('Riley Reviewer');
    for (const name of names('sessions')) expect(await store.sessions.get(idOf(name))).toEqual(json(fixtureFile('sessions', name)));
    const lines = readFileSync(fixtureFile('audit', 'audit-2026-11.jsonl'), 'utf8').trim().split('\n');
    expect(await store.audit.list()).toEqual(lines.map((line) => JSON.parse(line) as unknown));
    expect((await store.audit.list()).map((entry) => entry.action)).toContain('review.returned');
  });

  it('imports the quote requests with their consent records and notifications, sent or waiting', async () => {
    const { store } = await open(copyOfFixture());
    expect(await store.leads.list({ spam: 'any' })).toHaveLength(3);
    for (const name of names('leads')) {
      const lead = leadRecordSchema.parse(json(fixtureFile('leads', name)));
      expect(await store.leads.get(lead.id)).toEqual(lead);
      const notifications = names('outbox').filter((file) => file.startsWith(`${lead.id}.`)).map((file) => deliveryRecordSchema.parse(json(fixtureFile('outbox', file))));
      expect(await store.outbox.forLead(lead.id)).toEqual(notifications);
    }
    expect((await store.leads.list()).map((lead) => lead.consent.given).sort()).toEqual([false, true, true]);
    const pending = await store.outbox.pending();
    expect(pending).toHaveLength(3);
    expect(pending.find((delivery) => delivery.attempts === 3)).toMatchObject({ channel: 'webhook', lastError: 'HTTP 503 from the receiver: Service Unavailable', sentAt: null });
  });

  it('imports the image record and leaves its files where they were, readable through the store', async () => {
    const dir = copyOfFixture();
    const { store } = await open(dir);
    const [recordName] = names('media').filter((name) => name.endsWith('.json'));
    const record = mediaRecordSchema.parse(json(fixtureFile('media', recordName ?? '')));
    expect(await store.media.get(record.id)).toEqual(record);
    expect(await store.media.list()).toEqual([record]);
    expect(record.variants).toHaveLength(6);
    for (const variant of record.variants) {
      const bytes = readFileSync(fixtureFile('media', 'files', variant.file));
      expect(Buffer.from((await store.media.read(variant.file)) ?? [])).toEqual(bytes);
      expect(readFileSync(path.join(dir, 'media', 'files', variant.file))).toEqual(bytes);
    }
  });

  it('moves the old files into a dated folder, deletes nothing, says what it did, and imports nothing the next time', async () => {
    const dir = copyOfFixture();
    const first = await open(dir);
    const before = filesUnder(FIXTURE);
    const moved = filesUnder(path.join(dir, MOVED));
    for (const [file, hash] of before) {
      if (file.startsWith(path.join('media', 'files'))) expect(filesUnder(path.join(dir, 'media', 'files')).get(path.relative(path.join('media', 'files'), file))).toBe(hash);
      else expect(moved.get(file), file).toBe(hash);
    }
    expect(moved.size).toBe([...before.keys()].filter((file) => !file.startsWith(path.join('media', 'files'))).length);
    expect(readdirSync(dir).filter((name) => !name.startsWith('store.sqlite')).sort()).toEqual([MOVED, 'logs', 'media']);
    expect(readdirSync(path.join(dir, 'media'))).toEqual(['files']);
    expect(readdirSync(path.join(dir, 'logs'))).toEqual(['requests-2026-11-02.jsonl']);
    expect(first.log).toContain(
      `Imported 7 posts (2 revisions), 2 API keys (the demo key issued before), 1 staff account, 1 sign-in session, 3 quote requests (6 notifications), 8 audit entries and 1 image (6 files, left in place in ${path.join(dir, 'media', 'files')}) from the file store in ${dir}; the old files are in ${path.join(dir, MOVED)}${path.sep} (nothing was deleted: remove that folder once the site looks right).`,
    );
    expect(first.log.filter((line) => line.startsWith('Not imported'))).toEqual([]);
    expect(hasLegacyData(dir)).toBe(false);
    await first.store.close();

    const second = await open(dir);
    expect(second.log.filter((line) => /import/i.test(line))).toEqual([]);
    expect(second.store.created).toBe(false);
    expect(await second.store.posts.counts()).toEqual({ published: 2, drafts: 2, scheduled: 1, inReview: 1, trashed: 1 });
    expect(readdirSync(dir).filter((name) => name.startsWith('file-store-'))).toEqual([MOVED]);
    expect(filesUnder(path.join(dir, MOVED))).toEqual(moved);
  });

  it('names a damaged post file, a damaged lead file and a quarantined file, skips them and imports everything else', async () => {
    const dir = copyOfFixture();
    const scheduled = names('posts').find((name) => (json(fixtureFile('posts', name)) as { status: string }).status === 'scheduled') ?? '';
    writeFileSync(path.join(dir, 'posts', scheduled), '{ "id": "cut off by a power loss", ');
    const [leadName = ''] = names('leads');
    const lead = json(fixtureFile('leads', leadName)) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'leads', leadName), JSON.stringify({ ...lead, age: 'forty-five' }));
    mkdirSync(path.join(dir, 'quarantine', 'posts'), { recursive: true });
    writeFileSync(path.join(dir, 'quarantine', 'posts', 'old.json'), '');
    writeFileSync(path.join(dir, 'quarantine', 'posts', 'old.json.note.json'), JSON.stringify({ originalPath: 'posts/old.json', reason: 'the file is empty', movedAt: '2026-11-01T00:00:00.000Z' }));

    const { store, log } = await open(dir);
    expect(log).toContain(`Not imported: ${path.join(dir, 'posts', scheduled)}: not valid JSON: ${jsonError('{ "id": "cut off by a power loss", ')}.`);
    expect(log).toContain(`Not imported: ${path.join(dir, 'leads', leadName)}: unexpected content at age: Invalid input: expected number, received string.`);
    for (const channel of ['email', 'webhook']) {
      expect(log).toContain(`Not imported: ${path.join(dir, 'outbox', `${idOf(leadName)}.${channel}.json`)}: its quote request ${idOf(leadName)} is missing or damaged (the outbox dropped such notifications too).`);
    }
    expect(log).toContain(`Not imported: ${path.join(dir, 'quarantine', 'posts', 'old.json')}, which the file store had moved aside from ${path.join(dir, 'posts', 'old.json')} (the file is empty).`);
    expect(log.find((line) => line.startsWith('Imported '))).toMatch(/^Imported 6 posts \(2 revisions\), 2 API keys .*, 2 quote requests \(4 notifications\), 8 audit entries and 1 image/);
    expect(await store.posts.counts()).toEqual({ published: 2, drafts: 2, scheduled: 0, inReview: 1, trashed: 1 });
    expect(await store.leads.get(idOf(leadName))).toBeNull();
    expect(await store.leads.list()).toHaveLength(2);
    // Kept, as they were, with everything else of the file store.
    expect(readFileSync(path.join(dir, MOVED, 'posts', scheduled), 'utf8')).toBe('{ "id": "cut off by a power loss", ');
    expect(existsSync(path.join(dir, MOVED, 'leads', leadName))).toBe(true);
    expect(existsSync(path.join(dir, MOVED, 'quarantine', 'posts', 'old.json.note.json'))).toBe(true);
  });

  it('keeps the old files in place when the import fails midway, says what to do, and resumes at the next start', async () => {
    const dir = copyOfFixture();
    let failures = 1;
    const beforeQuery = (statement: string) => {
      if (failures > 0 && /^\s*insert into "leads"/i.test(statement)) {
        failures--;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
    };
    const failed = await openSqliteStore(dir, { now: () => NOW, beforeQuery }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(StoreError);
    expect((failed as StoreError).message).toMatch(/^Importing the file store in .* stopped at the quote request leads\/lead_\w+\.json: .*full.* fix the cause, then start again, and the import resumes where it stopped/);
    expect(existsSync(path.join(dir, 'blog.json'))).toBe(true);
    expect(existsSync(path.join(dir, MOVED))).toBe(false);
    expect(filesUnder(dir).get(path.join('posts', names('posts')[0] ?? ''))).toBe(filesUnder(FIXTURE).get(path.join('posts', names('posts')[0] ?? '')));

    const { store, log } = await open(dir);
    expect(log[0]).toMatch(/^Resuming the import of the file store in /);
    expect(log.find((line) => line.startsWith('Imported '))).toMatch(/^Imported 7 posts \(2 revisions\), 2 API keys .*, 3 quote requests \(6 notifications\), 8 audit entries and 1 image/);
    expect(store.created).toBe(false);
    expect(await store.leads.list({ spam: 'any' })).toHaveLength(3);
    expect(await store.audit.list()).toHaveLength(8);
    expect(existsSync(path.join(dir, 'file-store-import.json'))).toBe(false);
    expect(existsSync(path.join(dir, 'blog.json'))).toBe(false);
  });

  it('finishes moving the old files when a start stopped after the import, importing nothing twice', async () => {
    const dir = copyOfFixture();
    await (await open(dir)).store.close();
    // As if the move had stopped before the format marker went: it is back in place, the progress says where it goes.
    renameSync(path.join(dir, MOVED, 'blog.json'), path.join(dir, 'blog.json'));
    writeFileSync(path.join(dir, 'file-store-import.json'), JSON.stringify({ format: 'blogpost-file-store-import', startedAt: NOW.toISOString(), movingTo: path.join(dir, MOVED) }));
    const { store, log } = await open(dir);
    expect(log).toEqual([`Finished moving the file store's old files from ${dir} into ${path.join(dir, MOVED)}${path.sep} (their import had completed before).`]);
    expect(readdirSync(dir).filter((name) => !name.startsWith('store.sqlite')).sort()).toEqual([MOVED, 'logs', 'media']);
    expect(readFileSync(path.join(dir, MOVED, 'blog.json'))).toEqual(readFileSync(fixtureFile('blog.json')));
    expect(await store.keys.list()).toHaveLength(2);
  });
});

describe('planning the posts', () => {
  const entry = (id: string, seq: number, slug: string, more: Partial<LegacyPostEntry> = {}): LegacyPostEntry => ({
    file: `posts/${id}.json`, id, seq, slug, title: id, previousSlugs: [], owner: 'site', createdByKeyId: null, ...more,
  });

  it('serves the oldest of posts sharing a slug, as the file store did, and names the others', () => {
    const skipped: DamagedFile[] = [];
    const plan = planPosts([entry('b', 2, 'same'), entry('a', 1, 'same'), entry('c', 3, 'categories')], [], skipped, []);
    expect(plan.map((post) => post.id)).toEqual(['a']);
    expect(skipped).toEqual([
      { file: 'posts/b.json', reason: 'its slug "same" is also used by the older post posts/a.json (the file store served only that one)' },
      { file: 'posts/c.json', reason: `its slug "categories" is one of the API's own paths` },
    ]);
  });

  it("drops a previous slug another post has, renumbers an order number used twice, and gives ownerless posts their key's owner", () => {
    const adjusted: string[] = [];
    const keys = [{ id: 'key1', name: 'Laptop', owner: 'Jane', permissions: [], hash: `sha256:${'0'.repeat(64)}`, createdAt: '', lastUsedAt: null, revokedAt: null }];
    const plan = planPosts(
      [entry('a', 1, 'first', { previousSlugs: ['second', 'old'] }), entry('b', 1, 'second', { previousSlugs: ['old', 'older'], owner: null, createdByKeyId: 'key1' })],
      keys,
      [],
      adjusted,
    );
    expect(plan).toEqual([
      { file: 'posts/a.json', id: 'a', seq: 1, previousSlugs: ['old'], owner: 'site' },
      { file: 'posts/b.json', id: 'b', seq: 2, previousSlugs: ['older'], owner: 'Jane' },
    ]);
    expect(adjusted).toEqual([
      'the post posts/a.json no longer redirects from "second", which posts/b.json has',
      'the post posts/b.json had the order number 1 of another post: it is number 2 now',
      'the post posts/b.json no longer redirects from "old", which posts/a.json has',
    ]);
  });
});

/** The message JSON.parse gives for `text` (it differs between Node versions). */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
