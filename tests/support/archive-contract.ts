/**
 * The advertising archive's part of the store contract (decision 0028), run on both engines with the
 * rest of tests/support/store-contract.ts: appended and chained, closed by the next version, kept when
 * its post is purged, refused to be pruned inside its retention; stated through the seam only.
 */
import { describe, expect, it } from 'vitest';
import { type ArchiveAppend, retentionCutoff, verifyChain } from '../../api/store/archive';
import type { NewPost, PostRecord, Store } from '../../api/store/store';
import { StoreError } from '../../api/store/store-error';
import { onFreshStore, type StoreUnderTest } from './store-contract';

function entry(subject: string, event: ArchiveAppend['event'], at: string, html = `<p>${subject} at ${at}</p>`): ArchiveAppend {
  const closing = event === 'unpublished' || event === 'deleted';
  return {
    subject,
    kind: subject.startsWith('/') ? 'page' : 'post',
    event,
    path: subject.startsWith('/') ? subject : `/blog/${subject}`,
    title: `Title of ${subject}`,
    html: closing ? '' : html,
    text: closing ? '' : html.replace(/<[^>]+>/g, ''),
    at,
    findings: [{ rule: 'guaranteed-returns', severity: 'high', match: 'guaranteed' }],
    madeBy: 'staff:reviewer@example.com',
    approver: closing ? null : 'staff:reviewer@example.com',
    approvalCode: closing ? null : 'ADV-2026-0001',
  };
}

const post = (title: string, status: NewPost['status'] = 'published'): NewPost => ({
  title,
  excerpt: `About ${title}`,
  content: `<p>${title} body</p>`,
  categorySlug: 'tax-benefits',
  tags: [],
  author: { name: 'Jane Author' },
  isNewsArticle: false,
  trust: null,
  status,
  publishAt: null,
  owner: null,
  createdByKeyId: null,
  warnings: [],
});

/** A record for the archive made from a post as stored (what the post service hands the store). */
const fromPost = (event: ArchiveAppend['event'], at: string) => (stored: PostRecord) => entry(stored.id, event, at, `<h1>${stored.title}</h1>${stored.content}`);

export function describeArchiveContract(name: string, open: () => Promise<StoreUnderTest>): void {
  const withStore = onFreshStore(open);
  const chainOf = async (store: Store) => verifyChain(await store.archive.list(), await store.archive.base());

  describe(`store contract, advertising archive: ${name}`, () => {
    it(
      'numbers and chains records, ends a version when the next one of its subject goes live, and closes only what is live',
      withStore(async ({ store }) => {
        expect(await store.archive.list()).toEqual([]);
        const first = await store.archive.append(entry('a', 'published', '2026-01-01T00:00:00.000Z'));
        await store.archive.append(entry('b', 'published', '2026-01-02T00:00:00.000Z'));
        const second = await store.archive.append(entry('a', 'updated', '2026-01-03T00:00:00.000Z'));
        expect(first).toMatchObject({ seq: 1, liveTo: null, prevHash: '0'.repeat(64) });
        expect(second).toMatchObject({ seq: 3, liveFrom: '2026-01-03T00:00:00.000Z', liveTo: null });
        expect(await store.archive.append(entry('c', 'unpublished', '2026-01-04T00:00:00.000Z'))).toBeNull();
        const closed = await store.archive.append(entry('a', 'unpublished', '2026-01-05T00:00:00.000Z'));
        expect(closed).toMatchObject({ seq: 4, liveFrom: '2026-01-05T00:00:00.000Z', liveTo: '2026-01-05T00:00:00.000Z' });
        expect(await store.archive.append(entry('a', 'deleted', '2026-01-06T00:00:00.000Z'))).toBeNull();
        const a = await store.archive.list({ subject: 'a' });
        expect(a.map((record) => [record.event, record.liveFrom, record.liveTo])).toEqual([
          ['published', '2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z'],
          ['updated', '2026-01-03T00:00:00.000Z', '2026-01-05T00:00:00.000Z'],
          ['unpublished', '2026-01-05T00:00:00.000Z', '2026-01-05T00:00:00.000Z'],
        ]);
        expect(a[0]).toMatchObject({ approvalCode: 'ADV-2026-0001', approver: 'staff:reviewer@example.com', findings: [{ rule: 'guaranteed-returns', severity: 'high', match: 'guaranteed' }] });
        const all = await store.archive.list();
        expect(all.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
        for (let i = 1; i < all.length; i++) expect(all[i]?.prevHash).toBe(all[i - 1]?.hash);
        expect(await chainOf(store)).toMatchObject({ ok: true, records: 4 });
        // Live at some moment of 2 January: a's first version and b; from noon on the 4th: b, a's second version (ended on the 5th) and its closing record.
        expect((await store.archive.list({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-02T12:00:00.000Z' })).map((record) => record.seq)).toEqual([1, 2]);
        expect((await store.archive.list({ from: '2026-01-04T12:00:00.000Z' })).map((record) => record.seq)).toEqual([2, 3, 4]);
      }),
    );

    it(
      'appends a page version only when its HTML differs from the newest record of its path',
      withStore(async ({ store }) => {
        expect(await store.archive.appendIfChanged(entry('/faq', 'page_changed', '2026-02-01T00:00:00.000Z', '<p>v1</p>'))).not.toBeNull();
        expect(await store.archive.appendIfChanged(entry('/faq', 'page_changed', '2026-02-02T00:00:00.000Z', '<p>v1</p>'))).toBeNull();
        expect(await store.archive.appendIfChanged(entry('/faq', 'page_changed', '2026-02-03T00:00:00.000Z', '<p>v2</p>'))).toMatchObject({ seq: 2 });
        expect((await store.archive.list({ subject: '/faq' })).map((record) => record.liveTo)).toEqual(['2026-02-03T00:00:00.000Z', null]);
      }),
    );

    it(
      "appends a post's record in the change's own transaction, and keeps its records when the post is purged",
      withStore(async ({ store, failNextWrite }) => {
        const created = await store.posts.create(post('Archived'), { slugBase: 'archived', archive: fromPost('published', '2026-03-01T00:00:00.000Z') });
        if (created.kind !== 'created') throw new Error(created.kind);
        const id = created.post.id;
        const stored = await store.posts.getById(id);
        if (!stored) throw new Error('missing');
        // A change that cannot be stored appends nothing either.
        failNextWrite();
        await expect(store.posts.save({ ...stored, title: 'Archived again' }, { expectedRevision: stored.revision, changed: ['title'], archive: fromPost('updated', '2026-03-02T00:00:00.000Z') })).rejects.toBeInstanceOf(StoreError);
        expect(await store.archive.list({ subject: id })).toHaveLength(1);
        const saved = await store.posts.save({ ...stored, title: 'Archived again' }, { expectedRevision: stored.revision, changed: ['title'], archive: (before, after) => (before.title !== after.title ? fromPost('updated', '2026-03-02T00:00:00.000Z')(after) : undefined) });
        expect(saved.kind).toBe('saved');
        // A stale change appends nothing.
        await store.posts.save({ ...stored, title: 'Stale' }, { expectedRevision: stored.revision, changed: ['title'], archive: fromPost('updated', '2026-03-03T00:00:00.000Z') });
        expect(await store.posts.purge(id, { archive: entry(id, 'deleted', '2026-03-04T00:00:00.000Z') })).toBe(true);
        expect(await store.posts.getById(id)).toBeNull();
        const records = await store.archive.list({ subject: id });
        expect(records.map((record) => [record.event, record.title, record.liveFrom, record.liveTo])).toEqual([
          ['published', `Title of ${id}`, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
          ['updated', `Title of ${id}`, '2026-03-02T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
          ['deleted', `Title of ${id}`, '2026-03-04T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
        ]);
        expect(records[1]?.html).toContain('Archived again');
        expect(await chainOf(store)).toMatchObject({ ok: true, records: 3 });
      }),
    );

    it(
      'refuses to remove records inside ARCHIVE_RETENTION_YEARS, and after it removes the oldest, ended ones with the chain still whole',
      withStore(async ({ store }) => {
        await store.archive.append(entry('old', 'published', '2020-01-01T00:00:00.000Z'));
        await store.archive.append(entry('old', 'unpublished', '2020-06-01T00:00:00.000Z'));
        await store.archive.append(entry('new', 'published', '2026-01-01T00:00:00.000Z'));
        const now = new Date('2026-06-01T00:00:00.000Z');
        const refused = store.archive.prune(new Date('2022-01-01T00:00:00.000Z'), { now, retentionYears: 5 });
        await expect(refused).rejects.toBeInstanceOf(StoreError);
        await expect(refused).rejects.toThrow(/ARCHIVE_RETENTION_YEARS/);
        expect(await store.archive.list()).toHaveLength(3);
        expect(await store.archive.prune(retentionCutoff(now, 5), { now, retentionYears: 5 })).toBe(2);
        expect((await store.archive.list()).map((record) => record.subject)).toEqual(['new']);
        expect(await store.archive.base()).toMatchObject({ seq: 2 });
        expect(await chainOf(store)).toMatchObject({ ok: true, records: 1 });
        expect(await store.archive.append(entry('new', 'updated', '2026-07-01T00:00:00.000Z'))).toMatchObject({ seq: 4 });
        expect(await chainOf(store)).toMatchObject({ ok: true, records: 2 });
      }),
    );
  });
}
