/**
 * PostRepository over the post files. A create decides everything that must be race-free before
 * its first await, so creates are decided in arrival order: the idempotency claim, the order (`seq`)
 * and the slug, reserved until its write settles. The file is then written durably with the creates
 * that arrived meanwhile (group commit); the post enters the index, and so lists and the site, only
 * once it is on disk. A failed write fails only its own create, leaves no file, and frees its slug and
 * its claim.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { REVISIONS_KEPT } from '../../../contract/blog';
import { slugify } from '../../../contract/slug';
import type {
  CreateOptions,
  CreateOutcome,
  NewPost,
  PostCounts,
  PostIndexEntry,
  PostPage,
  PostQuery,
  PostRecord,
  PostRepository,
  SaveOptions,
  SaveOutcome,
  SlugLookup,
  StoredRevision,
} from '../store';
import { newPostRecord, withoutBookkeeping, withoutContent } from '../records';
import { StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { GroupCommit } from './group-commit';
import { IdempotencyClaims } from './idempotency-claims';
import { PostIndex } from './post-index';
import { postFile, postText, readPost } from './post-files';
import { readRevisions, revisionsFile, revisionsText } from './revision-files';
import { SlugReservations } from './slug-reservations';

export class FilePostRepository implements PostRepository {
  readonly #dir: string;
  readonly #revisionsDir: string;
  readonly #writer: DurableWriter;
  /** The change under way per post id: changes to one post are applied one after another. */
  readonly #changing = new Map<string, Promise<unknown>>();
  readonly #now: () => Date;
  readonly #index = new PostIndex();
  readonly #slugs = new SlugReservations((slug) => this.#index.hasSlug(slug));
  readonly #claims: IdempotencyClaims;
  readonly #commits: GroupCommit<PostRecord>;
  #nextSeq: number;

  /** `loaded`: the posts read at start-up, in creation order. */
  constructor(dirs: { posts: string; revisions: string }, loaded: readonly PostIndexEntry[], writer: DurableWriter, now: () => Date) {
    this.#dir = dirs.posts;
    this.#revisionsDir = dirs.revisions;
    this.#writer = writer;
    this.#now = now;
    this.#index.add(loaded);
    this.#claims = new IdempotencyClaims(now);
    this.#claims.load(loaded);
    this.#nextSeq = this.#index.nextSeq();
    this.#commits = new GroupCommit((records) => this.#writeBatch(records, writer));
  }

  async create(post: NewPost, options: CreateOptions): Promise<CreateOutcome> {
    // Nothing is awaited before the record is decided: see the file comment.
    const claim = options.idempotency;
    if (claim) {
      const decision = this.#claims.decide(claim);
      if (decision.kind === 'replayed' || decision.kind === 'conflict') return decision;
      if (decision.kind === 'pending') {
        let earlier: PostIndexEntry;
        try {
          earlier = await decision.written;
        } catch {
          // The first attempt stored nothing: this one goes ahead as if it were the first.
          return this.create(post, options);
        }
        return { kind: 'replayed', post: earlier };
      }
    }
    let slug: string;
    if (options.exactSlug) {
      if (!this.#slugs.claim(options.slugBase)) return { kind: 'slug_taken' };
      slug = options.slugBase;
    } else {
      slug = this.#slugs.reserve(options.slugBase);
    }
    const now = this.#now();
    const at = (options.at ?? now).toISOString();
    const record = newPostRecord(post, {
      id: randomUUID(),
      seq: this.#nextSeq++,
      slug,
      at,
      idempotency: claim ? { scope: claim.scope, fingerprint: claim.fingerprint, expiresAt: this.#claims.expiresAt(claim) } : null,
    });
    const entry = withoutContent(record);
    const written = this.#commits.submit(record).then(() => entry);
    if (claim) this.#claims.hold(claim, record.id, written);
    try {
      await written;
    } catch (error) {
      throw unwritable(postFile(this.#dir, record.id), error);
    }
    return { kind: 'created', post: entry };
  }

  /** Writes one group of creates and settles their reservations; stored posts join the index together. */
  async #writeBatch(records: readonly PostRecord[], writer: DurableWriter): Promise<Array<Error | null>> {
    const results = await writer.writeBatch(records.map((record) => ({ file: postFile(this.#dir, record.id), text: postText(record) })));
    const stored: PostIndexEntry[] = [];
    records.forEach((record, i) => {
      const ok = results[i] === null;
      const entry = withoutContent(record);
      if (ok) stored.push(entry);
      this.#slugs.release(record.slug);
      this.#claims.settle(entry, ok);
    });
    // Before any create resolves, so a 201 is never answered for a post the list does not show yet.
    this.#index.add(stored);
    return results;
  }

  async previewSlug(slugBase: string): Promise<string> {
    return this.#slugs.pick(slugBase);
  }

  async list(query: PostQuery): Promise<PostPage> {
    return this.#index.list(query);
  }

  async getBySlug(slug: string): Promise<PostRecord | null> {
    const entry = this.#index.bySlug(slug);
    return entry ? this.#read(entry.id) : null;
  }

  async getById(id: string): Promise<PostRecord | null> {
    return this.#index.byId(id) ? this.#read(id) : null;
  }

  async #read(id: string): Promise<PostRecord> {
    const record = await readPost(this.#dir, id);
    if (!record) throw new StoreError('unreadable', postFile(this.#dir, id), `The post file ${postFile(this.#dir, id)} is missing.`);
    return record;
  }

  async lookupSlug(slug: string): Promise<SlugLookup> {
    const current = this.#index.bySlug(slug);
    if (current) return { kind: 'current', post: current };
    const previous = this.#index.byPreviousSlug(slug);
    return previous ? { kind: 'previous', post: previous } : null;
  }

  /** Waits until no change to this post is under way, then runs `change` as the only one. */
  async #exclusive<T>(id: string, change: () => Promise<T>): Promise<T> {
    for (let running = this.#changing.get(id); running; running = this.#changing.get(id)) await running.catch(() => undefined);
    const work = change();
    this.#changing.set(id, work);
    try {
      return await work;
    } finally {
      if (this.#changing.get(id) === work) this.#changing.delete(id);
    }
  }

  save(next: PostRecord, options: SaveOptions): Promise<SaveOutcome> {
    return this.#exclusive(next.id, async () => {
      const current = this.#index.byId(next.id);
      if (!current) return { kind: 'missing' };
      if (current.revision !== options.expectedRevision) return { kind: 'stale', current };
      let previousSlugs = current.previousSlugs;
      let claimed: string | undefined;
      if (next.slug !== current.slug) {
        // Back to one of its own earlier slugs is always allowed; any other must be free.
        if (!current.previousSlugs.includes(next.slug)) {
          if (!this.#slugs.claim(next.slug)) return { kind: 'slug_taken' };
          claimed = next.slug;
        }
        previousSlugs = [...current.previousSlugs.filter((slug) => slug !== next.slug), current.slug];
      }
      const record: PostRecord = {
        ...next,
        seq: current.seq,
        createdAt: current.createdAt,
        createdByKeyId: current.createdByKeyId,
        idempotency: current.idempotency,
        previousSlugs,
        revision: current.revision + 1,
      };
      try {
        if (options.keepRevision) {
          const previous = await this.#read(current.id);
          const kept: StoredRevision = { replacedAt: record.updatedAt, changed: [...options.changed], record: withoutBookkeeping(previous) };
          const revisions = [kept, ...(await readRevisions(this.#revisionsDir, current.id))].slice(0, REVISIONS_KEPT);
          await this.#write(revisionsFile(this.#revisionsDir, current.id), revisionsText(current.id, revisions));
        }
        await this.#write(postFile(this.#dir, record.id), postText(record));
        const entry = withoutContent(record);
        this.#index.replace(entry);
        return { kind: 'saved', post: entry };
      } finally {
        if (claimed) this.#slugs.release(claimed);
      }
    });
  }

  async #write(file: string, text: string): Promise<void> {
    try {
      await this.#writer.write(file, text);
    } catch (error) {
      throw unwritable(file, error);
    }
  }

  purge(id: string): Promise<boolean> {
    return this.#exclusive(id, async () => {
      if (!this.#index.byId(id)) return false;
      for (const file of [postFile(this.#dir, id), revisionsFile(this.#revisionsDir, id)]) {
        try {
          await rm(file, { force: true });
        } catch (error) {
          throw unwritable(file, error);
        }
      }
      this.#index.remove(id);
      return true;
    });
  }

  async restore(record: PostRecord, revisions: readonly StoredRevision[]): Promise<void> {
    const taken = [record.slug, ...record.previousSlugs].find((slug) => this.#slugs.isTaken(slug));
    if (this.#index.byId(record.id) || taken !== undefined) {
      throw new StoreError('conflict', postFile(this.#dir, record.id), `Cannot restore the post "${record.title}": ${taken === undefined ? `its id ${record.id}` : `its slug "${taken}"`} is taken in this store.`);
    }
    // Kept versions first, as a change writes them: a crash in between leaves no post without its history.
    if (revisions.length > 0) await this.#write(revisionsFile(this.#revisionsDir, record.id), revisionsText(record.id, revisions.slice(0, REVISIONS_KEPT)));
    await this.#write(postFile(this.#dir, record.id), postText(record));
    const entry = withoutContent(record);
    this.#index.add([entry]);
    this.#claims.load([entry]);
    this.#nextSeq = Math.max(this.#nextSeq, record.seq + 1);
  }

  async revisions(id: string): Promise<StoredRevision[]> {
    return readRevisions(this.#revisionsDir, id);
  }

  async dueScheduled(at: Date): Promise<PostIndexEntry[]> {
    const cutoff = at.toISOString();
    const due: PostIndexEntry[] = [];
    for (const entry of this.#index.listOf('scheduled')) {
      if ((entry.publishAt ?? '') > cutoff) break;
      due.push(entry);
    }
    return due;
  }

  async nextScheduledAt(): Promise<Date | null> {
    const first = this.#index.listOf('scheduled')[0];
    return first?.publishAt ? new Date(first.publishAt) : null;
  }

  async trashedBefore(cutoff: Date): Promise<PostIndexEntry[]> {
    const before = cutoff.toISOString();
    return this.#index.listOf('trashed').filter((entry) => (entry.deletedAt ?? '') < before);
  }

  async sameTitle(title: string, exceptId?: string): Promise<PostIndexEntry[]> {
    return this.#index.withSlugBase(slugify(title) || 'post').filter((entry) => !entry.deletedAt && entry.id !== exceptId);
  }

  async publishedPerCategory(): Promise<Map<string, number>> {
    return this.#index.publishedPerCategory();
  }

  async counts(): Promise<PostCounts> {
    return this.#index.counts();
  }

  revision(): number {
    return this.#index.revision();
  }

  /** Every stored post, in creation order (for the index snapshot). */
  entries(): readonly PostIndexEntry[] {
    return this.#index.all();
  }

  /** Resolves once every create and change accepted so far has settled. */
  async flush(): Promise<void> {
    await this.#commits.idle();
    await Promise.all([...this.#changing.values()].map((work) => work.catch(() => undefined)));
  }
}
