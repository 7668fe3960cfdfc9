/**
 * Reading posts as readers see them: pages of summaries, one post, categories with their counts. The
 * site's loaders get this as their BlogReader (published posts only); the API's read routes use the
 * same functions with the status their key may see.
 */
import type { PostStatus } from '../../contract/blog';
import type { BlogPost, BlogPostPage, BlogReader, ListPublishedOptions } from '../../contract/blog-reader';
import { BLOG_CATEGORIES, type BlogCategory, findCategory, UNCATEGORIZED } from '../../contract/categories';
import type { PostRepository } from '../store/store';
import { presentPost, presentSummary } from './presenters';

export interface ListOptions extends ListPublishedOptions {
  status: PostStatus;
}

export async function listPosts(posts: PostRepository, options: ListOptions): Promise<BlogPostPage> {
  // A category is asked for by slug or by name; an unknown one matches nothing.
  const categorySlug = options.category === undefined ? undefined : (findCategory(options.category)?.slug ?? options.category);
  const page = await posts.list({
    status: options.status,
    ...(options.page === undefined ? {} : { page: options.page }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    ...(categorySlug === undefined ? {} : { categorySlug }),
    ...(options.tag === undefined ? {} : { tag: options.tag }),
  });
  return { posts: page.entries.map(presentSummary), total: page.total, page: page.page, limit: page.limit };
}

/** The post with this slug; drafts only when `includeDrafts`. */
export async function getPost(posts: PostRepository, slug: string, options: { includeDrafts: boolean }): Promise<BlogPost | null> {
  const record = await posts.getBySlug(slug);
  if (!record || (record.status !== 'published' && !options.includeDrafts)) return null;
  return presentPost(record);
}

/** The built-in categories with their published posts counted, plus `uncategorized` when it has any. */
export async function categoriesWithCounts(posts: PostRepository): Promise<BlogCategory[]> {
  const counts = await posts.publishedPerCategory();
  const categories: BlogCategory[] = BLOG_CATEGORIES.map((category) => ({ ...category, postCount: counts.get(category.slug) ?? 0 }));
  const uncategorized = counts.get(UNCATEGORIZED.slug) ?? 0;
  if (uncategorized > 0) {
    categories.push({
      id: '0',
      ...UNCATEGORIZED,
      description: 'Posts whose category is not one of the built-in ones.',
      postCount: uncategorized,
      createdAt: BLOG_CATEGORIES[0].createdAt,
    });
  }
  return categories;
}

/** What the site's loaders read: published posts only. */
export function blogReader(posts: PostRepository): BlogReader {
  return {
    listPublished: (options = {}) => listPosts(posts, { ...options, status: 'published' }),
    getPublishedBySlug: (slug) => getPost(posts, slug, { includeDrafts: false }),
    categoriesWithCounts: () => categoriesWithCounts(posts),
  };
}
