/**
 * Implementation: the five steps, the design-elements panel, how to read an illustration, and the
 * $75,000 case study, labelled as a hypothetical projection.
 */
import { GUIDE_CASE_STUDY, IMPLEMENTATION, type CaseStudyResult } from '../../content/guide/implementation';
import { GuideCards, GuideSection } from './GuideSection';

function ResultList({ results }: { results: readonly CaseStudyResult[] }) {
  return (
    <dl className="case-results">
      {results.map((result) => (
        <div key={result.label} className="case-result">
          <dt>{result.label}</dt>
          <dd className="case-result-value">{result.value}</dd>
          <dd className="case-result-description">{result.description}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ImplementationSection() {
  const study = GUIDE_CASE_STUDY;
  return (
    <GuideSection id={IMPLEMENTATION.id} title={IMPLEMENTATION.title} intro={[IMPLEMENTATION.intro]}>
      <h3 className="guide-subheading">{IMPLEMENTATION.stepsTitle}</h3>
      <GuideCards cards={IMPLEMENTATION.steps} numbered testId="implementation-steps" />

      <div className="guide-two-column">
        <aside className="card guide-panel" aria-labelledby="design-elements-heading" data-testid="design-elements">
          <h3 id="design-elements-heading">{IMPLEMENTATION.designTitle}</h3>
          <dl className="design-elements">
            {IMPLEMENTATION.designElements.map((element) => (
              <div key={element.label}>
                <dt>{element.label}</dt>
                <dd>{element.value}</dd>
              </div>
            ))}
          </dl>
        </aside>
        <div className="card guide-panel" data-testid="illustration-guidance">
          <h3>{IMPLEMENTATION.illustrationTitle}</h3>
          <p>{IMPLEMENTATION.illustrationIntro}</p>
          <ul className="guide-checklist">
            {IMPLEMENTATION.illustrationChecks.map((check) => (
              <li key={check}>{check}</li>
            ))}
          </ul>
        </div>
      </div>

      <article className="case-study" aria-labelledby="case-study-heading" data-testid="guide-case-study">
        <p className="case-badge">{study.badge}</p>
        <h3 id="case-study-heading">{study.title}</h3>
        <p>{study.summary}</p>
        <ul className="case-profile" aria-label="Profile">
          {study.profile.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <ResultList results={study.results} />
        <h4>{study.alternative.title}</h4>
        <ResultList results={study.alternative.results} />
        <p>{study.alternative.note}</p>
        <p className="disclaimer">{study.disclaimer}</p>
      </article>
    </GuideSection>
  );
}
