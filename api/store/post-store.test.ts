/**
 * Creates in the post store as a group commit: decisions (slug, order, idempotency) in arrival order,
 * the files of one turn of the event loop written together, a post published only once its file is
 * written, and a failed write leaving nothing behind. Real files in a temporary directory; the writer
 * is wrapped to watch or fail writes.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSlug, slugBaseFor } from '../services/posts';
import { type BatchWriter, writeDocumentsHere } from './document-writer';
import { type CreateOutcome, PostStore } from './post-store';
import type { NewPost, PostRecord } from './records';
import { StoreError } from './store-error';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-post-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newPost(title: string): NewPost {
  return {
    title,
    excerpt: 'e',
    content: '<p>x</p>',
    categorySlug: 'tax-benefits',
    tags: [],
    author: { name: 'A' },
    isNewsArticle: false,
    trust: null,
    status: 'published',
    createdByKeyId: null,
    warnings: [],
  };
}

const byTitle = (title: string) => ({ chooseSlug: (taken: (s: string) => boolean) => chooseSlug(slugBaseFor(title), taken) });

/**
 * The writer on the test's own thread, watched: it records each batch, fails the records `fails`
 * picks, and while `held` it keeps batches waiting until `release()`.
 */
class WatchedWriter {
  readonly batches: string[][] = [];
  held = false;
  readonly #waiting: Array<() => void> = [];
  constructor(private readonly fails: (record: PostRecord) => boolean = () => false) {}

  readonly write: BatchWriter = async (writes) => {
    if (this.held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.batches.push(writes.map(({ file }) => path.basename(file)));
    const kept = writes.filter(({ data }) => !this.fails(data as PostRecord));
    const results = await writeDocumentsHere(kept);
    return writes.map((write) => (kept.includes(write) ? (results[kept.indexOf(write)] ?? null) : new Error('ENOSPC: no space left on device')));
  };

  get written(): string[] {
    return this.batches.flat();
  }

  release(): void {
    this.held = false;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const created = (outcome: CreateOutcome) => {
  if (outcome.kind !== 'created') throw new Error(`expected a created post, got ${outcome.kind}`);
  return outcome.post;
};

describe('PostStore.create', () => {
  it('chooses slugs in arrival order and commits the creates of one turn together', async () => {
    const dir = tempDir();
    const writer = new WatchedWriter();
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    let changes = 0;
    store.onChange(() => (changes += 1));
    const pending = Array.from({ length: 4 }, () => store.create(newPost('Same'), byTitle('Same')));
    expect(store.isSlugTaken('same-4')).toBe(true); // reserved before anything is written
    expect(writer.written).toHaveLength(0);
    const posts = (await Promise.all(pending)).map(created);
    expect(posts.map((post) => post.slug)).toEqual(['same', 'same-2', 'same-3', 'same-4']);
    expect(writer.written).toEqual(posts.map((post) => `${post.id}.json`));
    expect(changes).toBe(1); // one commit, one notification
    expect(store.list({ status: 'published' }).posts.map((post) => post.slug)).toEqual(['same-4', 'same-3', 'same-2', 'same']);
    const reopened = await PostStore.open(dir, () => new Date());
    expect(reopened.list({ status: 'published' }).posts.map((post) => post.slug)).toEqual(['same-4', 'same-3', 'same-2', 'same']);
  });

  it('gathers the creates that arrive while a batch is being written into the next batch', async () => {
    const writer = new WatchedWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    writer.held = true;
    const first = store.create(newPost('First'), byTitle('First'));
    await nextTurn();
    const later = [store.create(newPost('Second'), byTitle('Second')), store.create(newPost('Third'), byTitle('Third'))];
    await nextTurn();
    expect(writer.batches).toEqual([]);
    writer.release();
    const posts = [created(await first), ...(await Promise.all(later)).map(created)];
    expect(writer.batches).toEqual([[`${posts[0]?.id}.json`], [`${posts[1]?.id}.json`, `${posts[2]?.id}.json`]]);
  });

  it('publishes a post only once its file is written', async () => {
    const dir = tempDir();
    const writer = new WatchedWriter();
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    writer.held = true;
    const pending = store.create(newPost('Slow'), byTitle('Slow'));
    await nextTurn();
    expect(readdirSync(dir)).toEqual([]);
    expect(store.list({ status: 'published' }).total).toBe(0);
    expect(await store.getBySlug('slow', { includeDrafts: true })).toBeNull();
    writer.release();
    const post = created(await pending);
    expect(existsSync(path.join(dir, `${post.id}.json`))).toBe(true);
    expect(store.list({ status: 'published' }).total).toBe(1);
  });

  it('a failed write fails its own create only, frees its slug and leaves no file or index entry', async () => {
    const dir = tempDir();
    const writer = new WatchedWriter((record) => record.seq === 2);
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    const first = store.create(newPost('Same'), byTitle('Same'));
    const second = store.create(newPost('Same'), byTitle('Same')).catch((error: unknown) => error);
    const third = store.create(newPost('Same'), byTitle('Same'));
    expect(created(await first).slug).toBe('same');
    expect(await second).toMatchObject({ problem: 'unwritable', message: expect.stringContaining('ENOSPC') });
    expect(created(await third).slug).toBe('same-3');
    expect(store.isSlugTaken('same-2')).toBe(false);
    expect(store.list({ status: 'published' }).total).toBe(2);
    // The freed slug goes to the next post that asks for it.
    expect(created(await store.create(newPost('Same'), byTitle('Same'))).slug).toBe('same-2');
    expect(readdirSync(dir)).toHaveLength(3);
  });

  it('a real write error is a StoreError naming the file, and the store keeps working', async () => {
    const dir = tempDir();
    const store = await PostStore.open(dir, () => new Date());
    rmSync(dir, { recursive: true });
    const error = await store.create(newPost('Lost'), byTitle('Lost')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).problem).toBe('unwritable');
    expect((error as StoreError).message).toMatch(/Cannot write .*\.json .*DATA_DIR/);
    expect(store.isSlugTaken('lost')).toBe(false);
    expect(store.list({ status: 'published' }).total).toBe(0);
  });

  it('answers an idempotent retry that arrives before the first is written with the same post', async () => {
    const writer = new WatchedWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    const idempotency = { scope: 'scope', fingerprint: 'body', ttlMs: 60_000 };
    const first = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    const retry = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    const other = store.create(newPost('Other'), { ...byTitle('Other'), idempotency: { ...idempotency, fingerprint: 'another body' } });
    const [a, b, c] = await Promise.all([first, retry, other]);
    expect(a.kind).toBe('created');
    expect(b).toEqual({ kind: 'replayed', post: created(a) });
    expect(c).toEqual({ kind: 'conflict' });
    expect(writer.written).toHaveLength(1); // the retry wrote nothing
  });

  it('lets an idempotent retry create the post when the first attempt failed to write', async () => {
    let failures = 1;
    const writer = new WatchedWriter(() => failures-- > 0);
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    const idempotency = { scope: 'scope', fingerprint: 'body', ttlMs: 60_000 };
    const first = store.create(newPost('Once'), { ...byTitle('Once'), idempotency }).catch((error: unknown) => error);
    const retry = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    expect(await first).toBeInstanceOf(StoreError);
    expect(created(await retry).slug).toBe('once');
    expect(store.findIdempotent('scope')?.slug).toBe('once');
    expect(writer.batches).toHaveLength(2); // the failed first attempt, then the retry's own write
  });

  it('flush() waits for the creates decided so far', async () => {
    const writer = new WatchedWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    writer.held = true;
    void store.create(newPost('A'), byTitle('A'));
    let flushed = false;
    const flushing = store.flush().then(() => (flushed = true));
    await nextTurn();
    expect(flushed).toBe(false);
    writer.release();
    await flushing;
    expect(store.list({ status: 'published' }).total).toBe(1);
  });

  it('for any mix of titles, failed writes and turns: distinct slugs, and exactly the written posts survive a reopen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ title: fc.constantFrom('Alpha', 'Beta', 'Alpha 2'), fails: fc.boolean(), newTurn: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        async (creates) => {
          const dir = tempDir();
          const failing = new Set<number>();
          const writer = new WatchedWriter((record) => failing.has(record.seq));
          const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
          const outcomes: Array<Promise<string | null>> = [];
          let seq = 0;
          for (const { title, fails, newTurn } of creates) {
            if (newTurn) await nextTurn();
            seq += 1;
            if (fails) failing.add(seq);
            outcomes.push(
              store.create(newPost(title), byTitle(title)).then(
                (outcome) => created(outcome).slug,
                () => null,
              ),
            );
          }
          const slugs = await Promise.all(outcomes);
          const written = slugs.filter((slug): slug is string => slug !== null);
          expect(written).toHaveLength(creates.filter((c) => !c.fails).length);
          expect(new Set(written).size).toBe(written.length);
          const reopened = await PostStore.open(dir, () => new Date());
          expect(new Set(reopened.list({ status: 'published', limit: 100 }).posts.map((post) => post.slug))).toEqual(new Set(written));
        },
      ),
      { numRuns: 40 },
    );
  });
});
