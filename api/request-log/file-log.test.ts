/**
 * The embedded request log on real files: entries written by one day's file and read back with filters,
 * files past the retention deleted at open, and a log that cannot be written reported once without
 * throwing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openFileRequestLogReader } from './file-reader';
import { openFileRequestLog } from './file-writer';
import { parseEntry, type RequestLogEntry } from './request-log';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iul-request-log-'));
  dirs.push(dir);
  return dir;
}

function entry(overrides: Partial<RequestLogEntry>): RequestLogEntry {
  return {
    time: '2026-05-10T12:00:00.000Z',
    requestId: 'req_1',
    method: 'POST',
    path: '/api/blog',
    status: 201,
    code: null,
    durationMs: 3.2,
    keyId: 'Ab12Cd34Ef',
    client: 'curl',
    userAgent: 'curl/8.5.0',
    ip: '127.0.0.1',
    bodyBytes: 120,
    ...overrides,
  };
}

describe('the file request log', () => {
  it('writes one file a UTC day and reads entries back with filters, oldest first', async () => {
    const dir = tempDir();
    const log = await openFileRequestLog(dir, { retentionDays: 14, onError: () => undefined, now: () => new Date('2026-05-11T00:00:00Z') });
    log.write(entry({ requestId: 'req_a', time: '2026-05-10T23:59:59.000Z', status: 401, code: 'invalid_api_key' }));
    log.write(entry({ requestId: 'req_b', time: '2026-05-11T00:00:01.000Z', client: 'python' }));
    log.write(entry({ requestId: 'req_c', time: '2026-05-11T00:00:02.000Z', status: 403, code: 'insufficient_permissions', keyId: 'Zz99Yy88Xx' }));
    await log.close();
    expect(readdirSync(path.join(dir, 'logs')).sort()).toEqual(['requests-2026-05-10.jsonl', 'requests-2026-05-11.jsonl']);
    const reader = openFileRequestLogReader(dir);
    const ids = async (query: Parameters<typeof reader.find>[0]) => (await reader.find(query)).map((found) => found.requestId);
    expect(await ids({})).toEqual(['req_a', 'req_b', 'req_c']);
    expect(await ids({ status: { kind: 'class', hundreds: 4 } })).toEqual(['req_a', 'req_c']);
    expect(await ids({ status: { kind: 'exact', statuses: [403] } })).toEqual(['req_c']);
    expect(await ids({ keyId: 'Ab12Cd34Ef', code: 'invalid_api_key' })).toEqual(['req_a']);
    expect(await ids({ client: 'python' })).toEqual(['req_b']);
    expect(await ids({ since: new Date('2026-05-11T00:00:00Z') })).toEqual(['req_b', 'req_c']);
    expect(await ids({ limit: 1 })).toEqual(['req_c']);
    expect(await reader.extent()).toEqual({ location: path.join(dir, 'logs'), oldest: '2026-05-10T23:59:59.000Z', newest: '2026-05-11T00:00:02.000Z' });
  });

  it('deletes files older than the retention when it opens', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'logs'));
    for (const day of ['2026-04-01', '2026-04-27', '2026-04-28', '2026-05-10']) writeFileSync(path.join(dir, 'logs', `requests-${day}.jsonl`), '');
    writeFileSync(path.join(dir, 'logs', 'notes.txt'), 'kept');
    const log = await openFileRequestLog(dir, { retentionDays: 14, onError: () => undefined, now: () => new Date('2026-05-11T08:00:00Z') });
    await log.close();
    expect(readdirSync(path.join(dir, 'logs')).sort()).toEqual(['notes.txt', 'requests-2026-04-28.jsonl', 'requests-2026-05-10.jsonl']);
  });

  it('reports a log it cannot write once (and the failed sweep once), and never throws', async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'logs'), 'a file where the folder should be');
    const onError = vi.fn();
    const log = await openFileRequestLog(dir, { retentionDays: 14, onError });
    expect(() => {
      log.write(entry({ requestId: 'req_x' }));
      log.write(entry({ requestId: 'req_y' }));
    }).not.toThrow();
    const messages = () => onError.mock.calls.map((call) => String(call[0]));
    await vi.waitFor(() => expect(messages().some((message) => message.includes('requests are answered as usual'))).toBe(true));
    await log.close();
    expect(messages().filter((message) => message.includes('requests are answered as usual'))).toHaveLength(1);
    expect(messages().filter((message) => message.includes('could not be deleted'))).toHaveLength(1);
    expect(existsSync(path.join(dir, 'logs', 'requests-2026-05-10.jsonl'))).toBe(false);
  });

  it('lets the process exit cleanly when its log could not be opened and was never closed', () => {
    // pino flushes its destinations synchronously at exit; one whose file never opened used to throw
    // "sonic boom is not ready yet" then, failing the exit of whatever process held it.
    const dir = tempDir();
    writeFileSync(path.join(dir, 'logs'), 'a file where the folder should be');
    const script = path.join(dir, 'exit.mts');
    writeFileSync(
      script,
      `import { openFileRequestLog } from ${JSON.stringify(path.join(__dirname, 'file-writer.ts'))};
const log = await openFileRequestLog(${JSON.stringify(dir)}, { retentionDays: 14, onError: () => undefined });
log.write(${JSON.stringify(entry({ requestId: 'req_exit' }))});
setTimeout(() => process.exit(0), 50);
`,
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.stderr).not.toContain('not ready');
    expect(run.status).toBe(0);
  });
});

describe('an entry’s facts', () => {
  it('are kept as written, and an entry whose facts cannot be read keeps the rest', () => {
    const base = entry({ requestId: 'req_facts', status: 429, code: 'rate_limited' });
    const facts = { rateLimit: { name: 'writes', perWindow: 60, windowSeconds: 60, retryAfterSeconds: 2 } };
    expect(parseEntry(JSON.stringify({ ...base, facts }))).toEqual({ ...base, facts });
    expect(parseEntry(JSON.stringify({ ...base, facts: { limitBytes: 'a lot' } }))).toEqual(base);
  });
});
