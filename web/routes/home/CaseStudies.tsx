/**
 * Case studies (#case-studies): three toggle buttons (aria-pressed) choose one case, the first at
 * first; every case is in the HTML and the chosen one shows its profile, strategy, projected results and benefits.
 */
import { Briefcase, Building2, type LucideIcon, Sunset } from 'lucide-react';
import { useState } from 'react';
import { CASE_STUDIES, CASE_STUDIES_INTRO, CASE_STUDY_DISCLAIMER, type CaseStudyIcon } from '../../content/case-studies';
import { SectionHeading } from './SectionHeading';

const ICONS: Record<CaseStudyIcon, LucideIcon> = {
  briefcase: Briefcase,
  building: Building2,
  sunset: Sunset,
};

export function CaseStudies() {
  const [index, setIndex] = useState(0);
  return (
    <section id="case-studies" className="page-section" aria-labelledby="case-studies-title">
      <div className="container">
        <SectionHeading intro={CASE_STUDIES_INTRO} headingId="case-studies-title" />
        <div className="case-selector" role="group" aria-label={CASE_STUDIES_INTRO.selectorLabel} data-testid="case-selector">
          {CASE_STUDIES.map((study, i) => {
            const Icon = ICONS[study.icon];
            return (
              <button
                key={study.id}
                type="button"
                className="case-button"
                aria-pressed={i === index}
                aria-controls={`case-study-${study.id}`}
                data-case-id={study.id}
                onClick={() => setIndex(i)}
              >
                <Icon aria-hidden="true" size={22} />
                <span className="case-button-title">{study.title}</span>
                <span className="case-button-age">Age {study.age}</span>
              </button>
            );
          })}
        </div>
        {CASE_STUDIES.map((study, i) => {
          const Icon = ICONS[study.icon];
          return (
            <article
              key={study.id}
              id={`case-study-${study.id}`}
              className="case-detail"
              data-testid="case-detail"
              data-case-id={study.id}
              hidden={i !== index}
            >
              <header className="case-detail-header">
                <Icon aria-hidden="true" size={32} className="card-icon" />
                <div>
                  <h3>{study.title}</h3>
                  <p className="case-subtitle">{study.subtitle}</p>
                </div>
              </header>
              <div className="case-columns">
                <div>
                  <h4>Profile</h4>
                  <ul>
                    {study.profile.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                </div>
                <div>
                  <h4>Strategy</h4>
                  <ul>
                    {study.strategy.map((item) => (
                      <li key={item}>{item}</li>
                    ))}
                  </ul>
                </div>
              </div>
              <h4>Projected results</h4>
              <dl className="case-results" data-testid="case-results">
                {study.results.map((result) => (
                  <div key={result.label} className="case-result">
                    <dt>{result.label}</dt>
                    <dd className="case-result-value">{result.value}</dd>
                    <dd className="case-result-description">{result.description}</dd>
                  </div>
                ))}
              </dl>
              <h4>Benefits</h4>
              <ul className="case-benefits">
                {study.benefits.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
              <p className="disclaimer case-disclaimer">{CASE_STUDY_DISCLAIMER}</p>
            </article>
          );
        })}
      </div>
    </section>
  );
}
