/** The exact fields that go out, from the records the store keeps: nothing else leaves the server. */
import { type CreatePostResponse, TRASH_RETENTION_DAYS, type ValidatePostResponse } from '../../contract/blog';
import type { BlogPost, BlogPostSummary } from '../../contract/blog-reader';
import { categoryNameFor } from '../../contract/categories';
import { postEtag } from '../../contract/post-lifecycle';
import type { PostIndexEntry, PostRecord } from '../store/store';
import type { CleanedPost } from './posts';

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
    status: entry.status,
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

export function presentPost(record: PostRecord): BlogPost {
  return { ...presentSummary(record), content: record.content };
}

export function presentCreated(post: PostIndexEntry): CreatePostResponse {
  return {
    success: true,
    message:
      post.status === 'draft'
        ? 'Draft blog post created successfully'
        : post.status === 'scheduled'
          ? `Blog post scheduled: it goes live at ${post.publishAt ?? 'its time'}`
          : 'Blog post published successfully',
    post: {
      id: post.id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      created_at: post.createdAt,
      status: post.status,
      publish_at: post.publishAt,
      etag: postEtag(post.id, post.revision),
    },
    warnings: [...post.warnings],
  };
}

export function presentValidation(cleaned: CleanedPost, slug: string): ValidatePostResponse {
  return {
    success: true,
    valid: true,
    message: 'The post is valid and would be accepted. Nothing was saved.',
    post: {
      title: cleaned.post.title,
      slug,
      excerpt: cleaned.post.excerpt,
      category: cleaned.post.categorySlug,
      status: cleaned.post.status,
    },
    warnings: [...cleaned.warnings],
  };
}

/** Where a created post can be read back through the API. */
export function postLocation(slug: string): string {
  return `/api/blog/${encodeURIComponent(slug)}`;
}
