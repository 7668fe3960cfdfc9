/** The exact fields that go out, from the records the store keeps: nothing else leaves the server. */
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { BlogPost, BlogPostSummary } from '../../contract/blog-reader';
import { categoryNameFor } from '../../contract/categories';
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
  };
}

export function presentPost(record: PostRecord): BlogPost {
  return { ...presentSummary(record), content: record.content };
}

export function presentCreated(post: PostIndexEntry): CreatePostResponse {
  return {
    success: true,
    message: post.status === 'draft' ? 'Draft blog post created successfully' : 'Blog post published successfully',
    post: {
      id: post.id,
      title: post.title,
      slug: post.slug,
      excerpt: post.excerpt,
      created_at: post.createdAt,
      status: post.status,
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
