/**
 * The staff area's spreadsheet of quote requests, `/admin/leads.csv`, on a server holding 100,000 leads
 * (each with two notifications) beside one holding 1,000: downloaded once by a signed-in staff member
 * while the bench samples the server process's open files (/proc/<pid>/fd) and resident memory. Budget
 * (issue 33): the export streams with constant open files (no more at 100,000 leads than at 1,000) and
 * under 100 MB of memory beyond what the server held before the request.
 */
import http from 'node:http';
import { readdirSync } from 'node:fs';
import { loginTokenOf, staffClient } from '../../tests/support/staff-client';
import { residentBytes, type Server, startServer, stop } from './processes';
import { type Budget, fmt, markdownTable, mb, type Section, seconds, verdict } from './report';
import { BENCH_STAFF } from './seed-rows';

const MAX_EXTRA_BYTES = 100 * 2 ** 20;
/** Open files the larger export may hold beyond the smaller one's (a socket opened or closed meanwhile). */
const FILE_SLACK = 2;
const SAMPLE_MS = 5;

export interface LeadExportInput {
  /** Seeded data directories (seed.ts `leads`), the smaller first. */
  seeds: ReadonlyArray<{ count: number; dir: string }>;
}

interface Download {
  status: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  filesBefore: number;
  peakFiles: number;
  rssBefore: number;
  peakRss: number;
}

const openFiles = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** Signs the seeded staff member in on `server`; the Cookie header of the session. */
async function signIn(server: Server): Promise<string> {
  const client = staffClient(server.url);
  const loginToken = await loginTokenOf(client);
  const res = await client.request('/admin/login', { form: { email: BENCH_STAFF.email, password: BENCH_STAFF.password, loginToken, next: '/admin' } });
  if (res.status !== 303) throw new Error(`signing in answered ${res.status}, not 303`);
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Downloads `/admin/leads.csv`, counting its bytes as they come (never holding them), while sampling the server. */
async function download(server: Server, cookie: string): Promise<Download> {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server has no pid');
  // Settled before the request: what the server holds idle.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const filesBefore = openFiles(pid);
  const rssBefore = residentBytes(pid);
  let peakFiles = filesBefore;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakFiles = Math.max(peakFiles, openFiles(pid));
    peakRss = Math.max(peakRss, residentBytes(pid));
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    return await new Promise<Download>((resolve, reject) => {
      const request = http.get(`${server.url}/admin/leads.csv`, { headers: { cookie } }, (response) => {
        const firstByteMs = performance.now() - started;
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, firstByteMs, totalMs: performance.now() - started, filesBefore, peakFiles, rssBefore, peakRss }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  } finally {
    clearInterval(sampler);
  }
}

export async function benchLeadExport({ seeds }: LeadExportInput): Promise<Section> {
  const measured: Array<{ count: number; result: Download }> = [];
  for (const { count, dir } of seeds) {
    const server = await startServer('site', dir);
    try {
      const cookie = await signIn(server);
      const result = await download(server, cookie);
      if (result.status !== 200) throw new Error(`/admin/leads.csv with ${fmt(count)} leads answered ${result.status}`);
      measured.push({ count, result });
    } finally {
      await stop(server.child);
    }
  }
  const smallest = measured[0];
  const largest = measured.at(-1);
  if (!smallest || !largest) throw new Error('no lead export measured');
  const extra = (d: Download) => d.peakRss - d.rssBefore;
  const filesAdded = (d: Download) => d.peakFiles - d.filesBefore;
  const constantFiles = filesAdded(largest.result) <= filesAdded(smallest.result) + FILE_SLACK;
  const ok = constantFiles && extra(largest.result) < MAX_EXTRA_BYTES;
  const budget: Budget = {
    name: `/admin/leads.csv with ${fmt(largest.count)} leads streams with constant open files and under ${mb(MAX_EXTRA_BYTES)} of extra memory`,
    ok,
    detail: `${fmt(filesAdded(largest.result))} open file(s) added (${fmt(filesAdded(smallest.result))} at ${fmt(smallest.count)} leads), ${mb(extra(largest.result))} extra, ${seconds(largest.result.totalMs)}`,
  };
  return {
    heading: `Lead export (/admin/leads.csv, up to ${fmt(largest.count)} leads)`,
    table: markdownTable(
      ['leads', 'CSV size', 'first byte', 'last byte', 'open files before', 'open files at most', 'RSS before', 'RSS at most', 'extra memory', 'budget', 'result'],
      measured.map(({ count, result }) => [
        fmt(count),
        mb(result.bytes),
        seconds(result.firstByteMs),
        seconds(result.totalMs),
        fmt(result.filesBefore),
        fmt(result.peakFiles),
        mb(result.rssBefore),
        mb(result.peakRss),
        mb(extra(result)),
        count === largest.count ? `files as at ${fmt(smallest.count)} (+${FILE_SLACK}), < ${mb(MAX_EXTRA_BYTES)} extra` : '-',
        count === largest.count ? verdict(ok) : '-',
      ]),
    ),
    budgets: [budget],
    notes: [
      `Each size on a server of its own (servers.ts \`site\`, the production build) over a data directory seeded straight into its database (seed-rows.ts: each lead with an e-mail and a webhook notification, rows as the repository writes them) and one staff account, signed in through /admin/login; one download, read as it arrives and counted, never kept by the bench.`,
      `Open files: the entries of /proc/<pid>/fd of the server process; memory: its VmRSS. Both sampled every ${SAMPLE_MS} ms from just before the request to its last byte; "before" is the idle server after sign-in.`,
    ],
  };
}
