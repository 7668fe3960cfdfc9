/**
 * Reads on a server holding 1,000,000 posts (issue 33; BENCH_LARGE_POSTS): the blog list, a deep page
 * of it, a category page, the RSS feed and the API list, each under load (budget: p99 under 50 ms); and
 * the sitemap, fetched one at a time and reported without a budget (an index over numbered files once
 * the site passes 50,000 URLs).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { BLOG_PAGE_SIZE } from '../../web/routes/blog/paging';
import { decoded, getOk } from './http';
import { clean, load, median } from './load';
import { copyDataDir, startServer, stop } from './processes';
import { type Budget, fmt, kb, markdownTable, type Section, verdict } from './report';

export const CONNECTIONS = 10;
export const WARM_UP_SECONDS = 1;
const MAX_P99_MS = 50;
const SITEMAP_FETCHES = 3;

export interface ReadsInput {
  seedDir: string;
  seedCount: number;
  workDir: string;
  seconds: number;
  categorySlug: string;
}

/**
 * The pages measured under load, as [label, path]: the blog list, its middle page (`total` published
 * posts), a category page, the RSS feed and a page of the API list.
 */
export function readTargets(total: number, categorySlug: string): Array<[string, string]> {
  const deepPage = Math.max(1, Math.floor(Math.ceil(total / BLOG_PAGE_SIZE) / 2));
  return [
    ['/blog', '/blog'],
    [`/blog?page=${deepPage} (deep page)`, `/blog?page=${deepPage}`],
    [`/blog/category/${categorySlug}`, `/blog/category/${categorySlug}`],
    ['/rss.xml', '/rss.xml'],
    ['/api/blog?limit=100&page=50', '/api/blog?limit=100&page=50'],
  ];
}

/** The median time of fetching `url` one request at a time, with what it answered. */
async function timeFetch(url: string): Promise<{ ms: number; wire: number; text: string }> {
  const times: number[] = [];
  let last = await getOk(url);
  for (let i = 0; i < SITEMAP_FETCHES; i++) {
    last = await getOk(url);
    times.push(last.ms);
  }
  return { ms: median(times), wire: last.body.length, text: decoded(last).toString('utf8') };
}

function countOf(text: string, tag: string): number {
  return text.split(`<${tag}>`).length - 1;
}

export async function benchReads({ seedDir, seedCount, workDir, seconds, categorySlug }: ReadsInput): Promise<Section> {
  const dataDir = path.join(workDir, 'reads-data');
  copyDataDir(seedDir, dataDir);
  const site = await startServer('site', dataDir);
  const rows: string[][] = [];
  const budgets: Budget[] = [];
  const notes: string[] = [];
  try {
    const { total } = JSON.parse(decoded(await getOk(`${site.url}/api/blog?limit=1`)).toString('utf8')) as { total: number };
    for (const [label, target] of readTargets(total, categorySlug)) {
      const url = `${site.url}${target}`;
      const once = await getOk(url);
      await load(url, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
      const measure = await load(url, { seconds, connections: CONNECTIONS });
      const ok = measure.p99 < MAX_P99_MS && clean(measure);
      rows.push([label, kb(once.body.length), fmt(measure.rps), fmt(measure.p50, 1), fmt(measure.p99, 1), `p99 < ${MAX_P99_MS} ms`, verdict(ok)]);
      budgets.push({
        name: `GET ${label} at ${fmt(seedCount)} posts, p99 under ${MAX_P99_MS} ms`,
        ok,
        detail: `p99 ${fmt(measure.p99, 1)} ms, ${fmt(measure.rps)} req/s${clean(measure) ? '' : `, ${measure.non2xx} non-2xx, ${measure.errors} errors`}`,
      });
    }
    notes.push(`${fmt(total)} of the posts are published (the rest are drafts); the blog list has ${fmt(BLOG_PAGE_SIZE)} posts a page, so the deep page is the middle one of ${fmt(Math.ceil(total / BLOG_PAGE_SIZE))}.`);

    const sitemap = await timeFetch(`${site.url}/sitemap.xml`);
    const files = countOf(sitemap.text, 'sitemap');
    const sitemapRow = (label: string, fetched: { ms: number; wire: number; text: string }, what: string) =>
      rows.push([label, `${kb(fetched.wire)} (${kb(Buffer.byteLength(fetched.text))} XML, ${what})`, '-', fmt(fetched.ms, 1), '-', 'none (reported)', '-']);
    if (files > 0) {
      sitemapRow('/sitemap.xml', sitemap, `an index of ${files} files`);
      const first = await timeFetch(`${site.url}/sitemaps/1.xml`);
      sitemapRow('/sitemaps/1.xml', first, `${fmt(countOf(first.text, 'url'))} URLs`);
      const last = await timeFetch(`${site.url}/sitemaps/${files}.xml`);
      sitemapRow(`/sitemaps/${files}.xml`, last, `${fmt(countOf(last.text, 'url'))} URLs`);
    } else {
      sitemapRow('/sitemap.xml', sitemap, `${fmt(countOf(sitemap.text, 'url'))} URLs in one file`);
    }
    notes.push(`Sitemap rows: one request at a time, the median of ${SITEMAP_FETCHES} after one unmeasured fetch; the p50 column holds that time.`);
  } finally {
    await stop(site.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    heading: `Reads (${fmt(seedCount)} posts stored)`,
    table: markdownTable(['request', 'size over the wire', 'req/s', 'p50 ms', 'p99 ms', 'budget', 'result'], rows),
    budgets,
    notes: [`autocannon, ${CONNECTIONS} connections, ${seconds} s each after ${WARM_UP_SECONDS} s of warm-up, \`Accept-Encoding: br, gzip\`.`, ...notes],
  };
}
