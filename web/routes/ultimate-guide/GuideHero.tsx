/** The guide's hero: title (from the product name in config), lead, four key figures and the CTA. */
import { Link } from 'react-router';
import type { GuideHeroCopy } from '../../content/guide/overview';
import { ReviewedBy } from '../../components/ui/ReviewedBy';
import { FigureNote } from '../../components/ui/FigureNote';
import { GUIDE_DISCLOSURES } from '../../content/guide/closing';

export function GuideHero({ copy }: { copy: GuideHeroCopy }) {
  return (
    <section className="guide-hero" aria-labelledby="guide-title">
      <div className="container">
        <p className="eyebrow">{copy.eyebrow}</p>
        <h1 id="guide-title">{copy.title}</h1>
        <ReviewedBy />
        <p className="lead">{copy.lead}</p>
        <ul className="guide-facts" aria-label="Key figures">
          {copy.facts.map((fact) => (
            <li key={fact.value}>
              <span className="guide-fact-value">{fact.value}</span>
              <span className="guide-fact-label">{fact.label}</span>
            </li>
          ))}
        </ul>
        <FigureNote target={GUIDE_DISCLOSURES.id} />
        <div className="button-row guide-hero-actions">
          <Link to="/get-quote" className="button button-primary">
            {copy.buttonLabel}
          </Link>
        </div>
      </div>
    </section>
  );
}
