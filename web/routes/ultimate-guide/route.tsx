import type { Route } from './+types/route';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { productPaths } from '../../content/site-config';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'The Ultimate Guide to Max-Funded IUL',
    description: 'Everything about max-funded indexed universal life: taxes, protection, structure and costs.',
    path: productPaths(configFromMatches(matches)).ultimateGuide,
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>The Ultimate Guide</h1>
    </section>
  );
}
