/**
 * The read side of the blog: the post as readers see it, the list query and answers of the read
 * endpoints, and the BlogReader interface the server hands the site's loaders (so blog pages render
 * from the same store the API writes to).
 */
import { z } from 'zod';
import type { PostStatus } from './blog';
import type { BlogCategory } from './categories';

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
  status: PostStatus;
  /** ISO 8601 timestamps. */
  created_at: string;
  updated_at: string;
  /** When the post went public; null for drafts. */
  published_at: string | null;
}

/** A whole post; `content` is HTML the server has already sanitised, safe to render as is. */
export interface BlogPost extends BlogPostSummary {
  content: string;
}

export const LIST_LIMITS = { defaultLimit: 10, maxLimit: 100 } as const;

const positiveInt = (fallback: number, max?: number) => {
  const int = z.coerce.number().int().min(1);
  return z.preprocess((v) => (v === undefined || v === '' ? fallback : v), max ? int.max(max) : int);
};

/** The query of GET /api/blog. */
export const listPostsQuerySchema = z.object({
  page: positiveInt(1),
  limit: positiveInt(LIST_LIMITS.defaultLimit, LIST_LIMITS.maxLimit),
  category: z.string().trim().max(100).optional(),
  tag: z.string().trim().max(50).optional(),
  /** `draft` needs a key holding blog:read. */
  status: z.string().trim().toLowerCase().pipe(z.enum(['draft', 'published'])).optional(),
});
export type ListPostsQuery = z.output<typeof listPostsQuerySchema>;

export interface ListPublishedOptions {
  page?: number;
  limit?: number;
  /** A category slug or name. */
  category?: string;
  tag?: string;
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
  posts: { published: number; drafts: number };
}

/** Read access to published posts for the site (drafts never come out of it). */
export interface BlogReader {
  /** Published posts, newest first. */
  listPublished(options?: ListPublishedOptions): Promise<BlogPostPage>;
  getPublishedBySlug(slug: string): Promise<BlogPost | null>;
  /** The built-in categories with `postCount` = published posts in each, plus `uncategorized` when it has any. */
  categoriesWithCounts(): Promise<BlogCategory[]>;
}
