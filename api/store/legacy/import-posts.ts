/**
 * The posts of a file store data directory, into the store: planned first from every post file (order
 * and slugs, which the database holds unique where the file store only kept them apart in memory), then
 * restored one by one with their kept versions, each read back and compared. What the file store did at
 * start-up is done here too: of posts sharing a slug only the oldest is served (the others are named
 * and skipped), and a post from before keys had owners belongs to the owner of the key that created it.
 */
import path from 'node:path';
import { REVISIONS_KEPT } from '../../../contract/blog';
import { RESERVED_SLUGS } from '../../../contract/slug';
import type { KeyRecord } from '../records';
import { type DamagedFile, type LegacyPostEntry, readPost, readRevisions, scanPosts, strayRevisionFiles } from './file-store-reader';
import { ensureRecord, type ImportRun } from './import-run';

/** One post as it will be stored: its file, and what the plan decided of its order, slugs and owner. */
interface PlannedPost {
  file: string;
  id: string;
  seq: number;
  previousSlugs: string[];
  owner: string | null;
}

/** Every post will get this many lines of progress at most: a large store says how far it is. */
const PROGRESS_EVERY = 1000;

/** The posts to store, in creation order; those that cannot be go to `skipped`, changes to `adjusted`. */
export function planPosts(entries: readonly LegacyPostEntry[], keys: readonly KeyRecord[], skipped: DamagedFile[], adjusted: string[]): PlannedPost[] {
  const ordered = [...entries].sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1));
  const current = new Map<string, LegacyPostEntry>();
  const kept = ordered.filter((entry) => {
    const holder = current.get(entry.slug);
    if (RESERVED_SLUGS.has(entry.slug)) skipped.push({ file: entry.file, reason: `its slug "${entry.slug}" is one of the API's own paths` });
    else if (holder) skipped.push({ file: entry.file, reason: `its slug "${entry.slug}" is also used by the older post ${holder.file} (the file store served only that one)` });
    else {
      current.set(entry.slug, entry);
      return true;
    }
    return false;
  });
  const owners = new Map(keys.map((key) => [key.id, key.owner ?? key.name]));
  const seqs = new Set<number>();
  let lastSeq = Math.max(0, ...kept.map((entry) => entry.seq));
  const before = new Map<string, string>();
  return kept.map((entry) => {
    let seq = entry.seq;
    if (seqs.has(seq)) {
      seq = ++lastSeq;
      adjusted.push(`the post ${entry.file} had the order number ${entry.seq} of another post: it is number ${seq} now`);
    }
    seqs.add(seq);
    const previousSlugs = entry.previousSlugs.filter((slug) => {
      const taken = slug === entry.slug || RESERVED_SLUGS.has(slug) || current.has(slug) || before.has(slug);
      if (taken && slug !== entry.slug) adjusted.push(`the post ${entry.file} no longer redirects from "${slug}", which ${current.get(slug)?.file ?? before.get(slug) ?? "the API's own paths"} has`);
      if (!taken) before.set(slug, entry.file);
      return !taken;
    });
    const owner = entry.owner === null && entry.createdByKeyId ? (owners.get(entry.createdByKeyId) ?? null) : entry.owner;
    return { file: entry.file, id: entry.id, seq, previousSlugs, owner };
  });
}

/** Restores every post with its kept versions; each is read back and compared with its file. */
export async function importPosts(run: ImportRun, keys: readonly KeyRecord[]): Promise<void> {
  const { store, report, dataDir } = run;
  const planned = planPosts(await scanPosts(dataDir, report.skipped), keys, report.skipped, report.adjusted);
  for (const file of await strayRevisionFiles(dataDir, new Set(planned.map((post) => post.id)))) {
    report.skipped.push({ file, reason: 'the earlier versions of a post that is not imported (its file is missing or damaged)' });
  }
  for (const plan of planned) {
    run.doing = `the post ${path.relative(dataDir, plan.file)}`;
    const read = await readPost(plan.file);
    if (!read.ok) {
      report.skipped.push({ file: plan.file, reason: read.reason });
      continue;
    }
    const record = { ...read.value, seq: plan.seq, previousSlugs: plan.previousSlugs, owner: plan.owner };
    const kept = await readRevisions(dataDir, record.id);
    if (!kept.ok) report.skipped.push({ file: kept.file, reason: `${kept.reason}; the post is imported without its earlier versions` });
    const revisions = kept.ok ? kept.value.slice(0, REVISIONS_KEPT) : [];
    await ensureRecord(
      run.doing,
      { record, revisions },
      async () => {
        const stored = await store.posts.getById(record.id);
        return stored ? { record: stored, revisions: await store.posts.revisions(record.id) } : null;
      },
      () => store.posts.restore(record, revisions),
    );
    report.counts.posts++;
    report.counts.revisions += revisions.length;
    if (report.counts.posts % PROGRESS_EVERY === 0) run.log(`Imported ${report.counts.posts} of ${planned.length} posts...`);
  }
}
