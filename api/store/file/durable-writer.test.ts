/**
 * The durable writer's promises as the store relies on them, on real files with one file-system call
 * made to fail where a test needs it: what a batch answers when a rename or the closing directory
 * fsync fails (and what is left on disk), that a failed open leaves nothing, that removing a missing
 * file is `false` but any other failure is an error, and which names are its temporary files.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableWriter, isTempFileName, nodeFileSystem, tempFileFor, type WriterFileSystem } from './durable-writer';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-durable-writer-'));
  dirs.push(dir);
  return dir;
}

const failure = (code: string) => Object.assign(new Error(`${code}: simulated`), { code });

/** Node's file system with some calls replaced. */
function fsWith(overrides: Partial<WriterFileSystem>): WriterFileSystem {
  return { ...nodeFileSystem, ...overrides };
}

describe('temporary file names', () => {
  it('are hidden, beside the target, unique, and recognised; other names are not', () => {
    const temp = tempFileFor('/data/posts/a.json');
    expect(path.dirname(temp)).toBe('/data/posts');
    expect(path.basename(temp)).toMatch(/^\.a\.json\.[0-9a-f]{12}\.tmp$/);
    expect(tempFileFor('/data/posts/a.json')).not.toBe(temp);
    expect(isTempFileName(path.basename(temp))).toBe(true);
    for (const name of ['a.json', 'notes.tmp', '.hidden', '.a.json.tmp.bak']) expect(isTempFileName(name), name).toBe(false);
  });
});

describe('DurableWriter.writeBatch', () => {
  it('answers an empty batch with no results', async () => {
    expect(await new DurableWriter().writeBatch([])).toEqual([]);
  });

  it('writes every file and leaves no temporary file', async () => {
    const dir = tempDir();
    const results = await new DurableWriter().writeBatch([
      { file: path.join(dir, 'a.json'), text: 'A' },
      { file: path.join(dir, 'b.bin'), text: new Uint8Array([1, 2]) },
    ]);
    expect(results).toEqual([null, null]);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.bin']);
    expect(readFileSync(path.join(dir, 'a.json'), 'utf8')).toBe('A');
  });

  it('fails only the file whose rename failed, keeping its old content and no temporary file', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'b.json'), 'old B');
    const writer = new DurableWriter(fsWith({ rename: (from, to) => (to.endsWith('b.json') ? Promise.reject(failure('EIO')) : nodeFileSystem.rename(from, to)) }));
    const results = await writer.writeBatch([
      { file: path.join(dir, 'a.json'), text: 'A' },
      { file: path.join(dir, 'b.json'), text: 'new B' },
    ]);
    expect(results[0]).toBeNull();
    expect(results[1]?.message).toBe('EIO: simulated');
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
    expect(readFileSync(path.join(dir, 'b.json'), 'utf8')).toBe('old B');
  });

  it('answers each file with its own error when every rename failed', async () => {
    const dir = tempDir();
    let dirOpened = false;
    const writer = new DurableWriter(
      fsWith({
        rename: () => Promise.reject(failure('EROFS')),
        open: (file, flags) => {
          if (flags === 'r') dirOpened = true;
          return nodeFileSystem.open(file, flags);
        },
      }),
    );
    const results = await writer.writeBatch([{ file: path.join(dir, 'a.json'), text: 'A' }]);
    expect(results.map((result) => result?.message)).toEqual(['EROFS: simulated']);
    expect(dirOpened).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fails every file and removes the written ones when the directory fsync fails, keeping an old file it did not replace', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'b.json'), 'old B');
    const writer = new DurableWriter(
      fsWith({
        open: (file, flags) => (flags === 'r' ? Promise.reject(failure('EIO')) : nodeFileSystem.open(file, flags)),
        rename: (from, to) => (to.endsWith('b.json') ? Promise.reject(failure('ENOSPC')) : nodeFileSystem.rename(from, to)),
      }),
    );
    const results = await writer.writeBatch([
      { file: path.join(dir, 'a.json'), text: 'A' },
      { file: path.join(dir, 'b.json'), text: 'B' },
    ]);
    expect(results.map((result) => result?.message)).toEqual(['EIO: simulated', 'EIO: simulated']);
    expect(readdirSync(dir)).toEqual(['b.json']);
    expect(readFileSync(path.join(dir, 'b.json'), 'utf8')).toBe('old B');
  });

  it('answers a file that could not even be opened with the error, leaving nothing', async () => {
    const dir = tempDir();
    const writer = new DurableWriter(fsWith({ open: (file, flags) => (flags === 'wx' ? Promise.reject(failure('EMFILE')) : nodeFileSystem.open(file, flags)) }));
    const results = await writer.writeBatch([{ file: path.join(dir, 'a.json'), text: 'A' }]);
    expect(results.map((result) => result?.message)).toEqual(['EMFILE: simulated']);
    expect(readdirSync(dir)).toEqual([]);
    await expect(writer.write(path.join(dir, 'a.json'), 'A')).rejects.toThrow('EMFILE: simulated');
  });

  it('turns a thrown non-error into an error', async () => {
    const dir = tempDir();
    const writer = new DurableWriter(fsWith({ rename: () => Promise.reject('plain text') as Promise<void> }));
    const [result] = await writer.writeBatch([{ file: path.join(dir, 'a.json'), text: 'A' }]);
    expect(result).toBeInstanceOf(Error);
    expect(result?.message).toBe('plain text');
  });
});

describe('DurableWriter on Windows', () => {
  it('writes and removes files without opening their directory, which Windows refuses', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    const platform = Object.getOwnPropertyDescriptor(process, 'platform');
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      const writer = new DurableWriter(
        fsWith({ open: (target, flags) => (flags === 'r' ? Promise.reject(failure('EISDIR')) : nodeFileSystem.open(target, flags)) }),
      );
      expect(await writer.writeBatch([{ file, text: 'A' }])).toEqual([null]);
      expect(readFileSync(file, 'utf8')).toBe('A');
      expect(await writer.remove(file)).toBe(true);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      if (platform) Object.defineProperty(process, 'platform', platform);
    }
  });
});

describe('DurableWriter.remove', () => {
  it('removes a file (true), answers false for a missing one, and rejects with any other failure', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.json');
    writeFileSync(file, 'A');
    const writer = new DurableWriter();
    expect(await writer.remove(file)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await writer.remove(file)).toBe(false);
    const denied = new DurableWriter(fsWith({ unlink: () => Promise.reject(failure('EACCES')) }));
    await expect(denied.remove(file)).rejects.toThrow('EACCES: simulated');
  });
});
