import { Link } from 'react-router';
import { useSiteConfig } from './site-config-context';

/** The 404 page, or with `gone` the 410 of a blog post its author deleted. */
export function NotFoundContent({ gone = false }: { gone?: boolean }) {
  const config = useSiteConfig();
  return (
    <section className="page-section narrow" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{gone ? 'This article was removed' : 'Page not found'}</h1>
      {gone ? (
        <p>
          Its author took this article down, so it is no longer available. The <Link to="/blog">blog</Link> has our other
          articles.
        </p>
      ) : (
        <p>We could not find the page you asked for. It may have moved, or the address may be mistyped.</p>
      )}
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
          <a href={`tel:${config.phoneE164}`}>Call us at <span className="phone-number">{config.phoneDisplay}</span></a>
        </li>
      </ul>
    </section>
  );
}
