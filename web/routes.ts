import { type RouteConfig, index, route } from '@react-router/dev/routes';
import { productPaths } from '../contract/site-config';
import { loadSiteConfig } from '../contract/site-config-env';

// Route paths that carry the product slug are fixed at build time; `npm start` rebuilds when the
// slug in the environment differs from the one the build was made with (scripts/build-stamp.ts).
const paths = productPaths(loadSiteConfig(process.env));

export default [
  index('routes/home/route.tsx'),
  route('get-quote', 'routes/get-quote.tsx'),
  route('get-quote/thank-you', 'routes/get-quote-thank-you.tsx'),
  route('stop-contacting-me', 'routes/stop-contacting-me.tsx'),
  route(paths.sepComparison.slice(1), 'routes/sep-comparison.tsx'),
  route(paths.ultimateGuide.slice(1), 'routes/ultimate-guide/route.tsx'),
  route('about-us', 'routes/about-us.tsx'),
  route('faq', 'routes/faq.tsx'),
  route('api/usage-examples', 'routes/api-usage-examples.tsx'),
  route('api/test-console', 'routes/api-test-console.tsx'),
  route('admin', 'routes/admin/dashboard.tsx'),
  route('admin/login', 'routes/admin/login.tsx'),
  route('admin/logout', 'routes/admin/logout.tsx'),
  route('admin/leads', 'routes/admin/leads.tsx'),
  route('admin/leads.csv', 'routes/admin/leads-csv.ts'),
  route('admin/leads/:id', 'routes/admin/lead.tsx'),
  route('admin/posts', 'routes/admin/posts.tsx'),
  route('admin/posts/:id/preview', 'routes/admin/post-preview.tsx'),
  route('admin/review', 'routes/admin/review.tsx'),
  route('admin/review/:id', 'routes/admin/review-post.tsx'),
  route('admin/audit', 'routes/admin/audit.tsx'),
  route('admin/api-keys', 'routes/admin/api-keys.tsx'),
  route('login', 'routes/login.tsx'),
  route('blog', 'routes/blog/index.tsx'),
  route('blog/category/:slug', 'routes/blog/category.tsx'),
  route('blog/:slug', 'routes/blog/post.tsx'),
  route('preview/:token', 'routes/preview.tsx'),
  route('legal', 'routes/legal/index.tsx'),
  route('legal/privacy-policy', 'routes/legal/privacy-policy.tsx'),
  route('legal/:document', 'routes/legal/document.tsx'),
  route('admin/posts/:id/edit', 'routes/admin/post-edit.tsx'),
  route('admin/posts/new', 'routes/admin/post-new.tsx'),
  // Resource routes: machine-readable views of the site, answered with XML or text, no page.
  route('rss.xml', 'routes/feeds/rss.ts'),
  route('sitemap.xml', 'routes/feeds/sitemap.ts'),
  route('sitemaps/:file', 'routes/feeds/sitemap-file.ts'),
  route('robots.txt', 'routes/feeds/robots.ts'),
  route('admin/posts/:id/archive', 'routes/admin/post-archive.tsx'),
  route('admin/archive.zip', 'routes/admin/archive-zip.ts'),
  route('admin/analytics', 'routes/admin/analytics.tsx'),
  route('admin/analytics.csv', 'routes/admin/analytics-csv.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
