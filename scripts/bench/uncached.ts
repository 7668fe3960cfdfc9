/**
 * Uncached post pages (issue 39): every request asks for a post page the answer cache does not hold.
 * The server's post pages are asked for in turn, one after another across all connections (a counter
 * shared by autocannon's connections), over more pages than the cache keeps (MAX_ENTRIES), so each
 * page has left the cache before it is asked for again and every answer is a render (React, the store's
 * reads, compression). Against the static baseline of the pages group: a bare server sending one post
 * page's brotli bytes from disk with the same headers. Budget: at least 5% of its requests/s, p99 under
 * 100 ms, with 10 connections.
 */
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import type autocannon from 'autocannon';
import path from 'node:path';
import { MAX_ENTRIES } from '../../api/answer-cache';
import { decoded, getOk, getRaw, keptAnswer } from './http';
import { clean, load } from './load';
import { checkSame, writeBaselineFiles } from './pages';
import { copyDataDir, startServer, stop } from './processes';
import { fmt, markdownTable, measureCells, percent, type Section, verdict } from './report';

const CONNECTIONS = 10;
const MIN_RATIO = 0.05;
const MOST_P99_MS = 100;
const WARM_UP_SECONDS = 1;

/** CPU time (user and system) a process has used, in ms, from Linux's /proc; undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks.
    const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, the unit of /proc's times (100 on every architecture Node runs on there). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface UncachedInput {
  /** A seeded data directory (copied, never changed). */
  seedDir: string;
  seedCount: number;
  workDir: string;
  seconds: number;
}

export async function benchUncached({ seedDir, seedCount, workDir, seconds }: UncachedInput): Promise<Section> {
  const dataDir = path.join(workDir, 'uncached-data');
  copyDataDir(seedDir, dataDir);
  const site = await startServer('site', dataDir);
  try {
    const sitemap = decoded(await getOk(`${site.url}/sitemap.xml`)).toString('utf8');
    const pages = [...sitemap.matchAll(/<loc>[^<]*?(\/blog\/[^/<]+)<\/loc>/g)].map((match) => match[1] ?? '').filter((page) => page !== '/blog');
    if (pages.length <= MAX_ENTRIES * 1.5) throw new Error(`the sitemap listed ${pages.length} post pages: more than ${MAX_ENTRIES * 1.5} are needed so that none is still cached when asked for again`);
    const first = pages[0] ?? '';
    const ours = await keptAnswer(`${site.url}${first}`);
    const dir = path.join(workDir, 'uncached-baseline');
    writeBaselineFiles(dir, ours);
    const baseline = await startServer('static', dir);
    let next = 1; // the first page was asked for above
    const requests: autocannon.Request[] = [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pages[next++ % pages.length] ?? first }) }];
    try {
      checkSame(ours, await getRaw(`${baseline.url}/`), first);
      // Both warmed up for a second, as the pages group does: ours on the next pages in turn (each a miss too).
      await load(site.url, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS, requests });
      await load(`${baseline.url}/`, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
      const warmedUp = next - 1;
      const cpuBefore = cpuMs(site.child.pid);
      const measuredOurs = await load(site.url, { seconds, connections: CONNECTIONS, requests });
      const cpuAfter = cpuMs(site.child.pid);
      const measuredBaseline = await load(`${baseline.url}/`, { seconds, connections: CONNECTIONS });
      const asked = next - 1 - warmedUp;
      // What a render costs our server, whatever else the machine runs (the rates move with its load).
      const cpuPerPage = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / Math.max(1, measuredOurs.rps * seconds);
      const ratio = measuredOurs.rps / measuredBaseline.rps;
      const ok = ratio >= MIN_RATIO && measuredOurs.p99 < MOST_P99_MS && clean(measuredOurs);
      return {
        heading: `Uncached post pages (${fmt(seedCount)} posts stored)`,
        table: markdownTable(
          ['page', 'ours req/s', 'ours p50 ms', 'ours p99 ms', 'baseline req/s', 'baseline p50 ms', 'baseline p99 ms', 'ratio', 'budget', 'result'],
          [['GET /blog/:slug, a different post each time', ...measureCells(measuredOurs), ...measureCells(measuredBaseline), percent(ratio), `>= ${percent(MIN_RATIO)}, p99 < ${MOST_P99_MS} ms`, verdict(ok)]],
        ),
        budgets: [
          {
            name: `uncached post pages at least ${percent(MIN_RATIO)} of a static server sending one of them, p99 under ${MOST_P99_MS} ms`,
            ok,
            detail: `${percent(ratio)}, p99 ${fmt(measuredOurs.p99)} ms${clean(measuredOurs) ? '' : `, ${measuredOurs.non2xx} non-2xx, ${measuredOurs.errors} errors`}`,
          },
        ],
        notes: [
          `autocannon, ${fmt(CONNECTIONS)} connections, ${seconds} s each after ${WARM_UP_SECONDS} s of warm-up (ours on ${fmt(warmedUp)} other post pages): ours was asked for ${fmt(asked)} post pages in turn from the ${fmt(pages.length)} the sitemap lists (${next - 1 <= pages.length ? 'each once' : `a page again only after ${fmt(pages.length - 1)} others, when the answer cache, which keeps at most ${fmt(MAX_ENTRIES)}, no longer holds it`}); the baseline sends the first of them (\`${first}\`, ${fmt(ours.body.length)} bytes of brotli) from disk with our headers. Load average ${fmt(os.loadavg()[0] ?? 0, 1)} on ${os.cpus().length} cores at the end.`,
          ...(cpuPerPage === undefined ? [] : [`Our server's CPU time (user and system) per page answered: ${fmt(cpuPerPage, 2)} ms.`]),
        ],
      };
    } finally {
      await stop(baseline.child);
    }
  } finally {
    await stop(site.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
