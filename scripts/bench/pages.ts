/**
 * Pages: `GET /`, `/faq` and a blog post from our server against a bare static server sending the same
 * bytes (the brotli body our server sent, precompressed on disk) with the same headers (Cache-Control,
 * ETag, content type, security headers). Budget: each at least 50% of its baseline's requests/s.
 * Beside it, the bytes of the status line and headers of each kind of cached page (issue 39: under 1.2 KB).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BLOG_CATEGORIES } from '../../contract/categories';
import { decoded, getOk, getRaw, keptAnswer, type RawResponse } from './http';
import { clean, load, type Measure } from './load';
import { copyDataDir, startServer, stop } from './processes';
import { type Budget, fmt, kb, markdownTable, measureCells, percent, type Section, verdict } from './report';

const CONNECTIONS = 10;
const WARM_UP_SECONDS = 1;
const MIN_RATIO = 0.5;
/** Issue 39's budget for the headers of a page's answer, status line included. */
const MOST_HEADER_BYTES = 1_200;
/** Headers that describe one connection or one transfer, not the page: the static server sets its own. */
const TRANSFER_HEADERS = new Set(['content-length', 'content-encoding', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'last-modified']);

export interface PagesInput {
  /** A seeded data directory (copied, never changed). */
  seedDir: string;
  workDir: string;
  seconds: number;
  postSlug: string;
}

/** Writes what the static baseline serves: the page, its brotli bytes as received, and its headers. */
export function writeBaselineFiles(dir: string, response: RawResponse): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'page.html'), decoded(response));
  writeFileSync(path.join(dir, 'page.html.br'), response.body);
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name, value]) => !TRANSFER_HEADERS.has(name) && typeof value === 'string'));
  writeFileSync(path.join(dir, 'headers.json'), JSON.stringify(headers));
}

/** The baseline must answer with the very bytes and cache headers ours did. */
export function checkSame(ours: RawResponse, baseline: RawResponse, page: string): void {
  const same =
    baseline.body.equals(ours.body) &&
    baseline.headers['content-encoding'] === ours.headers['content-encoding'] &&
    baseline.headers['cache-control'] === ours.headers['cache-control'] &&
    baseline.headers.etag === ours.headers.etag;
  if (!same) throw new Error(`the static baseline of ${page} does not send the bytes and cache headers our server sent`);
}

export async function benchPages({ seedDir, workDir, seconds, postSlug }: PagesInput): Promise<Section> {
  const dataDir = path.join(workDir, 'pages-data');
  copyDataDir(seedDir, dataDir);
  const site = await startServer('site', dataDir);
  const rows: string[][] = [];
  const budgets: Budget[] = [];
  const notes: string[] = [];
  try {
    for (const [label, page] of [
      ['GET /', '/'],
      ['GET /faq', '/faq'],
      ['GET /blog/:slug', `/blog/${postSlug}`],
    ] as const) {
      // The bytes the cache keeps and sends from the second request on (a miss goes out compressed quickly: 0041).
      const ours = await keptAnswer(`${site.url}${page}`);
      if (ours.headers['content-encoding'] !== 'br') throw new Error(`${page} did not come brotli-compressed (content-encoding ${ours.headers['content-encoding'] ?? 'none'})`);
      const dir = path.join(workDir, `page${page.replace(/\W+/g, '-')}`);
      writeBaselineFiles(dir, ours);
      const baseline = await startServer('static', dir);
      let measured: { ours: Measure; baseline: Measure };
      try {
        checkSame(ours, await getRaw(`${baseline.url}/`), page);
        await load(`${site.url}${page}`, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
        await load(`${baseline.url}/`, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
        measured = {
          ours: await load(`${site.url}${page}`, { seconds, connections: CONNECTIONS }),
          baseline: await load(`${baseline.url}/`, { seconds, connections: CONNECTIONS }),
        };
      } finally {
        await stop(baseline.child);
      }
      const ratio = measured.ours.rps / measured.baseline.rps;
      const ok = ratio >= MIN_RATIO && clean(measured.ours);
      const size = `${kb(ours.body.length)} br (${kb(decoded(ours).length)} HTML)`;
      rows.push([label, size, ...measureCells(measured.ours), ...measureCells(measured.baseline), percent(ratio), `>= ${percent(MIN_RATIO)}`, verdict(ok)]);
      budgets.push({ name: `${label} at least 50% of a static server sending the same bytes`, ok, detail: `${percent(ratio)}${clean(measured.ours) ? '' : `, ${measured.ours.non2xx} non-2xx, ${measured.ours.errors} errors`}` });
      if (label === 'GET /blog/:slug') notes.push(`The blog post measured: \`${page}\`.`);
      notes.push(`${label}: our headers, copied to the baseline: Cache-Control \`${ours.headers['cache-control'] ?? '-'}\`, ETag \`${ours.headers.etag ?? '-'}\`, Vary \`${ours.headers.vary ?? '-'}\`.`);
    }
    const headerRows: string[][] = [];
    for (const page of ['/', '/blog', `/blog/${postSlug}`, `/blog/category/${BLOG_CATEGORIES[0].slug}`, '/rss.xml']) {
      const { headerBytes } = await getOk(`${site.url}${page}`);
      const ok = headerBytes < MOST_HEADER_BYTES;
      headerRows.push([`GET ${page}`, fmt(headerBytes)]);
      budgets.push({ name: `GET ${page}: status line and headers under ${fmt(MOST_HEADER_BYTES)} bytes`, ok, detail: `${fmt(headerBytes)} bytes` });
    }
    notes.push(
      `Header bytes (status line and headers as received over HTTP/1.1, Date, Connection and Keep-Alive included; a TLS proxy in front sends its own): ${headerRows.map(([page, bytes]) => `${page} ${bytes}`).join(', ')}.`,
    );
  } finally {
    await stop(site.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    heading: 'Pages (1,000 posts stored)',
    table: markdownTable(
      ['page', 'size over the wire', 'ours req/s', 'ours p50 ms', 'ours p99 ms', 'baseline req/s', 'baseline p50 ms', 'baseline p99 ms', 'ratio', 'budget', 'result'],
      rows,
    ),
    budgets,
    notes: [`autocannon, ${fmt(CONNECTIONS)} connections, ${seconds} s each after ${WARM_UP_SECONDS} s of warm-up, \`Accept-Encoding: br, gzip\`.`, ...notes],
  };
}
