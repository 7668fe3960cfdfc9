import type { Route } from './+types/get-quote';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Get Your Free IUL Illustration',
    description: 'Request a free, personalised indexed universal life illustration from our family agency.',
    path: '/get-quote',
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>Get Your Free IUL Illustration</h1>
    </section>
  );
}
