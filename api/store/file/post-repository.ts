/**
 * PostRepository over the post files. A create decides everything that must be race-free before
 * its first await, so creates are decided in arrival order: the idempotency claim, the order (`seq`)
 * and the slug, reserved until its write settles. The file is then written durably with the creates
 * that arrived meanwhile (group commit); the post enters the index, and so lists and the site, only
 * once it is on disk. A failed write fails only its own create, leaves no file, and frees its slug and
 * its claim.
 */
import { randomUUID } from 'node:crypto';
import type { CreateOptions, CreateOutcome, NewPost, PostCounts, PostIndexEntry, PostPage, PostQuery, PostRecord, PostRepository } from '../store';
import { StoreError, unwritable } from '../store-error';
import type { DurableWriter } from './durable-writer';
import { GroupCommit } from './group-commit';
import { IdempotencyClaims } from './idempotency-claims';
import { PostIndex } from './post-index';
import { postFile, postText, readPost } from './post-files';
import { SlugReservations } from './slug-reservations';

function withoutContent(record: PostRecord): PostIndexEntry {
  const { content: _content, ...entry } = record;
  return entry;
}

export class FilePostRepository implements PostRepository {
  readonly #dir: string;
  readonly #now: () => Date;
  readonly #index = new PostIndex();
  readonly #slugs = new SlugReservations((slug) => this.#index.hasSlug(slug));
  readonly #claims: IdempotencyClaims;
  readonly #commits: GroupCommit<PostRecord>;
  #nextSeq: number;

  /** `loaded`: the posts read at start-up, in creation order. */
  constructor(dir: string, loaded: readonly PostIndexEntry[], writer: DurableWriter, now: () => Date) {
    this.#dir = dir;
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
    const now = this.#now();
    const at = (options.at ?? now).toISOString();
    const record: PostRecord = {
      ...post,
      id: randomUUID(),
      seq: this.#nextSeq++,
      slug: this.#slugs.reserve(options.slugBase),
      createdAt: at,
      updatedAt: at,
      publishedAt: post.status === 'published' ? at : null,
      idempotency: claim ? { scope: claim.scope, fingerprint: claim.fingerprint, expiresAt: this.#claims.expiresAt(claim) } : null,
    };
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
    if (!entry) return null;
    const record = await readPost(this.#dir, entry.id);
    if (!record) throw new StoreError('unreadable', postFile(this.#dir, entry.id), `The post file ${postFile(this.#dir, entry.id)} is missing.`);
    return record;
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

  /** Resolves once every create accepted so far has settled. */
  flush(): Promise<void> {
    return this.#commits.idle();
  }
}
