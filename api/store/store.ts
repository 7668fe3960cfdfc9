/**
 * The store seam: everything the API, the CLI and the site need of persistence, as interfaces. The
 * embedded file store (api/store/file/) is the default implementation; any other backend (PostgreSQL
 * for several app servers) implements the same interfaces and passes the same contract suite
 * (api/store/store-contract.ts). Records come back as stored; presenters (api/services/presenters.ts)
 * turn them into what goes out.
 */
import type { PostStatus } from '../../contract/blog';
import type { KeyRecord, NewPost, PostIndexEntry, PostRecord } from './records';

export type { KeyRecord, NewPost, PostIndexEntry, PostRecord } from './records';

export interface PostQuery {
  status: PostStatus;
  /** 1-based; default 1. */
  page?: number;
  /** Default 10; the store takes any positive number (the API caps it, the sitemap does not). */
  limit?: number;
  /** A category slug; unknown values match nothing. */
  categorySlug?: string;
  /** Matched without regard to case. */
  tag?: string;
}

export interface PostPage {
  /** Newest first (highest `seq` first). */
  entries: PostIndexEntry[];
  total: number;
  page: number;
  limit: number;
}

/** An Idempotency-Key claim on a create: remembered for `ttlMs` under `scope`. */
export interface IdempotencyClaim {
  /** Hash of the API key id and the Idempotency-Key header. */
  scope: string;
  /** Hash of the request body. */
  fingerprint: string;
  ttlMs: number;
}

export type CreateOutcome =
  | { kind: 'created'; post: PostIndexEntry }
  /** An unexpired claim with the same scope and fingerprint: the post the first request created. */
  | { kind: 'replayed'; post: PostIndexEntry }
  /** An unexpired claim with the same scope and another fingerprint. */
  | { kind: 'conflict' };

export interface CreateOptions {
  /** The slug wanted; the store gives `base`, else the first free of `base-2`, `base-3` ... (never a RESERVED_SLUGS one). */
  slugBase: string;
  idempotency?: IdempotencyClaim;
  /** The creation time (demo content and imports keep their own dates); default now. */
  at?: Date;
}

export interface PostCounts {
  published: number;
  drafts: number;
}

export interface PostRepository {
  /**
   * Stores a new post. Resolves only once the post is durable (on disk, or committed): a 201 may be
   * answered then. Two creates never get the same slug; two creates with the same idempotency scope
   * create one post. Rejects with a StoreError when it cannot be stored (nothing is then stored).
   */
  create(post: NewPost, options: CreateOptions): Promise<CreateOutcome>;
  /** The slug a create with this base would get now (another create may take it first). */
  previewSlug(slugBase: string): Promise<string>;
  /** One page of the posts with this status, newest first. */
  list(query: PostQuery): Promise<PostPage>;
  /** The post with this slug, body included, or null. */
  getBySlug(slug: string): Promise<PostRecord | null>;
  /** Published posts per category slug. */
  publishedPerCategory(): Promise<Map<string, number>>;
  counts(): Promise<PostCounts>;
  /** Grows on every change to the posts, so renders can be cached until it moves. */
  revision(): number;
}

/** What changes on a key after it is made: bookkeeping of its use and failures, and its revocation. */
export type KeyPatch = Partial<Pick<KeyRecord, 'lastUsedAt' | 'lastFailedAt' | 'lastFailureCode' | 'revokedAt' | 'revokedBy' | 'revokeReason'>>;

export interface KeyRepository {
  /** Every key record, revoked ones included. Sees changes another process (the CLI) made. */
  list(): Promise<KeyRecord[]>;
  /** The key with this public id. Sees changes another process (the CLI) made. */
  findById(id: string): Promise<KeyRecord | undefined>;
  /** Adds a key; a StoreError ('conflict') when its id exists. */
  add(record: KeyRecord): Promise<void>;
  /** Applies `patch`; the updated record, or undefined when there is no such key. */
  update(id: string, patch: KeyPatch): Promise<KeyRecord | undefined>;
  demoKeyIssuedAt(): Promise<string | null>;
  markDemoKeyIssued(at: Date): Promise<void>;
}

/** A damaged file the store moved aside at start-up instead of refusing to start. */
export interface QuarantinedFile {
  /** Where it is now. */
  file: string;
  /** Where it was. */
  originalFile: string;
  reason: string;
  movedAt: string;
}

export interface Store {
  posts: PostRepository;
  keys: KeyRepository;
  /** True when this open created the store (an empty data directory). */
  created: boolean;
  /** Files moved aside because they could not be read (see `blogpost doctor`). */
  quarantined(): Promise<QuarantinedFile[]>;
  /** Resolves once every write accepted so far has settled. */
  flush(): Promise<void>;
  /** Flushes and releases what the store holds open. */
  close(): Promise<void>;
}
