import type { Route } from './+types/faq';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Frequently Asked Questions',
    description: 'Answers to common questions about indexed universal life and tax-free retirement income.',
    path: '/faq',
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>Frequently Asked Questions</h1>
    </section>
  );
}
