import type { Route } from './+types/sep-comparison';
import { configFromMatches, pageMeta } from '../seo/meta';
import { productPaths } from '../content/site-config';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'SEP IRA vs IUL for the Self-Employed',
    description: 'Compare a SEP IRA with a max-funded IUL for self-employed retirement savings.',
    path: productPaths(configFromMatches(matches)).sepComparison,
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>SEP IRA vs IUL</h1>
    </section>
  );
}
