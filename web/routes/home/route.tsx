import type { Route } from './+types/route';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Max-Funded IUL: Tax-Free Retirement Income',
    description: 'Learn how a maximum-funded indexed universal life policy can provide tax-free retirement income.',
    path: '/',
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>Tax-Free Retirement Income</h1>
    </section>
  );
}
