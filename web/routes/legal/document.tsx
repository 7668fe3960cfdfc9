import { data, Link } from 'react-router';
import type { Route } from './+types/document';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { LegalIcon } from '../../components/ui/LegalIcon';
import { findLegalDocument } from '../../content/legal';
import { configFromMatches, pageMeta } from '../../seo/meta';

export function loader({ params }: Route.LoaderArgs) {
  const doc = findLegalDocument(params.document);
  // Only the documents of the legal index exist; anything else under /legal is a real 404.
  if (!doc) throw data(null, { status: 404 });
  return { doc };
}

// Without data the loader threw a 404, and the root's head describes it.
export const meta: Route.MetaFunction = ({ matches, data: loaded }) =>
  loaded
    ? pageMeta(configFromMatches(matches), {
        title: loaded.doc.title,
        description: `${loaded.doc.summary} The full document is available on request.`,
        path: loaded.doc.path,
      })
    : [];

export default function LegalDocument({ loaderData }: Route.ComponentProps) {
  const { doc } = loaderData;
  const config = useSiteConfig();
  return (
    <section className="page-section narrow" aria-labelledby="legal-doc-title">
      <p className="eyebrow">
        <LegalIcon name={doc.icon} /> Legal
      </p>
      <h1 id="legal-doc-title">{doc.title}</h1>
      <p className="lead">{doc.summary}</p>
      <p>
        This document is available on request. Email <a href={`mailto:${config.email}`}>{config.email}</a> or call{' '}
        <a href={`tel:${config.phoneE164}`}><span className="phone-number">{config.phoneDisplay}</span></a> ({config.officeHours}) and we will send you the
        current version the same business day.
      </p>
      <p>
        <Link to="/legal">Back to all legal documents</Link>
      </p>
    </section>
  );
}
