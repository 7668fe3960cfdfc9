import { Link } from 'react-router';
import type { Route } from './+types/login';
import { useSiteConfig } from '../components/layout/site-config-context';
import { configFromMatches, pageMeta } from '../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Login',
    description: 'Sign in for agency staff, and where clients and blog authors can find help.',
    path: '/login',
    noindex: true,
  });

export default function Login() {
  const config = useSiteConfig();
  return (
    <section className="page-section narrow" aria-labelledby="login-title">
      <h1 id="login-title">Login</h1>
      <p>
        Online accounts are for agency staff. Policy owners manage their policies with the issuing insurance company;
        we are glad to help you reach your policy service team.
      </p>
      <ul className="link-list">
        <li>
          <Link to="/admin/login">Staff sign-in</Link>
        </li>
        <li>
          <Link to="/admin/api-keys">Blog authors: how to get an API key</Link>
        </li>
        <li>
          <a href={`tel:${config.phoneE164}`}>Call us at <span className="phone-number">{config.phoneDisplay}</span></a> ({config.officeHours})
        </li>
      </ul>
    </section>
  );
}
