import { Link } from 'react-router';
import type { Route } from './+types/privacy-policy';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { PRIVACY_POLICY_EFFECTIVE_DATE, privacyPolicy } from '../../content/privacy-policy';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Privacy Policy',
    description: 'How we collect, use, share and protect personal information, and the choices and rights you have.',
    path: '/legal/privacy-policy',
  });

const effectiveDate = new Date(`${PRIVACY_POLICY_EFFECTIVE_DATE}T12:00:00Z`).toLocaleDateString('en-US', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
});

export default function PrivacyPolicy() {
  const config = useSiteConfig();
  const sections = privacyPolicy(config);
  return (
    <article className="page-section narrow prose" aria-labelledby="privacy-title">
      <h1 id="privacy-title">Privacy Policy</h1>
      <p className="lead">Effective {effectiveDate}</p>
      <nav aria-label="Sections of this policy">
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.heading}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`}>{section.heading}</h2>
          {section.paragraphs.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {section.bullets && (
            <ul>
              {section.bullets.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          )}
        </section>
      ))}
      <p>
        <Link to="/legal">All legal documents</Link>
      </p>
    </article>
  );
}
