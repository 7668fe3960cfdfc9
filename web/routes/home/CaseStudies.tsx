/**
 * Case studies (#case-studies): three tabs choose one case, the first at first. The tabs are links
 * (`/?case=<id>#case-studies`) that the home loader reads, so the chosen case is rendered by the
 * server and works without JavaScript; every case is in the HTML and the chosen one shows its profile,
 * strategy, projected results (as figures and as a small chart) and benefits.
 */
import { Briefcase, Building2, type LucideIcon, Sunset } from 'lucide-react';
import { type TabLink, Tabs } from '../../components/ui/Tabs';
import { CASE_STUDIES, CASE_STUDIES_INTRO, CASE_STUDY_DISCLAIMER, type CaseStudy, type CaseStudyIcon } from '../../content/case-studies';
import { CaseStudyChart } from './CaseStudyChart';
import { SectionHeading } from './SectionHeading';

const ICONS: Record<CaseStudyIcon, LucideIcon> = {
  briefcase: Briefcase,
  building: Building2,
  sunset: Sunset,
};

/** The cases in order, the first the default; the address names one with `?case=`. */
export const CASE_STUDY_IDS: readonly string[] = CASE_STUDIES.map((study) => study.id);
export const CASE_STUDY_LINK: TabLink = { query: 'case', anchor: 'case-studies' };

function CaseTabLabel({ study }: { study: CaseStudy }) {
  const Icon = ICONS[study.icon];
  return (
    <>
      <Icon aria-hidden="true" size={22} />
      <span className="case-button-title">{study.title}</span>
      <span className="case-button-age">Age {study.age}</span>
    </>
  );
}

function CaseDetail({ study }: { study: CaseStudy }) {
  const Icon = ICONS[study.icon];
  return (
    <article className="case-detail" data-testid="case-detail" data-case-id={study.id}>
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
      <div className="case-results-layout">
        <dl className="case-results" data-testid="case-results">
          {study.results.map((result) => (
            <div key={result.label} className="case-result">
              <dt>{result.label}</dt>
              <dd className="case-result-value">{result.value}</dd>
              <dd className="case-result-description">{result.description}</dd>
            </div>
          ))}
        </dl>
        <CaseStudyChart study={study} />
      </div>
      <h4>Benefits</h4>
      <ul className="case-benefits">
        {study.benefits.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="disclaimer case-disclaimer">{CASE_STUDY_DISCLAIMER}</p>
    </article>
  );
}

export function CaseStudies({ selectedId }: { selectedId: string }) {
  return (
    <section id={CASE_STUDY_LINK.anchor} className="page-section" aria-labelledby="case-studies-title">
      <div className="container" data-testid="case-selector">
        <SectionHeading intro={CASE_STUDIES_INTRO} headingId="case-studies-title" />
        <Tabs
          className="case-tabs"
          label={CASE_STUDIES_INTRO.selectorLabel}
          defaultTabId={selectedId}
          link={CASE_STUDY_LINK}
          tabs={CASE_STUDIES.map((study) => ({
            id: study.id,
            label: <CaseTabLabel study={study} />,
            content: <CaseDetail study={study} />,
          }))}
        />
      </div>
    </section>
  );
}
