import type { Route } from './+types/login';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Admin Login',
    description: 'Sign-in page of the administration area, for agency staff members only.',
    path: '/admin/login',
    noindex: true,
  });

export default function AdminLogin() {
  return (
    <section className="page-section narrow">
      <h1>Admin Login</h1>
    </section>
  );
}
