/**
 * The read side of the blog: the post as readers see it, the list query and answers of the read
 * endpoints, and the BlogReader interface the server hands the site's loaders (so blog pages render
 * from the same store the API writes to).
 */
import { z } from 'zod';
import { LIST_LIMITS, LIST_STATUSES } from './choices';
import type { PostReview, StoredPostStatus } from './blog';
import type { ComplianceAcceptance } from './compliance';
import type { BlogCategory } from './categories';
import type { CoverImageResponse } from './media';

export interface BlogAuthor {
  name: string;
  bio?: string;
  credentials?: string;
}

export interface BlogTrust {
  factCheckedBy?: { name: string; credentials?: string; link?: string };
  sources: { name: string; url: string }[];
  lastUpdated?: string;
}

/** A post without its body: what lists carry. */
export interface BlogPostSummary {
  id: string;
  slug: string;
  title: string;
  excerpt: string;
  category: { slug: string; name: string };
  tags: string[];
  author: BlogAuthor;
  isNewsArticle: boolean;
  trust: BlogTrust | null;
  /** The picture shown above the post, on its cards and as its Open Graph image (an upload: POST /api/media). */
  cover_image: CoverImageResponse | null;
  status: StoredPostStatus;
  /** While the post waits for (or was sent back by) a compliance review: its state and the reviewer's note. */
  review?: PostReview;
  /** ISO 8601 timestamps. */
  created_at: string;
  updated_at: string;
  /** When the post went public; null for drafts and scheduled posts. */
  published_at: string | null;
  /** When a scheduled post goes live; null otherwise. */
  publish_at: string | null;
  /** Grows by one with every change; the ETag of GET /api/blog/:id names it. */
  revision: number;
  /** Set while the post is in the trash (only keys that may edit it see such posts). */
  deleted_at?: string;
  /** When a post in the trash is purged for good. */
  purge_at?: string;
}

/** A whole post; `content` is HTML the server has already sanitised, safe to render as is. */
export interface BlogPost extends BlogPostSummary {
  content: string;
  /** The compliance findings its author accepted, with the reasons (only to a request with an API key). */
  compliance?: { accept: ComplianceAcceptance[] };
  /** The Markdown file the post was written as, and its pictures' uploads (only to a request with an API key; decision 0022). */
  source?: { format: 'markdown'; text: string; images: Record<string, string> };
}

export { LIST_LIMITS, LIST_STATUSES };

const positiveInt = (fallback: number, max?: number) => {
  const int = z.coerce.number().int().min(1);
  return z.preprocess((v) => (v === undefined || v === '' ? fallback : v), max ? int.max(max) : int);
};

export type ListStatus = (typeof LIST_STATUSES)[number];

const flag = z.preprocess((v) => (v === '' ? '1' : v), z.enum(['1', 'true', '0', 'false']).transform((v) => v === '1' || v === 'true'));

/** The query of GET /api/blog. Any other parameter is a 400 naming it. */
export const listPostsQuerySchema = z.strictObject({
  page: positiveInt(1),
  limit: positiveInt(LIST_LIMITS.defaultLimit, LIST_LIMITS.maxLimit),
  category: z.string().trim().max(100).optional(),
  tag: z.string().trim().max(50).optional(),
  /** An author's name, matched without regard to case. */
  author: z.string().trim().max(100).optional(),
  /** Anything but `published` needs a key holding blog:read or blog:write. */
  status: z.string().trim().toLowerCase().pipe(z.enum(LIST_STATUSES)).optional(),
  /** `1`: the posts of the calling key's owner, in every status unless `status` narrows it. */
  mine: flag.optional(),
});
export const LIST_QUERY_PARAMETERS = Object.keys(listPostsQuerySchema.shape);
export type ListPostsQuery = z.output<typeof listPostsQuerySchema>;

export interface ListPublishedOptions {
  page?: number;
  limit?: number;
  /** A category slug or name. */
  category?: string;
  tag?: string;
  author?: string;
}

export interface BlogPostPage {
  posts: BlogPostSummary[];
  total: number;
  page: number;
  limit: number;
}

export interface ListPostsResponse extends BlogPostPage {
  success: true;
}

export interface GetPostResponse {
  success: true;
  post: BlogPost;
}

export interface CategoriesResponse {
  success: true;
  categories: BlogCategory[];
}

export interface HealthResponse {
  success: true;
  status: 'ok';
  uptimeSeconds: number;
  posts: { published: number; drafts: number; scheduled: number; inReview: number; trashed: number };
}

/**
 * GET /api/health, answered 503 (with Retry-After) while the server is up but its store cannot be read:
 * the database out of reach (PostgreSQL restarting) or damaged. A load balancer takes the instance out
 * of rotation until it answers 200 again, which it does by itself when the database is back.
 */
export interface HealthDegradedResponse {
  success: false;
  status: 'degraded';
  uptimeSeconds: number;
  /** The error catalogue's code for it: storage_unavailable. */
  code: 'storage_unavailable';
  /** What is wrong, in words (never the database's address or the server's internals). */
  reason: string;
}

/** What a slug leads to on the public site. */
export type PublicPostLookup =
  | { kind: 'post'; post: BlogPost }
  /** The post moved: its slug changed, and the old one answers 301 to this one. */
  | { kind: 'moved'; slug: string }
  /** The post is in the trash: 410 Gone until it is restored or purged. */
  | { kind: 'gone' }
  | { kind: 'missing' };

/** Read access to published posts for the site (drafts never come out of it). */
export interface BlogReader {
  /** Published posts, newest first. */
  listPublished(options?: ListPublishedOptions): Promise<BlogPostPage>;
  getPublishedBySlug(slug: string): Promise<BlogPost | null>;
  /** The published post at this slug, or where it went. */
  lookupPublished(slug: string): Promise<PublicPostLookup>;
  /** The built-in categories with `postCount` = published posts in each, plus `uncategorized` when it has any. */
  categoriesWithCounts(): Promise<BlogCategory[]>;
}
