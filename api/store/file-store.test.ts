/**
 * The file store: the store contract on real files in temporary directories (never lowdb's memory
 * mode), then what only the file store has: quarantine, leftover temporary files, storage failures
 * injected through the writer's file-system seam, the order of a durable write, and the key file
 * shared with another process.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeFileSystem, type WriterFileSystem } from './file/durable-writer';
import { checkDataDir, listQuarantine, openFileStore, openKeyStore, restoreCommand } from './file-store';
import { describeStoreContract, keyRecord, newPost } from './store-contract';
import type { CreateOutcome, Store } from './store';
import { StoreError, storeErrorCode } from './store-error';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-file-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * node:fs/promises, watched: records every call (temporary names shown as `<tmp>`), can fail the
 * next file writes with an errno code, and can hold fsyncs until released.
 */
class WatchedFileSystem implements WriterFileSystem {
  readonly calls: string[] = [];
  failures: string[] = [];
  #held: Array<() => void> | null = null;

  constructor(private readonly root: string) {}

  #name(file: string): string {
    return path.relative(this.root, file).replace(/\.[0-9a-f]{12}\.tmp$/, '.<tmp>') || '.';
  }

  hold(): void {
    this.#held = [];
  }

  release(): void {
    const waiting = this.#held ?? [];
    this.#held = null;
    for (const resume of waiting) resume();
  }

  open: WriterFileSystem['open'] = async (file, flags) => {
    const name = this.#name(file);
    this.calls.push(`open ${name} ${flags}`);
    // Any open for writing takes the next failure, whatever the writer's way of writing is, in the
    // order the opens are called (taken before the await, so concurrent opens cannot swap it).
    const failure = flags.startsWith('w') ? this.failures.shift() : undefined;
    const handle = await nodeFileSystem.open(file, flags);
    return {
      writeFile: async (data) => {
        this.calls.push(`write ${name}`);
        if (failure) {
          // Half the text reaches the disk before it is full, as a real ENOSPC leaves it.
          await handle.writeFile(data.slice(0, data.length / 2));
          throw Object.assign(new Error(`${failure}: simulated, write '${file}'`), { code: failure });
        }
        await handle.writeFile(data);
      },
      sync: async () => {
        if (this.#held) await new Promise<void>((resolve) => this.#held?.push(resolve));
        this.calls.push(`sync ${name}`);
        await handle.sync();
      },
      close: async () => {
        this.calls.push(`close ${name}`);
        await handle.close();
      },
    };
  };

  rename: WriterFileSystem['rename'] = async (from, to) => {
    this.calls.push(`rename ${this.#name(from)} -> ${this.#name(to)}`);
    await nodeFileSystem.rename(from, to);
  };

  unlink: WriterFileSystem['unlink'] = async (file) => {
    this.calls.push(`unlink ${this.#name(file)}`);
    await nodeFileSystem.unlink(file);
  };
}

function created(outcome: CreateOutcome) {
  if (outcome.kind !== 'created') throw new Error(`expected a created post, got ${outcome.kind}`);
  return outcome.post;
}

async function openWatched(dir = tempDir(), logs: string[] = []): Promise<{ dir: string; fs: WatchedFileSystem; store: Store; logs: string[] }> {
  const fs = new WatchedFileSystem(dir);
  const store = await openFileStore(dir, { fileSystem: fs, log: (line) => logs.push(line) });
  fs.calls.length = 0;
  return { dir, fs, store, logs };
}

describeStoreContract('file store', async () => {
  const dir = path.join(tempDir(), 'data');
  const fs = new WatchedFileSystem(dir);
  const opened: Store[] = [];
  const open = async () => {
    const store = await openFileStore(dir, { fileSystem: fs });
    opened.push(store);
    return store;
  };
  return {
    store: await open(),
    reopen: open,
    failNextWrite: () => fs.failures.push('ENOSPC'),
    cleanup: async () => {
      for (const store of opened) await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('durable writes', () => {
  it('writes a temporary file, fsyncs it, renames it over the post and fsyncs the directory', async () => {
    const { store, fs } = await openWatched();
    const post = created(await store.posts.create(newPost('Durable'), { slugBase: 'durable' }));
    const file = `posts/${post.id}.json`;
    expect(fs.calls).toEqual([
      `open posts/.${post.id}.json.<tmp> wx`,
      `write posts/.${post.id}.json.<tmp>`,
      `sync posts/.${post.id}.json.<tmp>`,
      `close posts/.${post.id}.json.<tmp>`,
      `rename posts/.${post.id}.json.<tmp> -> ${file}`,
      'open posts r',
      'sync posts',
      'close posts',
    ]);
  });

  it('commits the creates that arrive while a batch is written as the next batch, with one directory fsync', async () => {
    const { store, fs } = await openWatched();
    fs.hold();
    const first = store.posts.create(newPost('First'), { slugBase: 'first' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const later = Array.from({ length: 5 }, (_, i) => store.posts.create(newPost(`Later ${i}`), { slugBase: `later-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first batch is waiting for its fsync: nothing is published, the revision has not moved.
    const revision = store.posts.revision();
    expect((await store.posts.list({ status: 'published' })).total).toBe(0);
    expect(await store.posts.getBySlug('first')).toBeNull();
    fs.release();
    await first;
    expect((await store.posts.list({ status: 'published' })).total).toBe(1);
    expect(store.posts.revision()).toBeGreaterThan(revision);
    fs.release();
    await Promise.all(later);
    const directorySyncs = fs.calls.filter((call) => call === 'sync posts');
    expect(directorySyncs).toHaveLength(2); // one per batch: [first], [later x5]
    const secondBatch = fs.calls.slice(fs.calls.indexOf('close posts') + 1);
    const lastRename = secondBatch.map((call) => call.startsWith('rename')).lastIndexOf(true);
    expect(secondBatch.filter((call) => call.startsWith('rename'))).toHaveLength(5);
    expect(secondBatch.indexOf('sync posts')).toBeGreaterThan(lastRename);
  });

  it('answers a full disk with StoreError "full", leaves no temporary file, and the next write succeeds', async () => {
    const { dir, store, fs } = await openWatched();
    fs.failures.push('ENOSPC');
    const error = await store.posts.create(newPost('Full'), { slugBase: 'full' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).problem).toBe('full');
    expect(storeErrorCode(error as StoreError)).toBe('storage_full');
    expect(readdirSync(path.join(dir, 'posts'))).toEqual([]);
    expect(fs.calls.some((call) => call.startsWith('unlink posts/.'))).toBe(true);
    const next = created(await store.posts.create(newPost('Full'), { slugBase: 'full' }));
    expect(next.slug).toBe('full');
    expect(readdirSync(path.join(dir, 'posts'))).toEqual([`${next.id}.json`]);
  });

  it('answers a read-only data directory with StoreError "read_only" (503), failing only that create', async () => {
    const { store, fs } = await openWatched();
    fs.failures.push('EROFS');
    const [refused, kept] = await Promise.all([
      store.posts.create(newPost('Refused'), { slugBase: 'refused' }).catch((e: unknown) => e),
      store.posts.create(newPost('Kept'), { slugBase: 'kept' }),
    ]);
    expect((refused as StoreError).problem).toBe('read_only');
    expect(storeErrorCode(refused as StoreError)).toBe('storage_unavailable');
    expect(created(kept).slug).toBe('kept');
    expect((await store.posts.list({ status: 'published' })).entries.map((entry) => entry.slug)).toEqual(['kept']);
  });

  it('keeps blog.json whole when a write of it is cut short (the old keys are still there to read)', async () => {
    const { dir, store, fs } = await openWatched();
    await store.keys.add(keyRecord('AAAAAAAAAA'));
    fs.failures.push('ENOSPC');
    const error = await store.keys.add(keyRecord('BBBBBBBBBB')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    // What is on disk is the last complete version, never a half-written file.
    const onDisk = JSON.parse(readFileSync(path.join(dir, 'blog.json'), 'utf8')) as { keys: Array<{ id: string }> };
    expect(onDisk.keys.map((key) => key.id)).toEqual(['AAAAAAAAAA']);
    await store.close();
    const reopened = await openFileStore(dir);
    expect((await reopened.keys.list()).map((key) => key.id)).toEqual(['AAAAAAAAAA']);
    await reopened.close();
  });

  it('writes blog.json the same durable way', async () => {
    const { store, fs } = await openWatched();
    await store.keys.add(keyRecord('AAAAAAAAAA'));
    expect(fs.calls.filter((call) => !call.startsWith('open blog.json.lock'))).toEqual([
      'open .blog.json.<tmp> wx',
      'write .blog.json.<tmp>',
      'sync .blog.json.<tmp>',
      'close .blog.json.<tmp>',
      'rename .blog.json.<tmp> -> blog.json',
      'open . r',
      'sync .',
      'close .',
    ]);
  });
});

describe('opening a data directory', () => {
  it('removes temporary files an interrupted write left', async () => {
    const dir = tempDir();
    await (await openFileStore(dir)).close();
    writeFileSync(path.join(dir, 'posts', '.abc.json.0123456789ab.tmp'), '{ half');
    writeFileSync(path.join(dir, '.blog.json.0123456789ab.tmp'), '');
    const logs: string[] = [];
    await openFileStore(dir, { log: (line) => logs.push(line) });
    expect(readdirSync(path.join(dir, 'posts'))).toEqual([]);
    expect(existsSync(path.join(dir, '.blog.json.0123456789ab.tmp'))).toBe(false);
    expect(logs).toEqual([expect.stringContaining('Removed 2 temporary file(s)')]);
  });

  it('moves a zero-length and an invalid post file to quarantine, with one log line each, and serves the rest', async () => {
    const dir = tempDir();
    const store = await openFileStore(dir);
    const posts = (await Promise.all(['Empty', 'Invalid', 'Fine'].map((title) => store.posts.create(newPost(title), { slugBase: title.toLowerCase() })))).map(created);
    const [empty, invalid] = posts.map((post) => path.join(dir, 'posts', `${post.id}.json`));
    if (!empty || !invalid) throw new Error('expected three posts');
    writeFileSync(empty, '');
    writeFileSync(invalid, '{"id": 1');

    const logs: string[] = [];
    const reopened = await openFileStore(dir, { log: (line) => logs.push(line) });
    expect((await reopened.posts.list({ status: 'published' })).entries.map((entry) => entry.slug)).toEqual(['fine']);
    expect(logs).toHaveLength(2);
    const emptyLine = logs.find((line) => line.includes(empty)) ?? '';
    expect(emptyLine).toContain('the file is empty');
    expect(emptyLine).toContain(path.join(dir, 'quarantine', 'posts', path.basename(empty)));
    expect(emptyLine).toContain(`mv '${path.join(dir, 'quarantine', 'posts', path.basename(empty))}' '${empty}'`);
    expect(logs.find((line) => line.includes(invalid))).toContain('not valid JSON');

    const quarantined = await reopened.quarantined();
    expect(quarantined.map((entry) => entry.originalFile).sort()).toEqual([empty, invalid].sort());
    expect(existsSync(empty)).toBe(false);
    expect(readFileSync(path.join(dir, 'quarantine', 'posts', path.basename(invalid)), 'utf8')).toBe('{"id": 1'); // untouched
    const note = quarantined.find((entry) => entry.originalFile === empty);
    expect(note).toMatchObject({ reason: expect.stringContaining('empty'), movedAt: expect.any(String) });

    // Repaired and moved back with the logged command, the post is served again.
    if (!note || !posts[0]) throw new Error('expected the note of the empty file');
    writeFileSync(note.file, JSON.stringify({ ...posts[0], content: '<p>Empty body</p>' }));
    execSync(restoreCommand(note));
    expect((await (await openFileStore(dir)).posts.getBySlug('empty'))?.content).toBe('<p>Empty body</p>');
    expect((await listQuarantine(dir)).map((entry) => entry.originalFile)).toEqual([invalid]);
  });

  it('keeps the older of two posts with one slug and quarantines the later', async () => {
    const dir = tempDir();
    const store = await openFileStore(dir);
    const older = created(await store.posts.create(newPost('Twin'), { slugBase: 'twin' }));
    const later = created(await store.posts.create(newPost('Twin'), { slugBase: 'twin' }));
    const laterFile = path.join(dir, 'posts', `${later.id}.json`);
    writeFileSync(laterFile, readFileSync(laterFile, 'utf8').replace('"twin-2"', '"twin"'));
    const logs: string[] = [];
    const reopened = await openFileStore(dir, { log: (line) => logs.push(line) });
    expect((await reopened.posts.getBySlug('twin'))?.id).toBe(older.id);
    expect(logs).toEqual([expect.stringContaining(`slug "twin" is also used by the older post`)]);
    expect((await reopened.quarantined()).map((entry) => entry.originalFile)).toEqual([laterFile]);
  });

  it('refuses a damaged blog.json and leaves it untouched', async () => {
    const dir = tempDir();
    await openFileStore(dir);
    const file = path.join(dir, 'blog.json');
    for (const damaged of ['{ not json', '', '{"format":"something-else","version":1}', '[]']) {
      writeFileSync(file, damaged);
      const error = await openFileStore(dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).problem).toBe('corrupt');
      expect((error as StoreError).message).toContain(`The data file ${file} is damaged`);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
    }
  });

  it('starts from the index snapshot a close left, and reads every file once posts/ changed', async () => {
    const dir = tempDir();
    const store = await openFileStore(dir);
    const post = created(await store.posts.create(newPost('Snap'), { slugBase: 'snap' }));
    await store.close();
    expect(existsSync(path.join(dir, 'posts-index.json'))).toBe(true);
    // Edited in place, posts/ itself untouched: the snapshot still vouches for it, so it is what is served.
    const file = path.join(dir, 'posts', `${post.id}.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "Snap"', '"title": "Edited"'));
    const fromSnapshot = await openFileStore(dir);
    expect((await fromSnapshot.posts.list({ status: 'published' })).entries.map((entry) => entry.title)).toEqual(['Snap']);
    // A create and then a crash (no close): posts/ changed, so the next start reads every file.
    created(await fromSnapshot.posts.create(newPost('After'), { slugBase: 'after' }));
    const afterCrash = await openFileStore(dir);
    expect((await afterCrash.posts.list({ status: 'published' })).entries.map((entry) => entry.title)).toEqual(['After', 'Edited']);
    // A damaged snapshot is ignored, never fatal.
    await afterCrash.close();
    writeFileSync(path.join(dir, 'posts-index.json'), '{ torn');
    expect((await (await openFileStore(dir)).posts.counts()).published).toBe(2);
  });

  it('creates a nested data directory and says so once', async () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const first = await openFileStore(dir);
    expect(first.created).toBe(true);
    expect(existsSync(path.join(dir, 'blog.json'))).toBe(true);
    expect((await openFileStore(dir)).created).toBe(false);
  });
});

describe('the key file beside another process', () => {
  it('sees what the CLI changed, and neither loses the other’s change', async () => {
    const dir = tempDir();
    const server = await openFileStore(dir);
    const cli = await openKeyStore(dir, { create: false });
    await cli?.add(keyRecord('AAAAAAAAAA'));
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ name: 'key AAAAAAAAAA' });
    await Promise.all([server.keys.update('AAAAAAAAAA', { lastUsedAt: 'now' }), cli?.update('AAAAAAAAAA', { revokedAt: 'later' })]);
    expect(await server.keys.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: 'now', revokedAt: 'later' });
    expect(await cli?.findById('AAAAAAAAAA')).toMatchObject({ lastUsedAt: 'now', revokedAt: 'later' });
  });

  it('takes over a lock a killed process left behind', async () => {
    const dir = tempDir();
    const server = await openFileStore(dir);
    mkdirSync(path.join(dir, 'blog.json.lock'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path.join(dir, 'blog.json.lock'), old, old);
    await server.keys.add(keyRecord('AAAAAAAAAA'));
    expect(await server.keys.list()).toHaveLength(1);
  });

  it('does not create a store just to list keys', async () => {
    const dir = path.join(tempDir(), 'absent');
    expect(await openKeyStore(dir, { create: false })).toBeNull();
    expect(existsSync(dir)).toBe(false);
  });
});

describe('checkDataDir (blogpost doctor)', () => {
  it('reports quarantined files, leftover temporary files and whether the directory is writable', async () => {
    const dir = tempDir();
    const store = await openFileStore(dir);
    const post = created(await store.posts.create(newPost('Doomed'), { slugBase: 'doomed' }));
    writeFileSync(path.join(dir, 'posts', `${post.id}.json`), '');
    await openFileStore(dir);
    writeFileSync(path.join(dir, 'posts', '.x.json.0123456789ab.tmp'), '');
    const check = await checkDataDir(dir);
    expect(check).toMatchObject({ exists: true, keyFile: { state: 'ok' }, postFiles: 0, notWritable: null });
    expect(check.leftoverTemps).toEqual([path.join(dir, 'posts', '.x.json.0123456789ab.tmp')]);
    expect(check.quarantined).toHaveLength(1);
    expect(restoreCommand(check.quarantined[0] ?? { file: '', originalFile: '', reason: '', movedAt: '' })).toBe(
      `mv '${path.join(dir, 'quarantine', 'posts', `${post.id}.json`)}' '${path.join(dir, 'posts', `${post.id}.json`)}'`,
    );
    expect(await checkDataDir(path.join(dir, 'absent'))).toMatchObject({ exists: false });
  });
});
