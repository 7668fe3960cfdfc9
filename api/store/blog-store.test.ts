/** The store against real files in a temporary directory (never lowdb's in-memory preset). */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseSlug, slugBaseFor } from '../services/posts';
import { openBlogStore, openKeyStore } from './blog-store';
import type { NewPost } from './records';
import { StoreError } from './store-error';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-store-unit-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function newPost(title: string, status: 'draft' | 'published' = 'published'): NewPost {
  return {
    title,
    excerpt: 'e',
    content: '<p>x</p>',
    categorySlug: 'tax-benefits',
    tags: ['a'],
    author: { name: 'A' },
    isNewsArticle: false,
    trust: null,
    status,
    createdByKeyId: null,
    warnings: [],
  };
}

const byTitle = (title: string) => ({ chooseSlug: (taken: (s: string) => boolean) => chooseSlug(slugBaseFor(title), taken) });

describe('openBlogStore', () => {
  it('creates the files on first open and reports that only once', async () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const first = await openBlogStore(dir);
    expect(first.created).toBe(true);
    expect(existsSync(path.join(dir, 'blog.json'))).toBe(true);
    expect(existsSync(path.join(dir, 'posts'))).toBe(true);
    expect((await openBlogStore(dir)).created).toBe(false);
  });

  it('keeps posts across a reopen, newest first, with unique slugs under concurrency', async () => {
    const dir = tempDir();
    const store = await openBlogStore(dir);
    await Promise.all(Array.from({ length: 30 }, () => store.posts.create(newPost('Same'), byTitle('Same'))));
    await store.posts.create(newPost('Hidden', 'draft'), byTitle('Hidden'));
    const reopened = await openBlogStore(dir);
    const page = await reopened.posts.listPublished({ limit: 100 });
    expect(page.total).toBe(30);
    expect(new Set(page.posts.map((p) => p.slug)).size).toBe(30);
    expect(page.posts[0]?.slug).toBe('same-30');
    expect(page.posts.at(-1)?.slug).toBe('same');
    expect(await reopened.posts.getPublishedBySlug('hidden')).toBeNull();
    expect(reopened.posts.counts()).toEqual({ published: 30, drafts: 1 });
  });

  it('replays or refuses an Idempotency-Key inside the write queue', async () => {
    const store = await openBlogStore(tempDir());
    const idempotency = { scope: 's', fingerprint: 'f', ttlMs: 1000 };
    const [a, b, c] = await Promise.all([
      store.posts.create(newPost('One'), { ...byTitle('One'), idempotency }),
      store.posts.create(newPost('One'), { ...byTitle('One'), idempotency }),
      store.posts.create(newPost('Two'), { ...byTitle('Two'), idempotency: { ...idempotency, fingerprint: 'other' } }),
    ]);
    expect(a?.kind).toBe('created');
    expect(b?.kind).toBe('replayed');
    expect(c).toEqual({ kind: 'conflict' });
    expect(store.posts.counts().published).toBe(1);
  });

  it('refuses a damaged manifest and leaves it untouched', async () => {
    const dir = tempDir();
    await openBlogStore(dir);
    const file = path.join(dir, 'blog.json');
    for (const damaged of ['{ not json', '', '{"format":"something-else","version":1}', '[]']) {
      writeFileSync(file, damaged);
      const error = await openBlogStore(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).problem).toBe('corrupt');
      expect((error as StoreError).message).toContain(file);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    }
  });

  it('refuses a damaged post document, naming it', async () => {
    const dir = tempDir();
    const store = await openBlogStore(dir);
    const outcome = await store.posts.create(newPost('Doc'), byTitle('Doc'));
    if (outcome.kind !== 'created') throw new Error('expected a new post');
    const file = path.join(dir, 'posts', `${outcome.post.id}.json`);
    writeFileSync(file, '{"id": 1}');
    await expect(openBlogStore(dir)).rejects.toThrow(`The data file ${file} is damaged`);
  });

  it('ignores the temporary files of an interrupted write', async () => {
    const dir = tempDir();
    await openBlogStore(dir);
    writeFileSync(path.join(dir, 'posts', '.abc.json.tmp'), '{ half');
    await expect(openBlogStore(dir)).resolves.toBeTruthy();
  });
});

describe('KeyStore', () => {
  it('sees changes another process wrote', async () => {
    const dir = tempDir();
    const server = await openBlogStore(dir);
    const cli = await openKeyStore(dir, { create: false });
    const record = { id: 'AAAAAAAAAA', name: 'from cli', permissions: ['blog:write' as const], hash: `sha256:${'0'.repeat(64)}`, createdAt: 'x', lastUsedAt: null, revokedAt: null };
    await cli?.add(record);
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ name: 'from cli' });
    await server.keys.update('AAAAAAAAAA', { lastUsedAt: 'now' });
    await cli?.update('AAAAAAAAAA', { revokedAt: 'later' });
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: 'now', revokedAt: 'later' });
  });

  it('answers findByIdNow from memory only while the file is as last read and no change is under way', async () => {
    const dir = tempDir();
    const server = await openBlogStore(dir);
    const cli = await openKeyStore(dir, { create: false });
    const record = { id: 'AAAAAAAAAA', name: 'k', permissions: ['blog:write' as const], hash: `sha256:${'0'.repeat(64)}`, createdAt: 'x', lastUsedAt: null, revokedAt: null };
    await server.keys.add(record);
    expect(server.keys.findByIdNow('AAAAAAAAAA')).toMatchObject({ name: 'k', revokedAt: null });
    expect(server.keys.findByIdNow('BBBBBBBBBB')).toBeUndefined();

    await cli?.update('AAAAAAAAAA', { revokedAt: 'by cli' });
    expect(server.keys.findByIdNow('AAAAAAAAAA')).toBeNull();
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ revokedAt: 'by cli' });
    expect(server.keys.findByIdNow('AAAAAAAAAA')).toMatchObject({ revokedAt: 'by cli' });

    const updating = server.keys.update('AAAAAAAAAA', { lastUsedAt: 'now' });
    expect(server.keys.findByIdNow('AAAAAAAAAA')).toBeNull();
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: 'now' });
    await updating;
    expect(server.keys.findByIdNow('AAAAAAAAAA')).toMatchObject({ lastUsedAt: 'now', revokedAt: 'by cli' });
  });

  it('does not create a store just to list keys', async () => {
    const dir = path.join(tempDir(), 'absent');
    expect(await openKeyStore(dir, { create: false })).toBeNull();
    expect(existsSync(dir)).toBe(false);
  });
});
