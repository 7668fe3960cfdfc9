import { Link } from 'react-router';
import { useSiteConfig } from './site-config-context';

export function NotFoundContent() {
  const config = useSiteConfig();
  return (
    <section className="page-section narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Page not found</h1>
      <p>We could not find the page you asked for. It may have moved, or the address may be mistyped.</p>
      <ul className="link-list">
        <li>
          <Link to="/">Go to the home page</Link>
        </li>
        <li>
          <Link to="/faq">Read the frequently asked questions</Link>
        </li>
        <li>
          <Link to="/get-quote">Request your free illustration</Link>
        </li>
        <li>
          <a href={`tel:${config.phoneE164}`}>Call us at {config.phoneDisplay}</a>
        </li>
      </ul>
    </section>
  );
}
