/**
 * Creates in the post store as a group commit: decisions (slug, order, idempotency) in arrival order,
 * files written concurrently, a post published only once its file is written, and a failed write
 * leaving nothing behind. Real files in a temporary directory; the writer is wrapped to fail or wait.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSlug, slugBaseFor } from '../services/posts';
import { type CreateOutcome, type DocumentWriter, PostStore } from './post-store';
import type { NewPost } from './records';
import { StoreError, writeDocument } from './store-error';

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

/** A writer whose writes wait until released, and fail when told to; everything else is the real one. */
class HeldWriter {
  readonly #held: Array<{ file: string; release: (fail?: Error) => void }> = [];
  readonly write: DocumentWriter = (file, data) =>
    new Promise<void>((resolve, reject) => {
      this.#held.push({
        file,
        release: (fail) => {
          if (fail) reject(fail);
          else writeDocument(file, data).then(resolve, reject);
        },
      });
    });

  get count(): number {
    return this.#held.length;
  }

  /** Lets the write of the `index`-th held file go on (or fail with `fail`). */
  release(index: number, fail?: Error): void {
    const held = this.#held[index];
    if (!held) throw new Error(`no write ${index} is held`);
    held.release(fail);
  }
}

const created = (outcome: CreateOutcome) => {
  if (outcome.kind !== 'created') throw new Error(`expected a created post, got ${outcome.kind}`);
  return outcome.post;
};

describe('PostStore.create', () => {
  it('chooses slugs in arrival order and writes the files at once', async () => {
    const dir = tempDir();
    const writer = new HeldWriter();
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    const pending = Array.from({ length: 4 }, () => store.create(newPost('Same'), byTitle('Same')));
    await Promise.resolve();
    expect(writer.count).toBe(4); // all four writes are under way together, none waits for another
    expect(store.isSlugTaken('same-4')).toBe(true); // reserved while in flight
    for (const index of [3, 1, 0, 2]) writer.release(index);
    const posts = (await Promise.all(pending)).map(created);
    expect(posts.map((post) => post.slug)).toEqual(['same', 'same-2', 'same-3', 'same-4']);
    // Finished out of order, listed in creation order.
    expect(store.list({ status: 'published' }).posts.map((post) => post.slug)).toEqual(['same-4', 'same-3', 'same-2', 'same']);
    const reopened = await PostStore.open(dir, () => new Date());
    expect(reopened.list({ status: 'published' }).posts.map((post) => post.slug)).toEqual(['same-4', 'same-3', 'same-2', 'same']);
  });

  it('publishes a post only once its file is written', async () => {
    const dir = tempDir();
    const writer = new HeldWriter();
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    let changes = 0;
    store.onChange(() => (changes += 1));
    const pending = store.create(newPost('Slow'), byTitle('Slow'));
    await Promise.resolve();
    expect(store.list({ status: 'published' }).total).toBe(0);
    expect(await store.getBySlug('slow', { includeDrafts: true })).toBeNull();
    expect(changes).toBe(0);
    writer.release(0);
    const post = created(await pending);
    expect(existsSync(path.join(dir, `${post.id}.json`))).toBe(true);
    expect(store.list({ status: 'published' }).total).toBe(1);
    expect(changes).toBe(1);
  });

  it('a failed write fails its own create only, frees its slug and leaves no file or index entry', async () => {
    const dir = tempDir();
    const writer = new HeldWriter();
    const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
    const first = store.create(newPost('Same'), byTitle('Same'));
    const second = store.create(newPost('Same'), byTitle('Same')).catch((error: unknown) => error);
    const third = store.create(newPost('Same'), byTitle('Same'));
    await Promise.resolve();
    writer.release(1, new StoreError('unwritable', 'x', 'Cannot write x (ENOSPC).'));
    writer.release(0);
    writer.release(2);
    expect(created(await first).slug).toBe('same');
    expect(await second).toMatchObject({ problem: 'unwritable', message: 'Cannot write x (ENOSPC).' });
    expect(created(await third).slug).toBe('same-3');
    expect(store.isSlugTaken('same-2')).toBe(false);
    expect(store.list({ status: 'published' }).total).toBe(2);
    // The freed slug goes to the next post that asks for it.
    const fourth = store.create(newPost('Same'), byTitle('Same'));
    await Promise.resolve();
    writer.release(3);
    expect(created(await fourth).slug).toBe('same-2');
    expect(readdirSync(dir).filter((name) => !name.startsWith('.'))).toHaveLength(3);
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

  it('answers an idempotent retry that arrives while the first write is in flight with the same post', async () => {
    const writer = new HeldWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    const idempotency = { scope: 'scope', fingerprint: 'body', ttlMs: 60_000 };
    const first = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    const retry = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    const other = store.create(newPost('Other'), { ...byTitle('Other'), idempotency: { ...idempotency, fingerprint: 'another body' } });
    await expect(other).resolves.toEqual({ kind: 'conflict' });
    await Promise.resolve();
    expect(writer.count).toBe(1); // the retry writes nothing
    writer.release(0);
    const [a, b] = await Promise.all([first, retry]);
    expect(a.kind).toBe('created');
    expect(b).toEqual({ kind: 'replayed', post: created(a) });
  });

  it('lets an idempotent retry create the post when the first attempt failed to write', async () => {
    const writer = new HeldWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    const idempotency = { scope: 'scope', fingerprint: 'body', ttlMs: 60_000 };
    const first = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    const retry = store.create(newPost('Once'), { ...byTitle('Once'), idempotency });
    await Promise.resolve();
    writer.release(0, new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writer.count).toBe(2);
    writer.release(1);
    expect(created(await retry).slug).toBe('once');
    expect(store.findIdempotent('scope')?.slug).toBe('once');
  });

  it('flush() waits for the writes in flight', async () => {
    const writer = new HeldWriter();
    const store = await PostStore.open(tempDir(), () => new Date(), { write: writer.write });
    void store.create(newPost('A'), byTitle('A'));
    let flushed = false;
    const flushing = store.flush().then(() => (flushed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushed).toBe(false);
    writer.release(0);
    await flushing;
    expect(store.list({ status: 'published' }).total).toBe(1);
  });

  it('for any mix of titles and failed writes: distinct slugs, and exactly the written posts survive a reopen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ title: fc.constantFrom('Alpha', 'Beta', 'Alpha 2'), fails: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (creates, shuffle) => {
          const dir = tempDir();
          const writer = new HeldWriter();
          const store = await PostStore.open(dir, () => new Date(), { write: writer.write });
          const outcomes = creates.map(({ title }) =>
            store.create(newPost(title), byTitle(title)).then(
              (outcome) => created(outcome).slug,
              () => null,
            ),
          );
          await Promise.resolve();
          const order = creates.map((_, i) => i).sort((a, b) => (shuffle[a] ?? a) - (shuffle[b] ?? b));
          for (const i of order) writer.release(i, creates[i]?.fails ? new Error('failed write') : undefined);
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
