import type { Route } from './+types/about-us';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'About Us',
    description: 'A family insurance agency founded in 1955, three generations of experience.',
    path: '/about-us',
  });

export default function Page() {
  return (
    <section className="page-section narrow">
      <h1>About Us</h1>
    </section>
  );
}
