/** Batches of documents written on the writer thread (a real worker) and on the calling thread. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type BatchWriter, DocumentWriterThread, writeDocumentsHere } from './document-writer';

const dirs: string[] = [];
const threads: DocumentWriterThread[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-writer-'));
  dirs.push(dir);
  return dir;
}
function thread(options?: ConstructorParameters<typeof DocumentWriterThread>[0]): DocumentWriterThread {
  const writer = new DocumentWriterThread(options);
  threads.push(writer);
  return writer;
}
afterEach(async () => {
  await Promise.all(threads.splice(0).map((writer) => writer.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const writers: Array<[string, () => BatchWriter]> = [
  ['the writer thread', () => thread().write],
  ['the calling thread', () => writeDocumentsHere],
];

describe.each(writers)('writing a batch on %s', (_name, writer) => {
  it('writes every document as lowdb would, and leaves no temporary file', async () => {
    const dir = tempDir();
    const docs = [
      { file: path.join(dir, 'a.json'), data: { id: 'a', text: 'é "quoted" <p>' } },
      { file: path.join(dir, 'b.json'), data: { id: 'b', list: [1, 2] } },
    ];
    expect(await writer()(docs)).toEqual([null, null]);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
    for (const { file, data } of docs) expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(data, null, 2));
  });

  it('fails a document that cannot be JSON, and writes the others', async () => {
    const dir = tempDir();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const failures = await writer()([
      { file: path.join(dir, 'cycle.json'), data: cycle },
      { file: path.join(dir, 'ok.json'), data: { ok: true } },
    ]);
    expect(failures[0]?.message).toMatch(/circular/i);
    expect(failures[1]).toBeNull();
    expect(readdirSync(dir)).toEqual(['ok.json']);
  });

  it('fails only the document that cannot be written', async () => {
    const dir = tempDir();
    const failures = await writer()([
      { file: path.join(dir, 'ok.json'), data: { ok: true } },
      { file: path.join(dir, 'missing', 'x.json'), data: { ok: false } },
      { file: path.join(dir, 'also-ok.json'), data: { ok: true } },
    ]);
    expect(failures[0]).toBeNull();
    expect(failures[1]).toBeInstanceOf(Error);
    expect(failures[1]?.message).toContain('ENOENT');
    expect(failures[2]).toBeNull();
  });
});

describe('DocumentWriterThread', () => {
  it('answers batches in the order they were sent', async () => {
    const dir = tempDir();
    const writer = thread();
    const batches = Array.from({ length: 20 }, (_, i) => writer.write([{ file: path.join(dir, `${i}.json`), data: { i } }]));
    expect(await Promise.all(batches)).toEqual(Array.from({ length: 20 }, () => [null]));
    expect(readdirSync(dir)).toHaveLength(20);
  });

  it('reports a thread that dies mid-batch by what reached the disk', async () => {
    const dir = tempDir();
    const script = path.join(dir, 'dies.mjs');
    // Writes the first document (as the real thread does: complete, under its name), then dies.
    writeFileSync(
      script,
      `import { parentPort } from 'node:worker_threads';
       import { writeFileSync } from 'node:fs';
       parentPort.on('message', ({ requests }) => { writeFileSync(requests[0].request[0][0], '{}'); process.exit(3); });`,
    );
    const writer = thread({ workerUrl: pathToFileURL(script) });
    const failures = await writer.write([
      { file: path.join(dir, 'first.json'), data: {} },
      { file: path.join(dir, 'second.json'), data: {} },
    ]);
    expect(failures[0]).toBeNull();
    expect(failures[1]?.message).toBe('the thread stopped (exit code 3)');
    expect(writer.running).toBe(false);
  });

  it('stops when idle and starts again for the next batch', async () => {
    const dir = tempDir();
    const writer = thread({ idleMs: 20 });
    expect(writer.running).toBe(false);
    await writer.write([{ file: path.join(dir, 'one.json'), data: 1 }]);
    expect(writer.running).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(writer.running).toBe(false);
    expect(await writer.write([{ file: path.join(dir, 'two.json'), data: 2 }])).toEqual([null]);
    expect(existsSync(path.join(dir, 'two.json'))).toBe(true);
  });
});
