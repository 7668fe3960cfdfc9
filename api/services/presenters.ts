/** The exact fields that go out, from the records the store keeps: nothing else leaves the server. */
import { type CreatePostResponse, type PostReview, TRASH_RETENTION_DAYS, type ValidatePostResponse } from '../../contract/blog';
import type { ComplianceFinding } from '../../contract/compliance';
import type { ReviewRecord } from '../store/records';
import type { BlogPost, BlogPostSummary } from '../../contract/blog-reader';
import { categoryNameFor } from '../../contract/categories';
import { type CoverImage, type CoverImageResponse, presentCoverImage } from '../../contract/media';
import { postEtag } from '../../contract/post-lifecycle';
import type { PostIndexEntry, PostRecord } from '../store/store';
import { heldMessage } from './compliance-gate';
import type { CleanedPost } from './posts';

/** A post's review as its author sees it (who reviewed stays in the audit log). */
export function presentReview(review: ReviewRecord): PostReview {
  return {
    state: review.state,
    requested_status: review.requestedStatus,
    requested_publish_at: review.requestedPublishAt,
    submitted_at: review.submittedAt,
    rules: [...review.rules],
    note: review.note,
    decided_at: review.decidedAt,
  };
}

/** A post's cover image as answers carry it (null when it has none). */
export function presentCover(post: { coverImage?: CoverImage | null }): CoverImageResponse | null {
  return post.coverImage ? presentCoverImage(post.coverImage) : null;
}

export function presentSummary(entry: PostIndexEntry): BlogPostSummary {
  return {
    id: entry.id,
    slug: entry.slug,
    title: entry.title,
    excerpt: entry.excerpt,
    category: { slug: entry.categorySlug, name: categoryNameFor(entry.categorySlug) },
    tags: [...entry.tags],
    author: { ...entry.author },
    isNewsArticle: entry.isNewsArticle,
    trust: entry.trust,
    cover_image: presentCover(entry),
    status: entry.status,
    ...(entry.review ? { review: presentReview(entry.review) } : {}),
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
    published_at: entry.publishedAt,
    publish_at: entry.publishAt,
    revision: entry.revision,
    ...(entry.deletedAt
      ? { deleted_at: entry.deletedAt, purge_at: new Date(Date.parse(entry.deletedAt) + TRASH_RETENTION_DAYS * 24 * 60 * 60 * 1000).toISOString() }
      : {}),
  };
}

/** A whole post; `withAcceptances` adds its author's compliance acceptances (for requests with a key). */
export function presentPost(record: PostRecord, withAcceptances = false): BlogPost {
  const accept = withAcceptances ? record.complianceAccept : [];
  // The source's front matter may hold the acceptances' reasons: it goes where they go.
  const source = withAcceptances && record.source ? { source: { format: record.source.format, text: record.source.text, images: { ...record.source.images } } } : {};
  return { ...presentSummary(record), content: record.content, ...(accept.length > 0 ? { compliance: { accept: accept.map((acceptance) => ({ ...acceptance })) } } : {}), ...source };
}

function createdMessage(post: PostIndexEntry): string {
  switch (post.status) {
    case 'draft':
      return 'Draft blog post created successfully';
    case 'scheduled':
      return `Blog post scheduled: it goes live at ${post.publishAt ?? 'its time'}`;
    case 'in_review':
      return `Blog post created and ${heldMessage(post.review?.rules ?? []).replace(/^Held/, 'held')}`;
    case 'published':
      return 'Blog post published successfully';
  }
}

export function presentCreated(post: PostIndexEntry, findings: ComplianceFinding[]): CreatePostResponse {
  return {
    success: true,
    message: createdMessage(post),
    post: {
      id: post.id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      created_at: post.createdAt,
      status: post.status,
      publish_at: post.publishAt,
      cover_image: presentCover(post),
      etag: postEtag(post.id, post.revision),
      ...(post.review ? { review: presentReview(post.review) } : {}),
    },
    warnings: [...post.warnings],
    findings,
  };
}

export function presentValidation(cleaned: CleanedPost, slug: string, findings: ComplianceFinding[]): ValidatePostResponse {
  const held = cleaned.post.status === 'in_review';
  return {
    success: true,
    valid: true,
    message: held
      ? `The post is valid and would be accepted, then ${heldMessage(cleaned.post.review?.rules ?? []).replace(/^Held/, 'held')} Nothing was saved.`
      : 'The post is valid and would be accepted. Nothing was saved.',
    post: {
      title: cleaned.post.title,
      slug,
      excerpt: cleaned.post.excerpt,
      category: cleaned.post.categorySlug,
      status: cleaned.post.status,
      cover_image: presentCover(cleaned.post),
    },
    warnings: [...cleaned.warnings],
    findings,
  };
}

/** Where a created post can be read back through the API. */
export function postLocation(slug: string): string {
  return `/api/blog/${encodeURIComponent(slug)}`;
}
