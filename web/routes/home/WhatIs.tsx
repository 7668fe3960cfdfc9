/** What is the product (#how-it-works): what the policy is, Standard versus Max Funded, and three steps. */
import { CheckCircle2 } from 'lucide-react';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { whatIsContent } from '../../content/home';
import { SectionHeading } from './SectionHeading';
import { ReviewedBy } from '../../components/ui/ReviewedBy';

export function WhatIs() {
  const content = whatIsContent(useSiteConfig());
  return (
    <section id="how-it-works" className="page-section" aria-labelledby="how-it-works-title">
      <div className="container">
        <SectionHeading intro={content} headingId="how-it-works-title" />
        <ReviewedBy />
        <div className="prose-columns">
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        <h3 className="subheading">{content.comparisonHeading}</h3>
        <div className="design-compare" data-testid="design-compare">
          {content.designs.map((design) => (
            <article key={design.title} className={design.highlighted ? 'card design-card design-card-highlight' : 'card design-card'}>
              <h4>{design.title}</h4>
              <p className="design-summary">{design.summary}</p>
              <ul className="check-list">
                {design.points.map((point) => (
                  <li key={point}>
                    <CheckCircle2 aria-hidden="true" size={18} />
                    <span>{point}</span>
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
        <h3 className="subheading">{content.stepsHeading}</h3>
        <ol className="step-list">
          {content.steps.map((step) => (
            <li key={step.title} className="step">
              <h4>{step.title}</h4>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
