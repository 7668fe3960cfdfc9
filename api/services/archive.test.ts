/**
 * The advertising archive as the post service fills it (decision 0028), over a real store with a clock
 * the test moves: every version the public saw, with the times it was live, kept after its post is
 * purged from the trash; changes the public cannot see record nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRASH_RETENTION_DAYS } from '../../contract/blog';
import { postInput as input } from '../../tests/support/post-input';
import type { ComplianceMode } from '../../contract/compliance';
import { parseIfMatch, postEtag } from '../../contract/post-lifecycle';
import { verifyChain } from '../store/archive';
import { openSqliteStore } from '../store/sql/sql-store';
import type { Store } from '../store/store';
import { keyActor, staffActor } from './actors';
import { createServices, type Services } from './services';

const AUTHOR = keyActor({ id: 'AuthorKey1', owner: 'acme', permissions: ['blog:write'] }, '203.0.113.9');
const STAFF = staffActor('jane@example.com', '198.51.100.7');
const DAY_MS = 24 * 60 * 60 * 1000;

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Services over a fresh store, with a clock the test sets. */
async function servicesAt(start: string, complianceMode: ComplianceMode = 'warn'): Promise<Services & { setNow: (iso: string) => void }> {
  let now = new Date(start);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-archive-'));
  dirs.push(dir);
  const store = await openSqliteStore(dir, { now: () => now });
  stores.push(store);
  const services = createServices(store, { complianceMode }, () => now);
  return Object.assign(services, { setNow: (iso: string) => void (now = new Date(iso)) });
}


describe('the advertising archive of a post', () => {
  it('holds every public version with its live-from and live-to through publish, two updates, unpublish, trash and purge', async () => {
    const { posts, store, setNow } = await servicesAt('2026-03-01T09:00:00.000Z');
    const { post } = await posts.create(input(), AUTHOR);
    /** The If-Match of a client that read the post just now. */
    const current = async () => {
      const stored = await store.posts.getById(post.id);
      if (!stored) throw new Error('the post is gone');
      return parseIfMatch(postEtag(stored.id, stored.revision));
    };
    setNow('2026-03-02T09:00:00.000Z');
    await posts.update(post.id, { content: '<p>Index credits have a 0% floor; policy charges and fees still apply.</p>' }, 'merge', await current(), AUTHOR);
    setNow('2026-03-03T09:00:00.000Z');
    // Tags are not on the page as archived: no record.
    await posts.update(post.id, { tags: ['floors'] }, 'merge', await current(), AUTHOR);
    setNow('2026-03-04T09:00:00.000Z');
    await posts.update(post.id, { title: 'How the 0% Floor of an IUL Works, With Examples' }, 'merge', await current(), STAFF);
    setNow('2026-03-05T09:00:00.000Z');
    await posts.unpublish(post.id, await current(), STAFF);
    setNow('2026-03-06T09:00:00.000Z');
    // A draft edited: nobody sees it.
    await posts.update(post.id, { excerpt: 'Changed while a draft.' }, 'merge', await current(), STAFF);
    await posts.trash(post.id, await current(), STAFF);
    setNow(new Date(Date.parse('2026-03-06T09:00:00.000Z') + (TRASH_RETENTION_DAYS + 1) * DAY_MS).toISOString());
    expect(await posts.purgeExpired()).toBe(1);
    expect(await store.posts.getById(post.id)).toBeNull();

    const records = await store.archive.list({ subject: post.id });
    expect(records.map((record) => [record.event, record.liveFrom, record.liveTo, record.madeBy])).toEqual([
      ['published', '2026-03-01T09:00:00.000Z', '2026-03-02T09:00:00.000Z', 'key:AuthorKey1'],
      ['updated', '2026-03-02T09:00:00.000Z', '2026-03-04T09:00:00.000Z', 'key:AuthorKey1'],
      ['updated', '2026-03-04T09:00:00.000Z', '2026-03-05T09:00:00.000Z', 'staff:jane@example.com'],
      ['unpublished', '2026-03-05T09:00:00.000Z', '2026-03-05T09:00:00.000Z', 'staff:jane@example.com'],
    ]);
    expect(records[0]?.html).toContain('<p>Index credits have a 0% floor; policy charges still apply.</p>');
    expect(records[0]?.html).toContain('By Jane Author, CFP');
    expect(records[1]?.text).toContain('policy charges and fees still apply');
    expect(records[2]).toMatchObject({ title: 'How the 0% Floor of an IUL Works, With Examples', path: `/blog/${post.slug}` });
    expect(records.every((record) => record.contentHash.length === 64)).toBe(true);
    expect(verifyChain(await store.archive.list(), await store.archive.base())).toMatchObject({ ok: true });
  });

  it('closes a public version when the post goes to the trash, and records a scheduled post at its time by the scheduler', async () => {
    const { posts, store, setNow } = await servicesAt('2026-04-01T09:00:00.000Z');
    const { post } = await posts.create(input({ status: 'scheduled', publishAt: '2026-04-02T08:00:00.000Z' }), AUTHOR);
    expect(await store.archive.list({ subject: post.id })).toEqual([]);
    setNow('2026-04-02T08:00:05.000Z');
    expect((await posts.publishDue()).map((entry) => entry.id)).toEqual([post.id]);
    setNow('2026-04-03T10:00:00.000Z');
    await posts.trash(post.id, undefined, STAFF);
    const records = await store.archive.list({ subject: post.id });
    expect(records.map((record) => [record.event, record.liveFrom, record.liveTo, record.madeBy])).toEqual([
      ['published', '2026-04-02T08:00:00.000Z', '2026-04-03T10:00:00.000Z', 'scheduler'],
      ['deleted', '2026-04-03T10:00:00.000Z', '2026-04-03T10:00:00.000Z', 'staff:jane@example.com'],
    ]);
    // Restored from the trash: public again, a new version.
    setNow('2026-04-04T10:00:00.000Z');
    await posts.restore(post.id, STAFF);
    expect((await store.archive.list({ subject: post.id })).map((record) => record.event)).toEqual(['published', 'deleted', 'published']);
  });

  it('records a post approved in compliance review with its findings and its approver, and nothing while it waits', async () => {
    const { posts, store } = await servicesAt('2026-05-01T09:00:00.000Z', 'review');
    const { post } = await posts.create(input({ content: '<p>Our IUL offers guaranteed returns.</p>' }), AUTHOR);
    expect(post.status).toBe('in_review');
    expect(await store.archive.list()).toEqual([]);
    await posts.approve(post.id, post.revision, STAFF, 'Reviewed with the carrier.');
    const [record] = await store.archive.list({ subject: post.id });
    expect(record).toMatchObject({ event: 'published', madeBy: 'staff:jane@example.com', liveTo: null });
    expect(record?.findings.map((finding) => finding.rule)).toContain('guaranteed-returns');
  });
});
