import { data } from 'react-router';
import type { Route } from './+types/index';
import { CategoryNav } from '../../components/blog/CategoryNav';
import { Pagination } from '../../components/blog/Pagination';
import { PostCard } from '../../components/blog/PostCard';
import { breadcrumbJsonLd } from '../../seo/blog-jsonld';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { BLOG_PAGE_SIZE, pageNumberFrom } from './paging';

export async function loader({ request, context }: Route.LoaderArgs) {
  const page = pageNumberFrom(new URL(request.url));
  const [list, categories] = await Promise.all([
    context.blog.listPublished({ page, limit: BLOG_PAGE_SIZE }),
    context.blog.categoriesWithCounts(),
  ]);
  const totalPages = Math.max(1, Math.ceil(list.total / BLOG_PAGE_SIZE));
  if (page > totalPages) throw data(null, { status: 404 });
  return { ...list, totalPages, categories };
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => {
  if (!loaded) return [];
  const config = configFromMatches(matches);
  const path = loaded.page > 1 ? `/blog?page=${loaded.page}` : '/blog';
  return pageMeta(config, {
    title: loaded.page > 1 ? `Blog: IUL and Retirement Articles (page ${loaded.page})` : 'Blog: IUL and Retirement Articles',
    description: 'Plain-English articles on indexed universal life, tax-free retirement income, taxes and financial education.',
    path,
    jsonLd: [breadcrumbJsonLd(config, [{ name: 'Home', path: '/' }, { name: 'Blog', path: '/blog' }])],
  });
};

export default function BlogIndex({ loaderData }: Route.ComponentProps) {
  const { posts, total, page, totalPages, categories } = loaderData;
  return (
    <div className="page-section blog-page">
      <div className="container">
        <header className="blog-header">
          <h1>Blog</h1>
          <p className="lead">
            Articles from our agency and guest authors on indexed universal life, retirement income and taxes. Every
            article is educational, not advice for your situation.
          </p>
        </header>
        <CategoryNav categories={categories} total={total} />
        {posts.length === 0 ? (
          <p className="blog-empty">No articles have been published yet. Please check back soon.</p>
        ) : (
          <div className="post-grid">
            {posts.map((post, index) => (
              <PostCard key={post.id} post={post} eagerImage={index === 0} />
            ))}
          </div>
        )}
        <Pagination basePath="/blog" page={page} totalPages={totalPages} />
      </div>
    </div>
  );
}
