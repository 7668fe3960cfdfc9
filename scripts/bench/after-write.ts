/**
 * Cached pages after one write (decision 0031): the site's post pages, all in the answer cache, asked
 * for again right after one post changes. Once after an edit through the API, whose change the server
 * knows (only the edited post's page and the lists showing it are rendered again), and once after a
 * change of the same post made by another process on the same SQLite file (what `blogpost` run
 * locally does), whose scopes the server cannot know: every page is rendered again, as every write did
 * before. Rounds alternate the two; the ratio is the edit's time over the other's, in the same minutes.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { decoded, getOk, getRaw } from './http';
import { copyDataDir, startServer, stop } from './processes';
import { fmt, markdownTable, percent, type Section } from './report';
import { openBenchStore } from './stores';

export interface AfterWriteInput {
  /** A seeded data directory (copied, never changed). */
  seedDir: string;
  workDir: string;
  rounds: number;
}

/** The most post pages asked for in a round. */
const PAGES = 300;
/** After an edit that none of them shows, the pages cost at most this share of rendering them all again. */
const MOST_RATIO = 0.1;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Asks for every page once, one after another; the time of all of them. */
async function visitAll(url: string, pages: readonly string[]): Promise<number> {
  let ms = 0;
  for (const page of pages) {
    const response = await getRaw(`${url}${page}`);
    if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
    ms += response.ms;
  }
  return ms;
}

export async function benchAfterWrite({ seedDir, workDir, rounds }: AfterWriteInput): Promise<Section> {
  const dataDir = path.join(workDir, 'after-write-data');
  copyDataDir(seedDir, dataDir);
  const site = await startServer('site', dataDir);
  const other = await openBenchStore(dataDir);
  try {
    const sitemap = decoded(await getOk(`${site.url}/sitemap.xml`)).toString('utf8');
    const pages = [...sitemap.matchAll(/<loc>[^<]*?(\/blog\/[^/<]+)<\/loc>/g)].map((match) => match[1] ?? '').filter((page) => page !== '/blog').slice(0, PAGES);
    if (pages.length < 50) throw new Error(`the sitemap listed ${pages.length} post pages: the seed should have made more`);
    // The post both writers change: one of the site's own, made through the API.
    const created = await fetch(`${site.url}/api/blog`, {
      method: 'POST',
      headers: { authorization: `Bearer ${site.key ?? ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Changed by the bench', content: '<p>A post the bench edits.</p>', excerpt: 'Edited once a round.', category: 'Tax Benefits', author: { name: 'Bench' }, status: 'published' }),
    });
    if (created.status !== 201) throw new Error(`creating the post to edit answered ${created.status}: ${await created.text()}`);
    const { post } = (await created.json()) as { post: { id: string; etag: string } };
    let etag = post.etag;
    const known: number[] = [];
    const unknown: number[] = [];
    const cached: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      await visitAll(site.url, pages);
      cached.push(await visitAll(site.url, pages));
      const edited = await fetch(`${site.url}/api/blog/${post.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${site.key ?? ''}`, 'content-type': 'application/json', 'if-match': etag },
        body: JSON.stringify({ title: `Changed by the bench, round ${round}` }),
      });
      if (edited.status !== 200) throw new Error(`the edit answered ${edited.status}: ${await edited.text()}`);
      etag = ((await edited.json()) as { etag: string }).etag;
      known.push(await visitAll(site.url, pages));

      await visitAll(site.url, pages);
      const record = await other.posts.getById(post.id);
      if (!record) throw new Error('the edited post is gone');
      const saved = await other.posts.save({ ...record, excerpt: `Edited by another process, round ${round}.`, updatedAt: new Date().toISOString() }, { expectedRevision: record.revision, changed: ['excerpt'] });
      if (saved.kind !== 'saved') throw new Error(`the other process's change was not saved (${saved.kind})`);
      unknown.push(await visitAll(site.url, pages));
      const current = await fetch(`${site.url}/api/blog/${post.id}`, { headers: { authorization: `Bearer ${site.key ?? ''}` } });
      if (current.status !== 200 || !current.headers.get('etag')) throw new Error(`reading the edited post answered ${current.status}`);
      etag = current.headers.get('etag') ?? etag;
    }
    const ratio = median(known) / median(unknown);
    return {
      heading: `Cached pages after one write (${fmt(pages.length)} post pages, 1,000 posts stored)`,
      table: markdownTable(
        ['the post pages asked for again', 'median of all of them', 'per page', 'ratio to every page rendered again'],
        [
          ['nothing changed (all cached)', `${fmt(median(cached))} ms`, `${fmt(median(cached) / pages.length, 2)} ms`, percent(median(cached) / median(unknown))],
          ['after an edit through the API (its scopes known)', `${fmt(median(known))} ms`, `${fmt(median(known) / pages.length, 2)} ms`, percent(ratio)],
          ['after a change by another process (every page rendered again)', `${fmt(median(unknown))} ms`, `${fmt(median(unknown) / pages.length, 2)} ms`, '100.0%'],
        ],
      ),
      budgets: [{ name: `after an edit of a post none of them shows, the ${fmt(pages.length)} cached post pages take at most ${percent(MOST_RATIO)} of the time of rendering them all again`, ok: ratio <= MOST_RATIO, detail: percent(ratio) }],
      notes: [`${fmt(rounds)} rounds, each asking for the same ${fmt(pages.length)} post pages one after another (\`Accept-Encoding: br, gzip\`), all cached before each write; the edited post is not among them.`],
    };
  } finally {
    await other.close();
    await stop(site.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
