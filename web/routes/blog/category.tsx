import { data } from 'react-router';
import type { Route } from './+types/category';
import { CategoryNav } from '../../components/blog/CategoryNav';
import { Pagination } from '../../components/blog/Pagination';
import { PostCard } from '../../components/blog/PostCard';
import { breadcrumbJsonLd } from '../../seo/blog-jsonld';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { BLOG_PAGE_SIZE, pageNumberFrom } from './paging';

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const categories = await context.blog.categoriesWithCounts();
  const category = categories.find((c) => c.slug === params.slug);
  if (!category) throw data(null, { status: 404 });
  const page = pageNumberFrom(new URL(request.url));
  const list = await context.blog.listPublished({ page, limit: BLOG_PAGE_SIZE, category: category.slug });
  const totalPages = Math.max(1, Math.ceil(list.total / BLOG_PAGE_SIZE));
  if (page > totalPages) throw data(null, { status: 404 });
  const allTotal = categories.reduce((sum, c) => sum + c.postCount, 0);
  return { ...list, totalPages, categories, category, allTotal };
}

export const meta: Route.MetaFunction = ({ matches, data: loaded }) => {
  if (!loaded) return [];
  const config = configFromMatches(matches);
  const base = `/blog/category/${loaded.category.slug}`;
  return pageMeta(config, {
    title: `${loaded.category.name} Articles${loaded.page > 1 ? ` (page ${loaded.page})` : ''}`,
    description: loaded.category.description.slice(0, 160),
    path: loaded.page > 1 ? `${base}?page=${loaded.page}` : base,
    jsonLd: [
      breadcrumbJsonLd(config, [
        { name: 'Home', path: '/' },
        { name: 'Blog', path: '/blog' },
        { name: loaded.category.name, path: base },
      ]),
    ],
  });
};

export default function BlogCategory({ loaderData }: Route.ComponentProps) {
  const { posts, page, totalPages, categories, category, allTotal } = loaderData;
  return (
    <div className="page-section blog-page">
      <div className="container">
        <header className="blog-header">
          <p className="eyebrow">Blog category</p>
          <h1>{category.name}</h1>
          <p className="lead">{category.description}</p>
        </header>
        <CategoryNav categories={categories} total={allTotal} />
        {posts.length === 0 ? (
          <p className="blog-empty">No articles in this category yet.</p>
        ) : (
          <div className="post-grid">
            {posts.map((post, index) => (
              <PostCard key={post.id} post={post} eagerImage={index === 0} />
            ))}
          </div>
        )}
        <Pagination basePath={`/blog/category/${category.slug}`} page={page} totalPages={totalPages} />
      </div>
    </div>
  );
}
