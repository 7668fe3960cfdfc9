/** The exact fields that go out in the answers to a create and a validate, and nothing else. */
import type { CreatePostResponse, ValidatePostResponse } from '../../contract/blog';
import type { PostIndexEntry } from '../store/records';
import type { PreparedPost } from './posts';

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

export function presentValidation(prepared: PreparedPost, slug: string): ValidatePostResponse {
  return {
    success: true,
    valid: true,
    message: 'The post is valid and would be accepted. Nothing was saved.',
    post: {
      title: prepared.post.title,
      slug,
      excerpt: prepared.post.excerpt,
      category: prepared.post.categorySlug,
      status: prepared.post.status,
    },
    warnings: [...prepared.warnings],
  };
}

/** Where a created post can be read back through the API. */
export function postLocation(slug: string): string {
  return `/api/blog/${encodeURIComponent(slug)}`;
}
