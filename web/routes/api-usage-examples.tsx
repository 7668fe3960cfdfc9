import type { Route } from './+types/api-usage-examples';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Blog API Usage Examples',
    description: 'How to publish blog posts through the blog API with Python, cURL, Postman and JavaScript.',
    path: '/api/usage-examples',
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>Blog API Usage Examples</h1>
    </section>
  );
}
