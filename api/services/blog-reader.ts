/**
 * Reading posts as readers see them: pages of summaries, one post, categories with their counts. The
 * site's loaders get this as their BlogReader (published posts only); the API's read routes use the
 * same functions with the status their key may see.
 */
import type { BlogPostPage, BlogReader, ListPublishedOptions, ListStatus, PublicPostLookup } from '../../contract/blog-reader';
import { BLOG_CATEGORIES, type BlogCategory, findCategory, UNCATEGORIZED } from '../../contract/categories';
import type { PostRepository } from '../store/store';
import { presentPost, presentSummary } from './presenters';

export interface ListOptions extends ListPublishedOptions {
  status: ListStatus | 'any';
  /** Only the posts of this key owner. */
  owner?: string;
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
    ...(options.author === undefined ? {} : { author: options.author }),
    ...(options.owner === undefined ? {} : { owner: options.owner }),
  });
  return { posts: page.entries.map(presentSummary), total: page.total, page: page.page, limit: page.limit };
}

/** The published post at this slug for the site: the post, where it moved, gone (in the trash), or missing. */
export async function lookupPublished(posts: PostRepository, slug: string): Promise<PublicPostLookup> {
  const found = await posts.lookupSlug(slug);
  // A draft or a scheduled post was never public: it is missing, in the trash or not.
  if (!found || found.post.status !== 'published') return { kind: 'missing' };
  if (found.post.deletedAt) return { kind: 'gone' };
  if (found.kind === 'previous') return { kind: 'moved', slug: found.post.slug };
  const record = await posts.getById(found.post.id);
  return record ? { kind: 'post', post: presentPost(record) } : { kind: 'missing' };
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
    getPublishedBySlug: async (slug) => {
      const found = await lookupPublished(posts, slug);
      return found.kind === 'post' ? found.post : null;
    },
    lookupPublished: (slug) => lookupPublished(posts, slug),
    categoriesWithCounts: () => categoriesWithCounts(posts),
  };
}
