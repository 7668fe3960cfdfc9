/**
 * Previews of posts that are not public (a draft, a scheduled post, one held for review): the staff
 * page /admin/posts/:id/preview, and the shareable link /preview/<token> it makes (7 days, signed;
 * api/services/post-preview.ts).
 */
import type { BlogPost } from './blog-reader';

/** How long a preview link works. */
export const PREVIEW_LINK_DAYS = 7;

/** A post as its public page will render it, with what the preview's banner says of it. */
export interface PostPreview {
  post: BlogPost;
  status: 'draft' | 'scheduled' | 'in_review' | 'published';
  /** When a scheduled post goes live (ISO), else null. */
  publishAt: string | null;
  /** In the trash since (ISO), else null. */
  deletedAt: string | null;
}

/** What a preview link opens. */
export type PreviewLinkOpen =
  | { kind: 'post'; preview: PostPreview; expiresAt: string }
  /** The link was good but is older than its 7 days. */
  | { kind: 'expired' }
  /** Malformed, altered or made by another site. */
  | { kind: 'invalid' }
  /** The post was deleted (or put in the trash) since the link was made. */
  | { kind: 'deleted' }
  /** The post is public now: its page is the one to read. */
  | { kind: 'published'; slug: string };

export interface PreviewLinkMade {
  /** The link's path, `/preview/<token>`. */
  path: string;
  expiresAt: string;
}
