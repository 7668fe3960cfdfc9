/**
 * Writing files so that a crash or a power cut leaves either the old file or the new one, never a
 * torn or empty one: each file goes to a temporary file beside its target, which is fsynced and
 * renamed over the target, and then the directory is fsynced so the rename itself is on disk. A batch
 * of files in one directory shares that last fsync (group commit, docs/decisions/0001-durable-writes.md).
 *
 * The file-system calls come in through `WriterFileSystem`, so a test can record their order or make
 * one fail (ENOSPC) without a full disk.
 */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import path from 'node:path';

/** The part of an open file the writer uses (node's FileHandle has it). */
export interface WriterFileHandle {
  writeFile(data: string | Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** The file-system calls of a durable write (node:fs/promises by default). */
export interface WriterFileSystem {
  open(file: string, flags: string): Promise<WriterFileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
}

export const nodeFileSystem: WriterFileSystem = {
  open: (file, flags) => fsp.open(file, flags),
  rename: fsp.rename,
  unlink: fsp.unlink,
};

/** A file to write: its path and its whole content (text, or bytes for an image). */
export interface FileWrite {
  file: string;
  text: string | Uint8Array;
}

const TEMP_SUFFIX = '.tmp';

/** `.name.<random>.tmp` beside the target: hidden, never mistaken for a post, unique per write. */
export function tempFileFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

/** True for a name `tempFileFor` makes: what a crash between write and rename leaves behind. */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(TEMP_SUFFIX);
}

function asError(raw: unknown): Error {
  return raw instanceof Error ? raw : new Error(String(raw));
}

export class DurableWriter {
  readonly #fs: WriterFileSystem;

  constructor(fs: WriterFileSystem = nodeFileSystem) {
    this.#fs = fs;
  }

  /** Writes one file durably; rejects with the file system's error, leaving the old file (or none). */
  async write(file: string, text: string | Uint8Array): Promise<void> {
    const [failure] = await this.writeBatch([{ file, text }]);
    if (failure) throw failure;
  }

  /**
   * Writes every file of a batch (all in one directory) durably; resolves with one entry per file, in
   * order: null when it is on disk, else the error that stopped it. A failed file leaves no temporary
   * file and does not fail the others; when the closing directory fsync fails, no file of the batch
   * can be trusted to survive a crash, so every one is removed again and failed.
   */
  async writeBatch(writes: readonly FileWrite[]): Promise<Array<Error | null>> {
    const first = writes[0];
    if (!first) return [];
    const dir = path.dirname(first.file);
    // The temp files are written and fsynced concurrently: the disk sees all of them before the
    // first fsync returns, so the batch costs about one flush instead of one per file.
    const staged = await Promise.all(writes.map(({ file, text }) => this.#stage(file, text)));
    const results: Array<Error | null> = await Promise.all(
      writes.map(async ({ file }, i) => {
        const temp = staged[i];
        if (temp instanceof Error || temp === undefined) return temp ?? new Error('not staged');
        try {
          await this.#fs.rename(temp, file);
          return null;
        } catch (error) {
          await this.#fs.unlink(temp).catch(() => undefined);
          return asError(error);
        }
      }),
    );
    if (results.every((result) => result !== null)) return results;
    try {
      await this.#syncDirectory(dir);
    } catch (error) {
      const failure = asError(error);
      await Promise.all(writes.map(({ file }, i) => (results[i] === null ? this.#fs.unlink(file).catch(() => undefined) : undefined)));
      return writes.map(() => failure);
    }
    return results;
  }

  /** Removes a file for good: unlinked, and the directory fsynced so the removal survives a crash. False when there was none. */
  async remove(file: string): Promise<boolean> {
    try {
      await this.#fs.unlink(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    await this.#syncDirectory(path.dirname(file));
    return true;
  }

  /** Writes and fsyncs the temporary file of one target; its path, or the error (the temp removed). */
  async #stage(file: string, text: string | Uint8Array): Promise<string | Error> {
    const temp = tempFileFor(file);
    let handle: WriterFileHandle | undefined;
    try {
      handle = await this.#fs.open(temp, 'wx');
      await handle.writeFile(text);
      await handle.sync();
      await handle.close();
      return temp;
    } catch (error) {
      await handle?.close().catch(() => undefined);
      // `wx` failing leaves nothing, any later step a partial temp file: remove it either way.
      await this.#fs.unlink(temp).catch(() => undefined);
      return asError(error);
    }
  }

  async #syncDirectory(dir: string): Promise<void> {
    // Windows cannot open a directory for fsync, and its renames need no such step.
    if (process.platform === 'win32') return;
    const handle = await this.#fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}
