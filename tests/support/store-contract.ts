/**
 * The contract the store seam (api/store/store.ts) must keep, as a vitest suite, run on both engines of its one
 * implementation: SQLite in api/store/sql/sql-store.test.ts, PostgreSQL in
 * tests/postgres/store-contract.test.ts. It states the seam's behaviour through the seam only.
 */
import { describe, expect, it } from 'vitest';
import type { DeliveryRecord, LeadRecord } from '../../contract/leads';
import type { AuditEntry, SessionRecord, StaffRecord } from '../../contract/staff';
import type { CreateOutcome, KeyRecord, LeadQuery, MediaRecord, NewPost, PostIndexEntry, PostRecord, Store } from '../../api/store/store';
import { StoreError } from '../../api/store/store-error';
import { describeArchiveContract } from './archive-contract';

export interface StoreUnderTest {
  store: Store;
  /** Opens the same data again, as a restart does. */
  reopen: () => Promise<Store>;
  /** Makes the next post write fail the way a full disk does (ENOSPC, or the backend's equivalent). */
  failNextWrite: () => void;
  /** Moves the store's clock (every store `open` made) forward by `ms`: time passing, without waiting for it. */
  advanceClock: (ms: number) => void;
  cleanup: () => Promise<void>;
}

/**
 * A store under test over a database engine: `open` opens (again) the same database with a hook that
 * sees each statement first, through which `failNextWrite` fails the next write of a record (not the
 * counters of store_meta) with `diskFull()`, the engine's own error for a full disk; and with a clock
 * that runs with the real one until `advanceClock` moves it on.
 */
export async function sqlStoreUnderTest(
  open: (options: { beforeQuery: (sql: string) => void; now: () => Date }) => Promise<Store>,
  diskFull: () => Error,
  removeData: () => void = () => undefined,
): Promise<StoreUnderTest> {
  let shiftMs = 0;
  const now = () => new Date(Date.now() + shiftMs);
  let failNext = false;
  const beforeQuery = (sql: string) => {
    if (failNext && /^\s*(insert into|update) (?!"?store_meta\b)/i.test(sql)) {
      failNext = false;
      throw diskFull();
    }
  };
  const opened: Store[] = [];
  const reopen = async () => {
    const store = await open({ beforeQuery, now });
    opened.push(store);
    return store;
  };
  return {
    store: await reopen(),
    reopen,
    failNextWrite: () => {
      failNext = true;
    },
    advanceClock: (ms) => {
      shiftMs += ms;
    },
    cleanup: async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      removeData();
    },
  };
}

export function newPost(title: string, overrides: Partial<NewPost> = {}): NewPost {
  return {
    title,
    excerpt: `About ${title}`,
    content: `<p>${title} body</p>`,
    categorySlug: 'tax-benefits',
    tags: ['Retirement'],
    author: { name: 'Jane Author' },
    isNewsArticle: false,
    trust: null,
    status: 'published',
    publishAt: null,
    owner: null,
    createdByKeyId: null,
    warnings: [],
    ...overrides,
  };
}

export function keyRecord(id: string, overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id,
    name: `key ${id}`,
    permissions: ['blog:write'],
    hash: `sha256:${'0'.repeat(64)}`,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** A complete lead; `id` is `lead_` and 20 letters or digits. */
export function leadRecord(id: string, overrides: Partial<LeadRecord> = {}): LeadRecord {
  const at = overrides.createdAt ?? '2026-03-01T10:00:00.000Z';
  return {
    id,
    name: 'Jane Carter',
    email: 'jane@example.com',
    phone: '(512) 555-0199',
    preferredContactMethod: 'phone',
    age: 45,
    annualContribution: 12_000,
    retirementAge: 62,
    currentRetirementSavings: 250_000,
    healthRating: 'good',
    tobaccoUser: false,
    additionalNotes: null,
    status: 'new',
    createdAt: at,
    updatedAt: at,
    agentNotes: [],
    spam: null,
    consent: {
      given: true,
      text: 'I agree …',
      version: '2026-11-25',
      textSha256: 'a'.repeat(64),
      at,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      page: '/get-quote',
      globalPrivacyControl: false,
      contactOnlyBy: null,
    },
    ...overrides,
  };
}

export function deliveryRecord(lead: LeadRecord, channel: DeliveryRecord['channel'], overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return { id: `${lead.id}.${channel}`, leadId: lead.id, channel, createdAt: lead.createdAt, attempts: 0, nextAttemptAt: lead.createdAt, lastError: null, sentAt: null, ...overrides };
}

/** A staff account; `id` is `stf_` and 16 letters or digits, and the e-mail is made from it unless given. */
export function staffRecord(id: string, overrides: Partial<StaffRecord> = {}): StaffRecord {
  const at = overrides.createdAt ?? '2026-11-01T10:00:00.000Z';
  return {
    id,
    email: `${id.toLowerCase()}@example.com`,
    name: `Staff ${id}`,
    passwordHash: 'scrypt$65536$8$1$c2FsdA$a2V5',
    createdAt: at,
    passwordChangedAt: at,
    disabledAt: null,
    ...overrides,
  };
}

const TWELVE_HOURS_MS = 12 * 3_600_000;

/** A session stored under `idHash` (64 hex characters); last seen when created, ending 12 hours after it unless given. */
export function sessionRecord(idHash: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  const at = overrides.createdAt ?? '2026-11-01T10:00:00.000Z';
  return {
    idHash,
    staffId: 'stf_AAAAAAAAAAAAAAAA',
    createdAt: at,
    lastSeenAt: at,
    expiresAt: new Date(Date.parse(at) + TWELVE_HOURS_MS).toISOString(),
    ip: '203.0.113.9',
    userAgent: 'Mozilla/5.0',
    ...overrides,
  };
}

/** One audit entry (a key revoked from the CLI unless told otherwise). */
export function auditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return { at: '2026-11-01T10:00:00.000Z', actor: 'cli:jane', action: 'key.revoked', target: 'Ab12Cd34Ef', detail: { reason: 'left the agency' }, ip: null, ...overrides };
}

/** A stored upload with one WebP variant per width (`id` is 32 hex digits). */
export function mediaRecord(id: string, overrides: Partial<MediaRecord> = {}, widths: readonly number[] = [480, 960]): MediaRecord {
  return {
    id,
    type: 'image/png',
    width: 1200,
    height: 800,
    bytes: 5000,
    owners: ['alice'],
    uploadedByKeyId: 'key_alice',
    uploadedAt: '2026-11-01T10:00:00.000Z',
    variants: widths.map((width) => ({ file: `${id}-${width}.webp`, width, height: Math.round((width * 2) / 3), type: 'image/webp' as const, bytes: width })),
    ...overrides,
  };
}

/** The files of a media record: each variant's bytes, its name repeated (so each file is told apart). */
export function mediaFiles(record: MediaRecord): Map<string, Uint8Array> {
  return new Map(record.variants.map((variant) => [variant.file, new TextEncoder().encode(`bytes of ${variant.file}`)]));
}

function created(outcome: CreateOutcome): PostIndexEntry {
  if (outcome.kind !== 'created') throw new Error(`expected a created post, got ${outcome.kind}`);
  return outcome.post;
}

/** A test body run on a fresh store of `open`, cleaned up whatever happens. */
export function onFreshStore(open: () => Promise<StoreUnderTest>): (test: (under: StoreUnderTest) => Promise<void>) => () => Promise<void> {
  return (test) => async () => {
    const under = await open();
    try {
      await test(under);
    } finally {
      await under.cleanup();
    }
  };
}

export function describeStoreContract(name: string, open: () => Promise<StoreUnderTest>): void {
  /** Runs `test` on a fresh store, cleaning up whatever happens. */
  const withStore = onFreshStore(open);
  const create = (store: Store, title: string, overrides: Partial<NewPost> = {}, slugBase = title.toLowerCase().replaceAll(' ', '-')) =>
    store.posts.create(newPost(title, overrides), { slugBase }).then(created);

  describe(`store contract: ${name}`, () => {
    it(
      'creates, gets, lists newest first, counts and counts per category',
      withStore(async ({ store }) => {
        expect(store.created).toBe(true);
        const before = store.posts.revision();
        const first = await create(store, 'First');
        await create(store, 'Second', { categorySlug: 'retirement-planning' });
        await create(store, 'Hidden', { status: 'draft' });
        expect(store.posts.revision()).toBeGreaterThan(before);
        const page = await store.posts.list({ status: 'published' });
        expect(page.entries.map((entry) => entry.slug)).toEqual(['second', 'first']);
        expect(page).toMatchObject({ total: 2, page: 1, limit: 10 });
        expect(page.entries[0]).not.toHaveProperty('content');
        expect((await store.posts.list({ status: 'draft' })).entries.map((entry) => entry.slug)).toEqual(['hidden']);
        expect(await store.posts.getBySlug('first')).toMatchObject({ id: first.id, title: 'First', content: '<p>First body</p>', status: 'published' });
        expect(await store.posts.getBySlug('hidden')).toMatchObject({ status: 'draft', publishedAt: null });
        expect(await store.posts.getBySlug('nothing')).toBeNull();
        expect(await store.posts.counts()).toEqual({ published: 2, drafts: 1, scheduled: 0, inReview: 0, trashed: 0 });
        expect(Object.fromEntries(await store.posts.publishedPerCategory())).toEqual({ 'tax-benefits': 1, 'retirement-planning': 1 });
      }),
    );

    it(
      'pages and filters by category and by tag without regard to case',
      withStore(async ({ store }) => {
        for (let i = 1; i <= 25; i++) await create(store, `Post ${i}`, i % 5 === 0 ? { categorySlug: 'estate-planning', tags: ['Legacy'] } : {});
        const third = await store.posts.list({ status: 'published', page: 3, limit: 10 });
        expect(third.entries.map((entry) => entry.slug)).toEqual(['post-5', 'post-4', 'post-3', 'post-2', 'post-1']);
        expect(third).toMatchObject({ total: 25, page: 3, limit: 10 });
        expect((await store.posts.list({ status: 'published', page: 4, limit: 10 })).entries).toEqual([]);
        const estate = await store.posts.list({ status: 'published', categorySlug: 'estate-planning' });
        expect(estate.entries.map((entry) => entry.slug)).toEqual(['post-25', 'post-20', 'post-15', 'post-10', 'post-5']);
        expect((await store.posts.list({ status: 'published', categorySlug: 'no-such-category' })).total).toBe(0);
        expect((await store.posts.list({ status: 'published', tag: 'LEGACY' })).total).toBe(5);
        expect((await store.posts.list({ status: 'published', tag: 'retirement', categorySlug: 'estate-planning' })).total).toBe(0);
      }),
    );

    it(
      'gives 50 concurrent creates of one title 50 distinct slugs: base, base-2, ...',
      withStore(async ({ store }) => {
        expect(await store.posts.previewSlug('same')).toBe('same');
        const posts = (await Promise.all(Array.from({ length: 50 }, () => store.posts.create(newPost('Same'), { slugBase: 'same' })))).map(created);
        const expected = ['same', ...Array.from({ length: 49 }, (_, i) => `same-${i + 2}`)];
        expect(new Set(posts.map((post) => post.slug))).toEqual(new Set(expected));
        expect(await store.posts.previewSlug('same')).toBe('same-51');
        expect((await store.posts.list({ status: 'published', limit: 100 })).total).toBe(50);
      }),
    );

    it(
      'never gives a reserved slug',
      withStore(async ({ store }) => {
        expect(await store.posts.previewSlug('categories')).toBe('categories-2');
        expect((await create(store, 'Categories', {}, 'categories')).slug).toBe('categories-2');
        expect((await create(store, 'Validate', {}, 'validate')).slug).toBe('validate-2');
      }),
    );

    it(
      'honours `at` for the creation and publication times',
      withStore(async ({ store }) => {
        const at = new Date('2024-03-01T12:00:00.000Z');
        const post = created(await store.posts.create(newPost('Old news'), { slugBase: 'old-news', at }));
        expect(post).toMatchObject({ createdAt: at.toISOString(), updatedAt: at.toISOString(), publishedAt: at.toISOString() });
      }),
    );

    it(
      'keeps a post held for review off the published list, with its review and acceptances, across a restart',
      withStore(async ({ store, reopen }) => {
        const review = { state: 'pending' as const, requestedStatus: 'scheduled' as const, requestedPublishAt: '2026-12-01T14:00:00.000Z', submittedAt: '2026-11-26T10:00:00.000Z', rules: ['risk-free'], note: null, decidedAt: null, decidedBy: null };
        const accept = [{ rule: 'tax-free-unqualified', reason: 'The condition is stated in the next paragraph.' }];
        const held = await create(store, 'Held', { status: 'in_review', review, complianceAccept: accept });
        await create(store, 'Public');
        expect((await store.posts.list({ status: 'published' })).entries.map((entry) => entry.slug)).toEqual(['public']);
        expect((await store.posts.list({ status: 'in_review' })).entries.map((entry) => entry.slug)).toEqual(['held']);
        expect((await store.posts.list({ status: 'any' })).entries.map((entry) => entry.slug).sort()).toEqual(['held', 'public']);
        expect(await store.posts.counts()).toEqual({ published: 1, drafts: 0, scheduled: 0, inReview: 1, trashed: 0 });
        const reopened = await reopen();
        expect(await reopened.posts.getById(held.id)).toMatchObject({ status: 'in_review', review, complianceAccept: accept });
        const current = await reopened.posts.getById(held.id);
        if (!current) throw new Error('the held post is gone');
        const returned = { ...review, state: 'returned' as const, note: 'Say what the floor protects against.', decidedAt: '2026-11-26T11:00:00.000Z', decidedBy: 'staff:reviewer@example.com' };
        const saved = await reopened.posts.save({ ...current, status: 'draft', review: returned }, { expectedRevision: current.revision, changed: ['status'] });
        expect(saved).toMatchObject({ kind: 'saved', post: { status: 'draft', review: returned } });
        expect(await reopened.posts.counts()).toMatchObject({ drafts: 1, inReview: 0 });
      }),
    );

    it(
      'replays an Idempotency-Key claim, refuses it with another body, and creates once when two race',
      withStore(async ({ store, reopen }) => {
        const claim = { scope: 'key-1:abc', fingerprint: 'body-1', ttlMs: 60_000 };
        const [a, b] = await Promise.all([
          store.posts.create(newPost('Once'), { slugBase: 'once', idempotency: claim }),
          store.posts.create(newPost('Once'), { slugBase: 'once', idempotency: claim }),
        ]);
        const kinds = [a.kind, b.kind].sort();
        expect(kinds).toEqual(['created', 'replayed']);
        const ids = [a, b].map((outcome) => ('post' in outcome ? outcome.post.id : null));
        expect(ids[0]).toBe(ids[1]);
        expect(await store.posts.create(newPost('Other'), { slugBase: 'other', idempotency: { ...claim, fingerprint: 'body-2' } })).toEqual({ kind: 'conflict' });
        expect(await store.posts.counts()).toEqual({ published: 1, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
        // The claim survives a restart.
        const again = await (await reopen()).posts.create(newPost('Once'), { slugBase: 'once', idempotency: claim });
        expect(again).toMatchObject({ kind: 'replayed', post: { slug: 'once' } });
      }),
    );

    it(
      'forgets a claim once it expires',
      withStore(async ({ store, advanceClock }) => {
        const claim = { scope: 'key-1:short', fingerprint: 'body', ttlMs: 1_000 };
        created(await store.posts.create(newPost('Short'), { slugBase: 'short', idempotency: claim }));
        advanceClock(1_000);
        expect(created(await store.posts.create(newPost('Short'), { slugBase: 'short', idempotency: claim })).slug).toBe('short-2');
      }),
    );

    it(
      'a failed write stores nothing, frees its slug and its claim, and the next write succeeds',
      withStore(async ({ store, reopen, failNextWrite }) => {
        const claim = { scope: 'key-1:retry', fingerprint: 'body', ttlMs: 60_000 };
        failNextWrite();
        const error = await store.posts.create(newPost('Lost'), { slugBase: 'lost', idempotency: claim }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreError);
        expect((error as StoreError).problem).toBe('full');
        expect(await store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
        expect(await store.posts.getBySlug('lost')).toBeNull();
        expect(await store.posts.previewSlug('lost')).toBe('lost');
        const retried = created(await store.posts.create(newPost('Lost'), { slugBase: 'lost', idempotency: claim }));
        expect(retried.slug).toBe('lost');
        const reopened = await reopen();
        expect(await reopened.posts.counts()).toEqual({ published: 1, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
      }),
    );

    it(
      'keeps every answered create across a reopen, bodies included',
      withStore(async ({ store, reopen }) => {
        const posts = (await Promise.all(Array.from({ length: 20 }, (_, i) => store.posts.create(newPost(`Kept ${i}`), { slugBase: `kept-${i}` })))).map(created);
        const reopened = await reopen();
        expect(reopened.created).toBe(false);
        // Newest first: by the publication time, then (posts of one millisecond) by number. PostgreSQL numbers
        // concurrent creates from a sequence (decision 0036), so the two orders may differ between them.
        const newestFirst = (a: PostIndexEntry, b: PostIndexEntry) => (b.publishedAt ?? b.createdAt).localeCompare(a.publishedAt ?? a.createdAt) || b.seq - a.seq;
        expect((await reopened.posts.list({ status: 'published', limit: 100 })).entries.map((entry) => entry.id)).toEqual([...posts].sort(newestFirst).map((post) => post.id));
        for (const post of posts) expect((await reopened.posts.getBySlug(post.slug))?.content).toBe(`<p>Kept ${post.slug.slice(5)} body</p>`);
        // New posts after a restart come after the old ones.
        const later = await create(reopened, 'Later');
        expect((await reopened.posts.list({ status: 'published', limit: 1 })).entries[0]?.id).toBe(later.id);
      }),
    );

    it(
      'saves a change only from the revision it was made from, one at a time, and keeps it across a reopen',
      withStore(async ({ store, reopen }) => {
        const post = await create(store, 'Changing');
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        const next = { ...current, title: 'Changed', updatedAt: '2026-02-01T00:00:00.000Z' };
        // Two changes from the same revision: exactly one is saved, the other is told it is stale.
        const outcomes = await Promise.all([
          store.posts.save(next, { expectedRevision: 1, changed: ['title'] }),
          store.posts.save({ ...current, title: 'Also changed' }, { expectedRevision: 1, changed: ['title'] }),
        ]);
        expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['saved', 'stale']);
        const saved = outcomes.find((outcome) => outcome.kind === 'saved');
        expect(saved).toMatchObject({ post: { revision: 2, seq: post.seq, createdAt: post.createdAt } });
        expect(await store.posts.save({ ...current, id: 'no-such-post' }, { expectedRevision: 1, changed: [] })).toEqual({ kind: 'missing' });
        const reopened = await reopen();
        const back = await reopened.posts.getById(post.id);
        expect(back).toMatchObject({ revision: 2, title: saved?.kind === 'saved' ? saved.post.title : '' });
        const revisions = await reopened.posts.revisions(post.id);
        expect(revisions).toHaveLength(1);
        expect(revisions[0]).toMatchObject({ changed: ['title'], record: { revision: 1, title: 'Changing', content: '<p>Changing body</p>' } });
      }),
    );

    it(
      'keeps a post\'s Markdown source byte for byte beside its content, out of the lists, in its revisions and across a reopen',
      withStore(async ({ store, reopen }) => {
        // CRLF, a BOM, tabs, trailing spaces and characters outside the BMP: every byte as written.
        const text = '\uFEFF---\r\ntitle: Kept\r\n---\r\n\r\nA line  \r\nwrapped\tby hand, -8.1% \u{1F4C8}\r\n\r\n| a | b |\r\n|:-:|--:|\r\n| 1 | 2 |\r\n';
        const source = { format: 'markdown' as const, text, images: { 'img/x.png': 'a'.repeat(32) } };
        const post = await create(store, 'Kept source', { source });
        expect(post).not.toHaveProperty('source');
        expect((await store.posts.list({ status: 'published' })).entries[0]).not.toHaveProperty('source');
        expect((await store.posts.getById(post.id))?.source).toEqual(source);
        expect((await store.posts.getBySlug(post.slug))?.source).toEqual(source);
        const plain = await create(store, 'No source');
        expect((await store.posts.getById(plain.id))?.source ?? null).toBeNull();
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        const edited = { ...source, text: text.replace('wrapped', 're-wrapped') };
        expect((await store.posts.save({ ...current, source: edited }, { expectedRevision: 1, changed: ['source'] })).kind).toBe('saved');
        const reopened = await reopen();
        expect((await reopened.posts.getById(post.id))?.source).toEqual(edited);
        const [kept] = await reopened.posts.revisions(post.id);
        expect(kept?.record.source).toEqual(source);
        const again = await reopened.posts.getById(post.id);
        if (!again) throw new Error('saved post not found');
        expect((await reopened.posts.save({ ...again, source: null }, { expectedRevision: 2, changed: ['source'] })).kind).toBe('saved');
        expect((await reopened.posts.getById(post.id))?.source ?? null).toBeNull();
      }),
    );

    it(
      'keeps every version a change replaces, a move to the trash included, with how each came to be',
      withStore(async ({ store, reopen }) => {
        const post = await create(store, 'Every version');
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        const trashed = { by: 'key:abc', at: '2026-02-01T00:00:00.000Z', fields: [], why: 'moved to the trash' };
        const live = { by: 'scheduler', at: '2026-02-02T00:00:00.000Z', fields: ['status'], why: 'went live on schedule' };
        expect((await store.posts.save({ ...current, deletedAt: trashed.at, updatedAt: trashed.at, origin: trashed }, { expectedRevision: 1, changed: [] })).kind).toBe('saved');
        expect((await store.posts.save({ ...current, revision: 2, status: 'published', updatedAt: live.at, origin: live }, { expectedRevision: 2, changed: ['status'] })).kind).toBe('saved');
        const reopened = await reopen();
        expect((await reopened.posts.getById(post.id))?.origin).toEqual(live);
        const revisions = await reopened.posts.revisions(post.id);
        expect(revisions.map((kept) => [kept.record.revision, kept.changed, kept.record.origin ?? null])).toEqual([
          [2, ['status'], trashed],
          [1, [], null],
        ]);
      }),
    );

    it(
      'keeps the stored version when a change cannot be written',
      withStore(async ({ store, reopen, failNextWrite }) => {
        const post = await create(store, 'Steady');
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        failNextWrite();
        const error = await store.posts.save({ ...current, title: 'Lost change' }, { expectedRevision: 1, changed: ['title'] }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(StoreError);
        expect(await store.posts.getById(post.id)).toMatchObject({ title: 'Steady', revision: 1 });
        expect((await store.posts.list({ status: 'published' })).entries[0]).toMatchObject({ title: 'Steady', revision: 1 });
        // The next change from the same revision goes through, and lasts.
        expect(await store.posts.save({ ...current, title: 'Kept change' }, { expectedRevision: 1, changed: ['title'] })).toMatchObject({ kind: 'saved' });
        expect(await (await reopen()).posts.getById(post.id)).toMatchObject({ title: 'Kept change', revision: 2 });
      }),
    );

    it(
      'moves a slug: the old one leads to the post, stays taken, and a taken one is refused',
      withStore(async ({ store, reopen }) => {
        const post = await create(store, 'Old name');
        await create(store, 'Other');
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        expect(await store.posts.save({ ...current, slug: 'other' }, { expectedRevision: 1, changed: ['slug'] })).toEqual({ kind: 'slug_taken' });
        expect(await store.posts.save({ ...current, slug: 'new-name' }, { expectedRevision: 1, changed: ['slug'] })).toMatchObject({ kind: 'saved' });
        const reopened = await reopen();
        expect(await reopened.posts.lookupSlug('old-name')).toMatchObject({ kind: 'previous', post: { id: post.id, slug: 'new-name' } });
        expect(await reopened.posts.lookupSlug('new-name')).toMatchObject({ kind: 'current', post: { id: post.id } });
        expect(await reopened.posts.previewSlug('old-name')).toBe('old-name-2');
      }),
    );

    it(
      'keeps the trash apart from lists and counts, and purges a post with its revisions',
      withStore(async ({ store, reopen }) => {
        const post = await create(store, 'Binned');
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        await store.posts.save({ ...current, excerpt: 'kept' }, { expectedRevision: 1, changed: ['excerpt'] });
        await store.posts.save({ ...current, revision: 2, deletedAt: '2026-03-01T00:00:00.000Z' }, { expectedRevision: 2, changed: [] });
        expect((await store.posts.list({ status: 'published' })).total).toBe(0);
        expect((await store.posts.list({ status: 'trashed' })).entries.map((entry) => entry.id)).toEqual([post.id]);
        expect(await store.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 1 });
        expect(await store.posts.publishedPerCategory()).toEqual(new Map());
        expect((await store.posts.trashedBefore(new Date('2026-03-02T00:00:00Z'))).map((entry) => entry.id)).toEqual([post.id]);
        expect(await store.posts.trashedBefore(new Date('2026-02-28T00:00:00Z'))).toEqual([]);
        expect(await store.posts.purge(post.id)).toBe(true);
        expect(await store.posts.purge(post.id)).toBe(false);
        const reopened = await reopen();
        expect(await reopened.posts.getById(post.id)).toBeNull();
        expect(await reopened.posts.revisions(post.id)).toEqual([]);
        expect(await reopened.posts.counts()).toEqual({ published: 0, drafts: 0, scheduled: 0, inReview: 0, trashed: 0 });
      }),
    );

    it(
      'restores a post exactly as another store kept it (blogpost import), and refuses its id or slugs when taken',
      withStore(async ({ store, reopen }) => {
        const original = await create(store, 'Moved Between Stores');
        const stored = await store.posts.getById(original.id);
        if (!stored) throw new Error('created post not found');
        await store.posts.save({ ...stored, slug: 'moved', title: 'Moved', updatedAt: '2026-04-01T00:00:00.000Z' }, { expectedRevision: 1, changed: ['title', 'slug'] });
        const record = await store.posts.getById(original.id);
        const revisions = await store.posts.revisions(original.id);
        if (!record) throw new Error('saved post not found');
        expect(revisions).toHaveLength(1);

        const other = await open();
        const target = other.store;
        try {
          await target.posts.restore(record, revisions);
          expect(await target.posts.getById(record.id)).toEqual(record);
          expect(await target.posts.revisions(record.id)).toEqual(revisions);
          expect(await target.posts.lookupSlug('moved-between-stores')).toMatchObject({ kind: 'previous', post: { id: record.id } });
          expect((await target.posts.list({ status: 'published' })).entries.map((entry) => entry.id)).toEqual([record.id]);
          // A post created afterwards comes after it, and cannot take its slugs, now or before.
          const later = await create(target, 'Moved');
          expect(later.seq).toBeGreaterThan(record.seq);
          expect(later.slug).toBe('moved-2');
          const again = await target.posts.restore(record, []).catch((e: unknown) => e);
          expect(again).toMatchObject({ problem: 'conflict' });
          const clash = await target.posts.restore({ ...record, id: '00000000-0000-4000-8000-000000000001', slug: 'fresh', previousSlugs: ['moved'] }, []).catch((e: unknown) => e);
          expect(clash).toMatchObject({ problem: 'conflict' });
          expect(await target.posts.getById('00000000-0000-4000-8000-000000000001')).toBeNull();
          expect(await target.posts.getBySlug('fresh')).toBeNull();
        } finally {
          await other.cleanup();
        }
        expect((await reopen()).created).toBe(false);
      }),
    );

    it(
      'finds scheduled posts due, earliest first, lists by owner and author, and finds equal titles',
      withStore(async ({ store }) => {
        const later = await create(store, 'Later', { status: 'scheduled', publishAt: '2026-06-02T00:00:00.000Z', owner: 'acme' });
        const sooner = await create(store, 'Sooner', { status: 'scheduled', publishAt: '2026-06-01T00:00:00.000Z', owner: 'acme' });
        await create(store, 'Someone else', { owner: 'globex', author: { name: 'Rosa Lind' } });
        expect((await store.posts.nextScheduledAt())?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
        expect((await store.posts.dueScheduled(new Date('2026-06-01T12:00:00Z'))).map((entry) => entry.id)).toEqual([sooner.id]);
        expect((await store.posts.dueScheduled(new Date('2026-07-01T00:00:00Z'))).map((entry) => entry.id)).toEqual([sooner.id, later.id]);
        expect((await store.posts.list({ status: 'any', owner: 'acme' })).total).toBe(2);
        expect((await store.posts.list({ status: 'published', author: 'ROSA LIND' })).entries.map((entry) => entry.title)).toEqual(['Someone else']);
        expect((await store.posts.sameTitle('  sooner ')).map((entry) => entry.id)).toEqual([sooner.id]);
        expect(await store.posts.sameTitle('Sooner', sooner.id)).toEqual([]);
      }),
    );

    it(
      'lists the live posts that carry an approval, the soonest to run out first, and follows each change of one',
      withStore(async ({ store, reopen }) => {
        const approval = (expiresAt: string) => ({ code: `C-${expiresAt.slice(0, 10)}`, by: 'Rita Reviewer', at: '2026-01-01T00:00:00.000Z', expiresAt });
        const approve = async (record: { id: string }, expiresAt: string | null) => {
          const current = (await store.posts.getById(record.id)) as PostRecord;
          const saved = await store.posts.save({ ...current, approval: expiresAt === null ? null : approval(expiresAt) }, { expectedRevision: current.revision, changed: ['approval'] });
          if (saved.kind !== 'saved') throw new Error(saved.kind);
          return saved.post;
        };
        const late = await approve(await create(store, 'Late'), '2027-03-01T00:00:00.000Z');
        const soon = await approve(await create(store, 'Soon', { status: 'scheduled', publishAt: '2026-09-01T00:00:00.000Z' }), '2026-12-01T00:00:00.000Z');
        await create(store, 'Never approved');
        const draft = await approve(await create(store, 'Drafted', { status: 'draft' }), '2026-11-01T00:00:00.000Z');
        const trashed = await approve(await create(store, 'Trashed'), '2026-10-01T00:00:00.000Z');
        const toTrash = (await store.posts.getById(trashed.id)) as PostRecord;
        const gone = await store.posts.save({ ...toTrash, deletedAt: '2026-02-01T00:00:00.000Z' }, { expectedRevision: toTrash.revision, changed: ['deletedAt'] });
        expect(gone.kind).toBe('saved');
        const listed = await store.posts.approved();
        expect(listed.map((entry) => entry.title)).toEqual(['Soon', 'Late']);
        expect(listed[0]?.approval).toEqual(approval('2026-12-01T00:00:00.000Z'));
        // A new expiry reorders; an approval taken away leaves the list; a draft approved again is not live.
        await approve(late, '2026-06-01T00:00:00.000Z');
        await approve(soon, null);
        expect((await store.posts.approved()).map((entry) => entry.title)).toEqual(['Late']);
        expect(draft.approval).not.toBeNull();
        expect((await (await reopen()).posts.approved()).map((entry) => entry.title)).toEqual(['Late']);
      }),
    );

    it(
      'adds, finds, updates and lists keys, refuses a taken id, and remembers the demo key',
      withStore(async ({ store, reopen }) => {
        await store.keys.add(keyRecord('AAAAAAAAAA'));
        await store.keys.add(keyRecord('BBBBBBBBBB', { permissions: ['blog:read', 'blog:write'] }));
        const taken = await store.keys.add(keyRecord('AAAAAAAAAA')).catch((e: unknown) => e);
        expect(taken).toMatchObject({ problem: 'conflict' });
        expect(await store.keys.findById('AAAAAAAAAA')).toMatchObject({ name: 'key AAAAAAAAAA' });
        expect(await store.keys.findById('CCCCCCCCCC')).toBeUndefined();
        expect(await store.keys.update('AAAAAAAAAA', { lastUsedAt: '2026-02-01T00:00:00.000Z' })).toMatchObject({ lastUsedAt: '2026-02-01T00:00:00.000Z' });
        expect(await store.keys.update('CCCCCCCCCC', { revokedAt: 'x' })).toBeUndefined();
        expect(await store.keys.demoKeyIssuedAt()).toBeNull();
        await store.keys.markDemoKeyIssued(new Date('2026-01-02T00:00:00.000Z'));
        const reopened = await reopen();
        expect((await reopened.keys.list()).map((key) => key.id)).toEqual(['AAAAAAAAAA', 'BBBBBBBBBB']);
        expect(await reopened.keys.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: '2026-02-01T00:00:00.000Z', revokedAt: null });
        expect(await reopened.keys.demoKeyIssuedAt()).toBe('2026-01-02T00:00:00.000Z');
        // Issued once: a claim after that is refused and changes nothing.
        expect(await reopened.keys.claimDemoKey(new Date('2026-03-01T00:00:00.000Z'))).toBe(false);
        expect(await reopened.keys.demoKeyIssuedAt()).toBe('2026-01-02T00:00:00.000Z');
        // A record handed out is a copy: changing it changes nothing stored.
        const copy = await reopened.keys.findById('BBBBBBBBBB');
        copy?.permissions.pop();
        expect((await reopened.keys.findById('BBBBBBBBBB'))?.permissions).toEqual(['blog:read', 'blog:write']);
      }),
    );

    it(
      'lets exactly one of several claims at once issue the demo key, and a cleared claim be made again',
      withStore(async ({ store }) => {
        const times = ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.002Z', '2026-01-01T00:00:00.003Z'];
        const answers = await Promise.all(times.map((at) => store.keys.claimDemoKey(new Date(at))));
        expect(answers.filter(Boolean)).toHaveLength(1);
        expect(await store.keys.demoKeyIssuedAt()).toBe(times[answers.indexOf(true)]);
        await store.keys.markDemoKeyIssued(null);
        expect(await store.keys.demoKeyIssuedAt()).toBeNull();
        expect(await store.keys.claimDemoKey(new Date('2026-02-01T00:00:00.000Z'))).toBe(true);
        expect(await store.keys.demoKeyIssuedAt()).toBe('2026-02-01T00:00:00.000Z');
      }),
    );

    it(
      'adds exactly one of two keys of one name added at once, takes a name in any case, and frees it once revoked',
      withStore(async ({ store, reopen }) => {
        const answers = await Promise.all([store.keys.add(keyRecord('AAAAAAAAAA', { name: 'Twin' })), store.keys.add(keyRecord('BBBBBBBBBB', { name: 'Twin' }))]);
        expect([...answers].sort()).toEqual(['added', 'name_taken']);
        const kept = answers[0] === 'added' ? 'AAAAAAAAAA' : 'BBBBBBBBBB';
        expect((await store.keys.list()).map((key) => key.id)).toEqual([kept]);
        // Another case is the same name; a taken id is still an error, whatever the name.
        expect(await store.keys.add(keyRecord('CCCCCCCCCC', { name: 'tWIN' }))).toBe('name_taken');
        expect(await store.keys.add(keyRecord(kept, { name: 'Someone else' })).catch((e: unknown) => e)).toMatchObject({ problem: 'conflict' });
        // A revoked key's name can be used again.
        await store.keys.update(kept, { revokedAt: '2026-02-01T00:00:00.000Z' });
        expect(await store.keys.add(keyRecord('DDDDDDDDDD', { name: 'twin' }))).toBe('added');
        expect(await store.keys.add(keyRecord('EEEEEEEEEE', { name: 'Other' }))).toBe('added');
        const reopened = await reopen();
        expect((await reopened.keys.list()).map((key) => [key.id, key.name, key.revokedAt])).toEqual([
          [kept, 'Twin', '2026-02-01T00:00:00.000Z'],
          ['DDDDDDDDDD', 'twin', null],
          ['EEEEEEEEEE', 'Other', null],
        ]);
      }),
    );

    it(
      'restores keys as an export holds them (two active keys of one name too), and refuses a taken id',
      withStore(async ({ store, reopen }) => {
        await store.keys.restore(keyRecord('AAAAAAAAAA', { name: 'Twin' }));
        await store.keys.restore(keyRecord('BBBBBBBBBB', { name: 'Twin' }));
        expect(await store.keys.restore(keyRecord('AAAAAAAAAA', { name: 'Other' })).catch((e: unknown) => e)).toMatchObject({ problem: 'conflict' });
        // Two active keys of one name: a new one of that name is still refused.
        expect(await store.keys.add(keyRecord('CCCCCCCCCC', { name: 'twin' }))).toBe('name_taken');
        const reopened = await reopen();
        expect((await reopened.keys.list()).map((key) => [key.id, key.name, key.revokedAt])).toEqual([
          ['AAAAAAAAAA', 'Twin', null],
          ['BBBBBBBBBB', 'Twin', null],
        ]);
      }),
    );

    it(
      'keeps concurrent key changes (last-used bookkeeping beside a revocation)',
      withStore(async ({ store, reopen }) => {
        await store.keys.add(keyRecord('AAAAAAAAAA'));
        await Promise.all([
          store.keys.update('AAAAAAAAAA', { lastUsedAt: '2026-02-01T00:00:00.000Z' }),
          store.keys.update('AAAAAAAAAA', { revokedAt: '2026-02-02T00:00:00.000Z' }),
          store.keys.add(keyRecord('BBBBBBBBBB')),
        ]);
        const reopened = await reopen();
        expect(await reopened.keys.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: '2026-02-01T00:00:00.000Z', revokedAt: '2026-02-02T00:00:00.000Z' });
        expect(await reopened.keys.list()).toHaveLength(2);
      }),
    );
    it(
      'stores leads with their notifications, lists them newest first by status and spam, and keeps them over a reopen',
      withStore(async ({ store, reopen }) => {
        const first = leadRecord('lead_AAAAAAAAAAAAAAAAAAAA', { createdAt: '2026-03-01T10:00:00.000Z' });
        const second = leadRecord('lead_BBBBBBBBBBBBBBBBBBBB', { createdAt: '2026-03-02T10:00:00.000Z', status: 'in-progress' });
        const spam = leadRecord('lead_CCCCCCCCCCCCCCCCCCCC', { createdAt: '2026-03-03T10:00:00.000Z', spam: 'honeypot' });
        await store.leads.create(first, [deliveryRecord(first, 'email'), deliveryRecord(first, 'webhook')]);
        await store.leads.create(second, [deliveryRecord(second, 'email', { nextAttemptAt: '2026-03-01T09:00:00.000Z' })]);
        await store.leads.create(spam, []);
        expect((await store.leads.list()).map((lead) => lead.id)).toEqual([second.id, first.id]);
        expect((await store.leads.list({ status: 'new' })).map((lead) => lead.id)).toEqual([first.id]);
        expect((await store.leads.list({ spam: true })).map((lead) => lead.id)).toEqual([spam.id]);
        expect(await store.leads.list({ spam: 'any' })).toHaveLength(3);
        expect(await store.leads.get('lead_ZZZZZZZZZZZZZZZZZZZZ')).toBeNull();
        expect(await store.leads.get('../blog')).toBeNull();
        // Earliest due first; a sent one is no longer pending.
        expect((await store.outbox.pending()).map((delivery) => delivery.id)).toEqual([`${second.id}.email`, `${first.id}.email`, `${first.id}.webhook`]);
        await store.outbox.save(deliveryRecord(first, 'email', { attempts: 1, sentAt: '2026-03-01T10:00:05.000Z', nextAttemptAt: null }));
        await store.outbox.save(deliveryRecord(first, 'webhook', { attempts: 1, lastError: 'HTTP 500', nextAttemptAt: '2026-03-01T10:00:35.000Z' }));
        const reopened = await reopen();
        expect(await reopened.leads.get(first.id)).toEqual(first);
        expect((await reopened.outbox.pending()).map((delivery) => delivery.id)).toEqual([`${second.id}.email`, `${first.id}.webhook`]);
        expect(await reopened.outbox.forLead(first.id)).toEqual([
          deliveryRecord(first, 'email', { attempts: 1, sentAt: '2026-03-01T10:00:05.000Z', nextAttemptAt: null }),
          deliveryRecord(first, 'webhook', { attempts: 1, lastError: 'HTTP 500', nextAttemptAt: '2026-03-01T10:00:35.000Z' }),
        ]);
        const byLead = await reopened.outbox.forLeads([first.id, second.id, spam.id, 'lead_ZZZZZZZZZZZZZZZZZZZZ']);
        expect([...byLead.keys()]).toEqual([first.id, second.id, spam.id, 'lead_ZZZZZZZZZZZZZZZZZZZZ']);
        expect(byLead.get(first.id)).toEqual(await reopened.outbox.forLead(first.id));
        expect(byLead.get(second.id)).toEqual(await reopened.outbox.forLead(second.id));
        expect(byLead.get(spam.id)).toEqual([]);
      }),
    );

    it(
      'reads leads in batches in the order of the list, across ties of time and without reading one twice',
      withStore(async ({ store }) => {
        // 23 leads, three of them at one instant (ordered by id there), every fifth kept aside as spam.
        const ids: string[] = [];
        for (let n = 0; n < 23; n++) {
          const id = `lead_${String(n).padStart(2, '0')}${'Q'.repeat(18)}`;
          const createdAt = n >= 10 && n <= 12 ? '2026-04-10T00:00:00.000Z' : `2026-04-${String(n + 1).padStart(2, '0')}T08:00:00.000Z`;
          await store.leads.create(leadRecord(id, { createdAt, ...(n % 5 === 4 ? { spam: 'honeypot' as const } : {}), ...(n % 3 === 0 ? { status: 'closed' as const } : {}) }), []);
          ids.push(id);
        }
        const batches = async (query: LeadQuery, size: number) => {
          const seen: string[][] = [];
          for await (const batch of store.leads.batches(query, size)) seen.push(batch.map((lead) => lead.id));
          return seen;
        };
        for (const query of [{}, { spam: 'any' as const }, { spam: true }, { status: 'closed' as const }, { status: 'new' as const, spam: 'any' as const }]) {
          const listed = (await store.leads.list(query)).map((lead) => lead.id);
          for (const size of [1, 4, 10, 500]) {
            const seen = await batches(query, size);
            expect(seen.flat(), `${JSON.stringify(query)} by ${size}`).toEqual(listed);
            expect(seen.every((batch) => batch.length > 0 && batch.length <= size)).toBe(true);
          }
        }
        expect(await batches({ spam: 'any' }, 10)).toHaveLength(3);
      }),
    );

    it(
      'applies changes to one lead one after another, and deletes a lead with its notifications for good',
      withStore(async ({ store, reopen }) => {
        const lead = leadRecord('lead_DDDDDDDDDDDDDDDDDDDD');
        await store.leads.create(lead, [deliveryRecord(lead, 'email')]);
        const note = (text: string) => (current: LeadRecord) => ({ ...current, agentNotes: [...current.agentNotes, { at: '2026-03-04T00:00:00.000Z', by: 'test', text }] });
        await Promise.all([store.leads.update(lead.id, note('one')), store.leads.update(lead.id, note('two')), store.leads.update(lead.id, (current) => ({ ...current, status: 'closed' }))]);
        const changed = await store.leads.get(lead.id);
        expect(changed?.agentNotes.map((item) => item.text)).toEqual(['one', 'two']);
        expect(changed?.status).toBe('closed');
        expect(await store.leads.update('lead_ZZZZZZZZZZZZZZZZZZZZ', (current) => current)).toBeNull();
        expect(await store.leads.delete(lead.id)).toBe(true);
        expect(await store.leads.delete(lead.id)).toBe(false);
        const reopened = await reopen();
        expect(await reopened.leads.get(lead.id)).toBeNull();
        expect(await reopened.outbox.forLead(lead.id)).toEqual([]);
        expect(await reopened.outbox.pending()).toEqual([]);
      }),
    );

    it(
      'stores one lead per form token while its claim lasts, even for two connections at once, and finds a lead by its unique reference',
      withStore(async ({ store, reopen }) => {
        const DAY_MS = 24 * 3_600_000;
        const token = 'Tok3n-Of-One_Intent00A';
        const at = Date.parse('2026-03-01T10:00:00.000Z');
        const intent = { token, nowMs: at, expiresAtMs: at + DAY_MS };
        const first = leadRecord('lead_IIIIIIIIIIIIIIIIIIII', { reference: 'AAAA-BBBB-CCCC' });
        const again = leadRecord('lead_JJJJJJJJJJJJJJJJJJJJ', { reference: 'DDDD-EEEE-FFFF' });
        // Two servers (two connections) take the same form at the same moment: one lead, one notification.
        const other = await reopen();
        const outcomes = await Promise.all([
          store.leads.create(first, [deliveryRecord(first, 'email')], intent),
          other.leads.create(again, [deliveryRecord(again, 'email')], intent),
        ]);
        const createdAt = outcomes.findIndex((outcome) => outcome.kind === 'created');
        expect(outcomes.filter((outcome) => outcome.kind === 'created')).toHaveLength(1);
        const [winner, loser] = createdAt === 0 ? [first, again] : [again, first];
        expect(outcomes[1 - createdAt]).toEqual({ kind: 'replayed', lead: winner });
        expect((await store.leads.list({ spam: 'any' })).map((lead) => lead.id)).toEqual([winner.id]);
        expect((await store.outbox.pending()).map((delivery) => delivery.leadId)).toEqual([winner.id]);

        // Sent again later the same day: the same lead, nothing more stored.
        expect(await store.leads.create(loser, [deliveryRecord(loser, 'email')], { ...intent, nowMs: at + DAY_MS - 1 })).toEqual({ kind: 'replayed', lead: winner });
        expect(await store.leads.byIntent(token, at + DAY_MS - 1)).toEqual(winner);
        expect(await store.leads.byIntent(token, at + DAY_MS)).toBeNull();
        expect(await store.leads.byIntent('Never-Claimed-Token00A', at)).toBeNull();
        expect(await store.leads.byReference(winner.reference ?? '')).toEqual(winner);
        expect(await store.leads.byReference(loser.reference ?? '')).toBeNull();

        // Leads without a token are stored as they always were, each one.
        const plain = [leadRecord('lead_KKKKKKKKKKKKKKKKKKKK'), leadRecord('lead_LLLLLLLLLLLLLLLLLLLL')];
        for (const lead of plain) expect(await store.leads.create(lead, [])).toEqual({ kind: 'created' });
        // A reference belongs to one lead only: nothing is stored under a taken one.
        const copy = leadRecord('lead_MMMMMMMMMMMMMMMMMMMM', { reference: winner.reference ?? '' });
        const refused = await store.leads.create(copy, [deliveryRecord(copy, 'email')]).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(StoreError);
        expect((refused as StoreError).problem).toBe('conflict');
        expect(await store.leads.get(copy.id)).toBeNull();
        expect(await store.outbox.forLead(copy.id)).toEqual([]);

        // After its day the token is a new intent: it names the new lead from then on.
        const nextDay = leadRecord('lead_NNNNNNNNNNNNNNNNNNNN', { reference: 'GGGG-HHHH-JJJJ', createdAt: '2026-03-02T10:00:00.000Z' });
        expect(await store.leads.create(nextDay, [], { token, nowMs: at + DAY_MS, expiresAtMs: at + 2 * DAY_MS })).toEqual({ kind: 'created' });
        expect(await store.leads.byIntent(token, at + DAY_MS)).toEqual(nextDay);

        // Expired claims are forgotten (their leads stay); a deleted lead takes its claim with it.
        const secondToken = 'Second-Token-Of-Form0A';
        const kept = leadRecord('lead_PPPPPPPPPPPPPPPPPPPP', { reference: 'KKKK-MMMM-NNNN' });
        await store.leads.create(kept, [], { token: secondToken, nowMs: at, expiresAtMs: at + 3 * DAY_MS });
        expect(await store.leads.purgeExpiredIntents(at + 2 * DAY_MS)).toBe(1);
        expect(await store.leads.byIntent(token, at)).toBeNull();
        expect(await store.leads.get(nextDay.id)).toEqual(nextDay);
        expect(await store.leads.delete(kept.id)).toBe(true);
        expect(await store.leads.byIntent(secondToken, at)).toBeNull();
        expect(await store.leads.purgeExpiredIntents(at + 10 * DAY_MS)).toBe(0);
        // A change to a lead keeps its reference.
        await store.leads.update(nextDay.id, (lead) => ({ ...lead, status: 'closed', reference: 'ZZZZ-ZZZZ-ZZZZ' }));
        expect(await store.leads.byReference('GGGG-HHHH-JJJJ')).toMatchObject({ id: nextDay.id, status: 'closed', reference: 'GGGG-HHHH-JJJJ' });
      }),
    );

    it(
      'adds staff accounts, finds them by id and by e-mail in any case, and keeps them over a reopen',
      withStore(async ({ store, reopen }) => {
        expect(await store.staff.list()).toEqual([]);
        const jane = staffRecord('stf_AAAAAAAAAAAAAAAA', { email: 'jane@example.com', name: 'Jane Agent' });
        const sam = staffRecord('stf_BBBBBBBBBBBBBBBB', { email: 'sam@example.com', disabledAt: '2026-11-02T00:00:00.000Z' });
        await store.staff.add(jane);
        await store.staff.add(sam);
        expect(await store.staff.findById(jane.id)).toEqual(jane);
        expect(await store.staff.findById('stf_ZZZZZZZZZZZZZZZZ')).toBeUndefined();
        expect(await store.staff.findByEmail('JANE@Example.com')).toEqual(jane);
        expect(await store.staff.findByEmail('nobody@example.com')).toBeUndefined();
        const reopened = await reopen();
        expect([...(await reopened.staff.list())].sort((a, b) => a.id.localeCompare(b.id))).toEqual([jane, sam]);
        expect(await reopened.staff.findByEmail('Sam@EXAMPLE.com')).toEqual(sam);
      }),
    );

    it(
      "refuses a second staff account with a taken e-mail (in any case) or id as a 'conflict', changing nothing",
      withStore(async ({ store }) => {
        const jane = staffRecord('stf_AAAAAAAAAAAAAAAA', { email: 'jane@example.com' });
        await store.staff.add(jane);
        const refusals = [
          staffRecord('stf_CCCCCCCCCCCCCCCC', { email: 'jane@example.com', name: 'Same e-mail' }),
          staffRecord('stf_DDDDDDDDDDDDDDDD', { email: 'Jane@EXAMPLE.com', name: 'Same e-mail, other case' }),
          staffRecord(jane.id, { email: 'other@example.com', name: 'Same id' }),
        ];
        for (const refused of refusals) {
          const error = await store.staff.add(refused).catch((e: unknown) => e);
          expect(error, refused.name).toBeInstanceOf(StoreError);
          expect((error as StoreError).problem, refused.name).toBe('conflict');
        }
        expect(await store.staff.list()).toEqual([jane]);
        expect(await store.staff.findByEmail('other@example.com')).toBeUndefined();
      }),
    );

    it(
      'updates the name, password hash and disabling of a staff account, keeping the rest; undefined for an unknown id',
      withStore(async ({ store, reopen }) => {
        const jane = staffRecord('stf_AAAAAAAAAAAAAAAA', { email: 'jane@example.com', name: 'Jane Agent' });
        const sam = staffRecord('stf_BBBBBBBBBBBBBBBB');
        await store.staff.add(jane);
        await store.staff.add(sam);
        const renamed = await store.staff.update(jane.id, { name: 'Jane A. Agent' });
        expect(renamed).toEqual({ ...jane, name: 'Jane A. Agent' });
        const passwordChanged = { passwordHash: 'scrypt$65536$8$1$bmV3$bmV3aGFzaA', passwordChangedAt: '2026-11-03T00:00:00.000Z' };
        expect(await store.staff.update(jane.id, passwordChanged)).toEqual({ ...jane, name: 'Jane A. Agent', ...passwordChanged });
        const disabled = await store.staff.update(jane.id, { disabledAt: '2026-11-04T00:00:00.000Z' });
        expect(disabled).toEqual({ ...jane, name: 'Jane A. Agent', ...passwordChanged, disabledAt: '2026-11-04T00:00:00.000Z' });
        expect(await store.staff.update('stf_ZZZZZZZZZZZZZZZZ', { name: 'Nobody' })).toBeUndefined();
        expect(await store.staff.findById('stf_ZZZZZZZZZZZZZZZZ')).toBeUndefined();
        const reopened = await reopen();
        expect(await reopened.staff.findById(jane.id)).toEqual(disabled);
        expect(await reopened.staff.findByEmail('jane@example.com')).toEqual(disabled);
        expect(await reopened.staff.findById(sam.id)).toEqual(sam);
        // Enabled again.
        expect(await reopened.staff.update(jane.id, { disabledAt: null })).toMatchObject({ disabledAt: null, name: 'Jane A. Agent' });
        expect((await reopened.staff.findById(jane.id))?.disabledAt).toBeNull();
      }),
    );

    it(
      'hands out copies of staff accounts: changing one changes nothing stored',
      withStore(async ({ store }) => {
        const given = staffRecord('stf_AAAAAAAAAAAAAAAA', { name: 'Jane Agent' });
        await store.staff.add(given);
        given.name = 'Changed after add';
        const found = await store.staff.findById('stf_AAAAAAAAAAAAAAAA');
        expect(found?.name).toBe('Jane Agent');
        if (found) found.name = 'Changed after findById';
        const listed = await store.staff.list();
        expect(listed.map((record) => record.name)).toEqual(['Jane Agent']);
        if (listed[0]) listed[0].disabledAt = 'changed after list';
        const updated = await store.staff.update('stf_AAAAAAAAAAAAAAAA', { passwordChangedAt: '2026-11-05T00:00:00.000Z' });
        if (updated) updated.email = 'changed@example.com';
        expect(await store.staff.findById('stf_AAAAAAAAAAAAAAAA')).toEqual({ ...staffRecord('stf_AAAAAAAAAAAAAAAA', { name: 'Jane Agent' }), passwordChangedAt: '2026-11-05T00:00:00.000Z' });
      }),
    );

    const ONE = '1'.repeat(64);
    const TWO = '2'.repeat(64);
    const THREE = '3'.repeat(64);

    it(
      'creates sessions, gets them by the hash of their id, deletes them, and keeps them over a reopen',
      withStore(async ({ store, reopen }) => {
        const first = sessionRecord(ONE);
        const second = sessionRecord(TWO, { staffId: 'stf_BBBBBBBBBBBBBBBB', ip: '198.51.100.4', userAgent: 'Firefox' });
        await store.sessions.create(first);
        await store.sessions.create(second);
        expect(await store.sessions.get(ONE)).toEqual(first);
        expect(await store.sessions.get(THREE)).toBeNull();
        expect(await store.sessions.delete(ONE)).toBe(true);
        expect(await store.sessions.delete(ONE)).toBe(false);
        expect(await store.sessions.delete(THREE)).toBe(false);
        expect(await store.sessions.get(ONE)).toBeNull();
        const reopened = await reopen();
        expect(await reopened.sessions.get(ONE)).toBeNull();
        expect(await reopened.sessions.get(TWO)).toEqual(second);
      }),
    );

    it(
      'touch moves when a session was last seen (by more than a minute), and only that',
      withStore(async ({ store, reopen }) => {
        const session = sessionRecord(ONE, { createdAt: '2026-11-01T10:00:00.000Z' });
        await store.sessions.create(session);
        await store.sessions.touch(ONE, '2026-11-01T10:05:00.000Z');
        expect(await store.sessions.get(ONE)).toEqual({ ...session, lastSeenAt: '2026-11-01T10:05:00.000Z' });
        await store.sessions.touch(ONE, '2026-11-01T11:00:00.000Z');
        expect(await (await reopen()).sessions.get(ONE)).toEqual({ ...session, lastSeenAt: '2026-11-01T11:00:00.000Z' });
        // Touching a session that does not exist makes none.
        await store.sessions.touch(TWO, '2026-11-01T11:00:00.000Z');
        expect(await store.sessions.get(TWO)).toBeNull();
      }),
    );

    it(
      'ends every session of one staff member only, and says how many',
      withStore(async ({ store, reopen }) => {
        await store.sessions.create(sessionRecord(ONE, { staffId: 'stf_AAAAAAAAAAAAAAAA' }));
        await store.sessions.create(sessionRecord(TWO, { staffId: 'stf_AAAAAAAAAAAAAAAA', userAgent: 'phone' }));
        const other = sessionRecord(THREE, { staffId: 'stf_BBBBBBBBBBBBBBBB' });
        await store.sessions.create(other);
        expect(await store.sessions.deleteForStaff('stf_AAAAAAAAAAAAAAAA')).toBe(2);
        expect(await store.sessions.deleteForStaff('stf_AAAAAAAAAAAAAAAA')).toBe(0);
        expect(await store.sessions.deleteForStaff('stf_ZZZZZZZZZZZZZZZZ')).toBe(0);
        const reopened = await reopen();
        expect(await reopened.sessions.get(ONE)).toBeNull();
        expect(await reopened.sessions.get(TWO)).toBeNull();
        expect(await reopened.sessions.get(THREE)).toEqual(other);
      }),
    );

    it(
      'purges sessions past their end or idle since before the cutoff, keeping the others',
      withStore(async ({ store, reopen }) => {
        const now = '2026-11-01T12:00:00.000Z';
        const idleCutoff = '2026-11-01T11:00:00.000Z';
        const ended = sessionRecord('a'.repeat(64), { lastSeenAt: '2026-11-01T11:50:00.000Z', expiresAt: '2026-11-01T11:59:00.000Z' });
        const idle = sessionRecord('b'.repeat(64), { lastSeenAt: '2026-11-01T10:59:59.000Z' });
        const active = sessionRecord('c'.repeat(64), { lastSeenAt: '2026-11-01T11:30:00.000Z' });
        // Seen exactly at the cutoff is not idle since before it.
        const justActive = sessionRecord('d'.repeat(64), { lastSeenAt: idleCutoff });
        for (const session of [ended, idle, active, justActive]) await store.sessions.create(session);
        expect(await store.sessions.purgeExpired(now, idleCutoff)).toBe(2);
        expect(await store.sessions.purgeExpired(now, idleCutoff)).toBe(0);
        const reopened = await reopen();
        expect(await reopened.sessions.get(ended.idHash)).toBeNull();
        expect(await reopened.sessions.get(idle.idHash)).toBeNull();
        expect(await reopened.sessions.get(active.idHash)).toEqual(active);
        expect(await reopened.sessions.get(justActive.idHash)).toEqual(justActive);
      }),
    );

    it(
      'appends audit entries and lists them oldest first, over a reopen too',
      withStore(async ({ store, reopen }) => {
        expect(await store.audit.list()).toEqual([]);
        const entries = [
          auditEntry({ at: '2026-10-31T23:59:00.000Z' }),
          auditEntry({ at: '2026-11-01T00:01:00.000Z', actor: 'staff:jane@example.com', action: 'lead.status_changed', target: 'lead_AAAAAAAAAAAAAAAAAAAA', detail: { from: 'new', to: 'contacted' }, ip: '203.0.113.7' }),
          auditEntry({ at: '2026-11-02T08:00:00.000Z', action: 'staff.added', target: 'sam@example.com', detail: { count: 1, notify: false, reason: null } }),
        ];
        for (const entry of entries) await store.audit.append(entry);
        expect(await store.audit.list()).toEqual(entries);
        const reopened = await reopen();
        expect(await reopened.audit.list()).toEqual(entries);
        const later = auditEntry({ at: '2026-11-03T09:00:00.000Z', action: 'post.trashed', target: 'post_1', detail: {} });
        await reopened.audit.append(later);
        expect(await reopened.audit.list()).toEqual([...entries, later]);
      }),
    );

    it(
      'logs the audit entry given with a create or a change in the same transaction: with it when saved, never when not',
      withStore(async ({ store, reopen }) => {
        const made = auditEntry({ at: '2026-11-04T09:00:00.000Z', actor: 'key:AuthorKey1', action: 'post.created', detail: { status: 'published' } });
        const { target: _target, ...withoutTarget } = made;
        const post = created(await store.posts.create(newPost('Audited'), { slugBase: 'audited', audit: withoutTarget }));
        // The store names the new post as the target: the service could not know its id.
        expect(await store.audit.list()).toEqual([{ ...made, target: post.id }]);
        const current = await store.posts.getById(post.id);
        if (!current) throw new Error('created post not found');
        const changed = auditEntry({ at: '2026-11-04T09:01:00.000Z', actor: 'staff:jane@example.com', action: 'post.trashed', target: post.id, detail: { revision: 2 } });
        expect((await store.posts.save({ ...current, deletedAt: '2026-11-04T09:01:00.000Z' }, { expectedRevision: 1, changed: [], audit: changed })).kind).toBe('saved');
        // A stale change, and one whose entry is not an entry, store nothing: neither the post nor the entry.
        const stale = auditEntry({ at: '2026-11-04T09:02:00.000Z', action: 'post.restored', target: post.id });
        expect((await store.posts.save({ ...current, deletedAt: null }, { expectedRevision: 1, changed: [], audit: stale })).kind).toBe('stale');
        const broken = { ...stale, action: 'post.burned' } as unknown as AuditEntry;
        await expect(store.posts.save({ ...current, deletedAt: null, revision: 2 }, { expectedRevision: 2, changed: [], audit: broken })).rejects.toThrow(/Not an audit entry/);
        const reopened = await reopen();
        expect(await reopened.audit.list()).toEqual([{ ...made, target: post.id }, changed]);
        expect(await reopened.posts.getById(post.id)).toMatchObject({ revision: 2, deletedAt: '2026-11-04T09:01:00.000Z' });
      }),
    );

    it(
      "makes the audit's pseudonym key once, 32 random bytes, the same for callers at once and after a reopen",
      withStore(async ({ store, reopen }) => {
        const keys = await Promise.all([store.audit.pseudonymKey(), store.audit.pseudonymKey(), store.audit.pseudonymKey()]);
        expect(keys[0]).toHaveLength(32);
        expect(keys[0]?.equals(Buffer.alloc(32))).toBe(false);
        for (const key of keys) expect(key.equals(keys[0] ?? Buffer.alloc(0))).toBe(true);
        const reopened = await reopen();
        expect((await reopened.audit.pseudonymKey()).equals(keys[0] ?? Buffer.alloc(0))).toBe(true);
      }),
    );

    it(
      'lists the audit log from a time on (inclusive), and only the newest entries with a limit, still oldest first',
      withStore(async ({ store }) => {
        const times = ['2026-09-10T00:00:00.000Z', '2026-10-10T00:00:00.000Z', '2026-11-10T00:00:00.000Z', '2026-11-11T00:00:00.000Z'];
        for (const at of times) await store.audit.append(auditEntry({ at }));
        const listedAt = async (query: { since?: string; limit?: number }) => (await store.audit.list(query)).map((entry) => entry.at);
        expect(await listedAt({ since: '2026-10-10T00:00:00.000Z' })).toEqual(times.slice(1));
        expect(await listedAt({ since: '2026-10-10T00:00:00.001Z' })).toEqual(times.slice(2));
        expect(await listedAt({ since: '2026-12-01T00:00:00.000Z' })).toEqual([]);
        expect(await listedAt({ limit: 2 })).toEqual(times.slice(2));
        expect(await listedAt({ limit: 10 })).toEqual(times);
        expect(await listedAt({ since: '2026-10-01T00:00:00.000Z', limit: 1 })).toEqual(times.slice(3));
      }),
    );
    it(
      'saves a medium with its files, and a second save of the same id writes nothing and adds the new owners',
      withStore(async ({ store, reopen }) => {
        const id = 'a'.repeat(32);
        const record = mediaRecord(id);
        const files = mediaFiles(record);
        expect(await store.media.save(record, files)).toEqual({ kind: 'created', record });
        expect(await store.media.get(id)).toEqual(record);
        expect(await store.media.read(`${id}-480.webp`)).toEqual(files.get(`${id}-480.webp`));
        const again = await store.media.save(mediaRecord(id, { owners: ['bob'], uploadedAt: '2026-11-02T10:00:00.000Z' }), new Map([[`${id}-480.webp`, new Uint8Array([1, 2, 3])]]));
        expect(again).toEqual({ kind: 'existing', record: { ...record, owners: ['alice', 'bob'] } });
        expect(await store.media.save(mediaRecord(id, { owners: ['alice'] }), new Map())).toEqual({ kind: 'existing', record: { ...record, owners: ['alice', 'bob'] } });
        const reopened = await reopen();
        expect(await reopened.media.get(id)).toEqual({ ...record, owners: ['alice', 'bob'] });
        expect(await reopened.media.read(`${id}-480.webp`)).toEqual(files.get(`${id}-480.webp`));
        expect(await reopened.media.get('b'.repeat(32))).toBeNull();
        expect(await reopened.media.get('../blog')).toBeNull();
      }),
    );

    it(
      'lists media newest first, and only an owner\'s with `owner`',
      withStore(async ({ store }) => {
        const old = mediaRecord('1'.repeat(32), { uploadedAt: '2026-10-01T00:00:00.000Z', owners: ['alice'] });
        const mid = mediaRecord('2'.repeat(32), { uploadedAt: '2026-10-02T00:00:00.000Z', owners: ['bob'] });
        const recent = mediaRecord('3'.repeat(32), { uploadedAt: '2026-10-03T00:00:00.000Z', owners: ['bob', 'alice'] });
        for (const record of [mid, recent, old]) await store.media.save(record, mediaFiles(record));
        expect((await store.media.list()).map((record) => record.id)).toEqual([recent.id, mid.id, old.id]);
        expect((await store.media.list({ owner: 'alice' })).map((record) => record.id)).toEqual([recent.id, old.id]);
        expect((await store.media.list({ owner: 'bob' })).map((record) => record.id)).toEqual([recent.id, mid.id]);
        expect(await store.media.list({ owner: 'carol' })).toEqual([]);
      }),
    );

    it(
      'reads only variant names, never another path, and deletes a medium with all its files',
      withStore(async ({ store, reopen }) => {
        const id = 'c'.repeat(32);
        const record = mediaRecord(id, {}, [480, 960, 1600]);
        await store.media.save(record, mediaFiles(record));
        for (const bad of ['../blog.json', `${id}.json`, `../${id}.json`, `${id}-480.webp/..`, `${id}-480.exe`, `${id.toUpperCase()}-480.webp`, '', `${id}-0480.webp`]) {
          expect(await store.media.read(bad)).toBeNull();
        }
        expect(await store.media.read(`${id}-2000.webp`)).toBeNull();
        expect(await store.media.delete(id)).toBe(true);
        expect(await store.media.delete(id)).toBe(false);
        expect(await store.media.delete('not-an-id')).toBe(false);
        expect(await store.media.get(id)).toBeNull();
        for (const variant of record.variants) expect(await store.media.read(variant.file)).toBeNull();
        const reopened = await reopen();
        expect(await reopened.media.list()).toEqual([]);
        expect(await reopened.media.read(`${id}-480.webp`)).toBeNull();
      }),
    );

    it(
      'refuses files that are not variants of the medium saved',
      withStore(async ({ store }) => {
        const record = mediaRecord('d'.repeat(32));
        await expect(store.media.save(record, new Map([[`${'e'.repeat(32)}-480.webp`, new Uint8Array([1])]]))).rejects.toBeInstanceOf(StoreError);
        await expect(store.media.save(record, new Map([['../escape.webp', new Uint8Array([1])]]))).rejects.toBeInstanceOf(StoreError);
        await expect(store.media.save({ ...record, id: '../x' }, new Map())).rejects.toBeInstanceOf(StoreError);
        expect(await store.media.get(record.id)).toBeNull();
      }),
    );

    it(
      'stores no record when a file cannot be written, and a later save stores it whole',
      withStore(async ({ store, failNextWrite }) => {
        const record = mediaRecord('f'.repeat(32));
        const files = mediaFiles(record);
        failNextWrite();
        await expect(store.media.save(record, files)).rejects.toBeInstanceOf(StoreError);
        expect(await store.media.get(record.id)).toBeNull();
        for (const variant of record.variants) expect(await store.media.read(variant.file)).toBeNull();
        expect((await store.media.save(record, files)).kind).toBe('created');
        for (const variant of record.variants) expect(await store.media.read(variant.file)).toEqual(files.get(variant.file));
      }),
    );

    it(
      'gives an IndieAuth code to one exchange only, and none once it expired',
      withStore(async ({ store }) => {
        const grant = { clientId: 'https://app.example/', redirectUri: 'https://app.example/cb', scope: 'create', codeChallenge: 'c'.repeat(43), staffEmail: 'ann@example.com', me: 'https://site.example/' };
        await store.indieAuthCodes.add('a'.repeat(64), grant, 2_000);
        await store.indieAuthCodes.add('b'.repeat(64), grant, 2_000);
        const [first, second] = await Promise.all([store.indieAuthCodes.take('a'.repeat(64), 1_000), store.indieAuthCodes.take('a'.repeat(64), 1_000)]);
        expect([first, second].filter((taken) => taken !== null)).toEqual([grant]);
        expect(await store.indieAuthCodes.take('b'.repeat(64), 2_000)).toBeNull();
      }),
    );

    it(
      'remembers imported items by guid (pending, then done) and the old addresses, which keep their first answer',
      withStore(async ({ store, reopen }) => {
        const guid = 'https://old.example/?p=12';
        expect(await store.imports.item('wordpress', guid)).toBeNull();
        await store.imports.begin('wordpress', guid, 'my-post', '2026-01-01T00:00:00.000Z');
        expect(await store.imports.item('wordpress', guid)).toEqual({ source: 'wordpress', guid, state: 'pending', slug: 'my-post', postId: null });
        // Begun again (a run after a crash): the same row.
        await store.imports.begin('wordpress', guid, 'my-post', '2026-01-02T00:00:00.000Z');
        const post = await create(store, 'Imported');
        await store.imports.finish('wordpress', guid, post.id, [
          { path: '/?p=12', postId: post.id },
          { path: '/2024/05/my-post', postId: post.id },
        ]);
        await store.imports.addUrls([
          { path: '/category/news', target: '/blog/category/financial-education' },
          { path: '/2024/05/my-post', target: '/elsewhere' },
        ]);
        const reopened = await reopen();
        expect(await reopened.imports.item('wordpress', guid)).toMatchObject({ state: 'done', postId: post.id });
        expect(await reopened.imports.item('ghost', guid)).toBeNull();
        expect(await reopened.imports.redirect('/?p=12')).toEqual({ path: '/?p=12', postId: post.id });
        expect(await reopened.imports.redirect('/2024/05/my-post')).toEqual({ path: '/2024/05/my-post', postId: post.id });
        expect(await reopened.imports.redirect('/category/news')).toEqual({ path: '/category/news', target: '/blog/category/financial-education' });
        expect(await reopened.imports.redirect('/nothing')).toBeNull();
      }),
    );

    it(
      'keeps page views with one salt a day, rolls old views up into daily counts and keeps quote requests\' attribution',
      withStore(async ({ store, reopen }) => {
        const view = (day: string, route: string, slug: string | null, visitor: string | null, utmSource: string | null = null) => ({
          day, at: `${day}T09:00:00.000Z`, route, slug, referrerHost: 'news.example.org', utmSource, utmMedium: null, utmCampaign: null, device: 'mobile' as const, visitor,
        });
        const salt = await store.analytics.salt('2026-03-01', 'first-candidate');
        expect(salt).toBe('first-candidate');
        // A second server choosing at once gets the same salt; the next day's choice deletes it.
        expect(await store.analytics.salt('2026-03-01', 'second-candidate')).toBe('first-candidate');
        await store.analytics.addViews([view('2026-03-01', '/blog/:slug', 'a', 'h1', 'podcast'), view('2026-03-01', '/blog/:slug', 'b', 'h1'), view('2026-03-01', '/faq', null, null), view('2026-03-02', '/faq', null, 'h2')]);
        expect(await store.analytics.salt('2026-03-02', 'next-day')).toBe('next-day');
        expect(await store.analytics.salt('2026-03-01', 'again')).toBe('again');
        expect((await store.analytics.visit('2026-03-01', 'h1')).map((item) => item.slug)).toEqual(['a', 'b']);
        await store.analytics.addConversion({ leadId: 'lead_1', day: '2026-03-01', landing: '/blog/a', articles: ['a', 'b'], utmSource: 'podcast' });
        expect(await store.analytics.rollUp('2026-03-02')).toBe(3);
        const reopened = await reopen();
        expect(await reopened.analytics.visit('2026-03-01', 'h1')).toEqual([]);
        const counts = await reopened.analytics.counts('2026-03-01', '2026-03-02');
        expect(counts.reduce((sum, count) => sum + count.views, 0)).toBe(4);
        expect(counts).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', slug: 'a', referrerHost: 'news.example.org', utmSource: 'podcast', views: 1 });
        expect(await reopened.analytics.visitors('2026-03-01', '2026-03-02')).toEqual(new Map([['2026-03-01', 1], ['2026-03-02', 1]]));
        expect(await reopened.analytics.conversions('2026-03-01', '2026-03-01')).toEqual([{ leadId: 'lead_1', day: '2026-03-01', landing: '/blog/a', articles: ['a', 'b'], utmSource: 'podcast' }]);
        expect(await reopened.analytics.conversion('lead_2')).toBeNull();
        // Deleting a lead deletes its attribution.
        const lead = leadRecord('lead_AnalyticsAttrib00001');
        await reopened.leads.create(lead, []);
        await reopened.analytics.addConversion({ leadId: lead.id, day: '2026-03-02', landing: '/faq', articles: [], utmSource: null });
        expect(await reopened.leads.delete(lead.id)).toBe(true);
        expect(await reopened.analytics.conversion(lead.id)).toBeNull();
      }),
    );

    it(
      'keeps Core Web Vitals events, rolls old days up into their p75 and ratings per page type, device, metric and build, and deletes them',
      withStore(async ({ store, reopen }) => {
        const event = (day: string, metric: 'LCP' | 'CLS', value: number, rating: 'good' | 'needs-improvement' | 'poor', build = 'b1') => ({
          day, route: '/blog/:slug', device: 'mobile' as const, metric, value, rating, build, attribution: metric === 'LCP' ? 'h1.post-title' : null,
        });
        // LCP 1000, 2000, 3000, 4500 on day 1: p75 by nearest rank is 3000 (the 3rd of 4).
        await store.analytics.addVitals([
          event('2026-03-01', 'LCP', 1000, 'good'),
          event('2026-03-01', 'LCP', 2000, 'good'),
          event('2026-03-01', 'LCP', 3000, 'needs-improvement'),
          event('2026-03-01', 'LCP', 4500, 'poor'),
          event('2026-03-01', 'CLS', 0.1234, 'needs-improvement'),
          event('2026-03-01', 'LCP', 900, 'good', 'b2'),
          event('2026-03-02', 'LCP', 1200, 'good'),
        ]);
        const before = await store.analytics.vitals('2026-03-01', '2026-03-02');
        expect(before.daily).toEqual([]);
        expect(before.raw).toHaveLength(7);
        expect(before.raw).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', device: 'mobile', metric: 'CLS', value: 0.1234, rating: 'needs-improvement', build: 'b1', attribution: null });
        expect(before.raw).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', device: 'mobile', metric: 'LCP', value: 4500, rating: 'poor', build: 'b1', attribution: 'h1.post-title' });
        expect(await store.analytics.rollUpVitals('2026-03-02')).toBe(6);
        expect(await store.analytics.rollUpVitals('2026-03-02')).toBe(0);
        const reopened = await reopen();
        const after = await reopened.analytics.vitals('2026-03-01', '2026-03-02');
        expect(after.raw.map((item) => [item.day, item.value])).toEqual([['2026-03-02', 1200]]);
        expect(after.daily).toHaveLength(3);
        expect(after.daily).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', device: 'mobile', metric: 'LCP', build: 'b1', p75: 3000, events: 4, good: 2, needsImprovement: 1, poor: 1 });
        expect(after.daily).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', device: 'mobile', metric: 'CLS', build: 'b1', p75: 0.1234, events: 1, good: 0, needsImprovement: 1, poor: 0 });
        expect(after.daily).toContainEqual({ day: '2026-03-01', route: '/blog/:slug', device: 'mobile', metric: 'LCP', build: 'b2', p75: 900, events: 1, good: 1, needsImprovement: 0, poor: 0 });
        expect((await reopened.analytics.vitals('2026-03-03', '2026-03-04')).raw).toEqual([]);
      }),
    );
  });
  describeArchiveContract(name, open);
}
