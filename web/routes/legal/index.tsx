import { Mail, Phone } from 'lucide-react';
import { Link } from 'react-router';
import type { Route } from './+types/index';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { LegalIcon } from '../../components/ui/LegalIcon';
import { LEGAL_DOCUMENTS } from '../../content/legal';
import { configFromMatches, pageMeta } from '../../seo/meta';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), {
    title: 'Legal Documents',
    description: 'Privacy policy, terms, disclosures, licenses, state privacy notices and accessibility services.',
    path: '/legal',
  });

export default function LegalIndex() {
  const config = useSiteConfig();
  return (
    <section className="page-section" aria-labelledby="legal-title">
      <div className="container">
        <h1 id="legal-title">Legal Documents</h1>
        <p className="lead">
          The policies and notices that apply to this website and to our work as an insurance agency.
        </p>
        <ul className="legal-grid" data-testid="legal-documents">
          {LEGAL_DOCUMENTS.map((doc) => (
            <li key={doc.path}>
              <Link to={doc.path} className="legal-card">
                <LegalIcon name={doc.icon} />
                <span className="legal-card-title">{doc.title}</span>
                <span className="legal-card-summary">{doc.summary}</span>
              </Link>
            </li>
          ))}
        </ul>
        <h2>Questions about these documents?</h2>
        <ul className="contact-links">
          <li>
            <a href={`mailto:${config.email}`}>
              <Mail aria-hidden="true" size={18} /> Email {config.email}
            </a>
          </li>
          <li>
            <a href={`tel:${config.phoneE164}`}>
              <Phone aria-hidden="true" size={18} /> Call <span className="phone-number">{config.phoneDisplay}</span>
            </a>
          </li>
        </ul>
      </div>
    </section>
  );
}
