import type { Route } from './+types/dashboard';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Admin Dashboard',
    description: 'Administration area of the agency website for staff members only.',
    path: '/admin',
    noindex: true,
  });

export default function AdminDashboard() {
  return (
    <section className="page-section narrow">
      <h1>Admin Dashboard</h1>
    </section>
  );
}
