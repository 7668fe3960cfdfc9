/**
 * SEP IRA versus IUL (SPEC "SEP comparison page"): hero with a button to /get-quote and a link to the
 * Ultimate Guide, four statistic tiles, the SEP IRA explainer, the comparison table, four reasons IUL
 * is preferred (and when a SEP IRA may be better), and a closing call to action. Copy comes from
 * web/content/sep-comparison.ts.
 */
import { ArrowRight, BookOpen } from 'lucide-react';
import { Link } from 'react-router';
import type { Route } from './+types/sep-comparison';
import { useSiteConfig } from '../components/layout/site-config-context';
import { CallToAction } from '../components/ui/CallToAction';
import { type DisclosureColumn, DisclosureTable } from '../components/ui/DisclosureTable';
import { type SepComparisonRow, sepComparisonContent } from '../content/sep-comparison';
import { productPaths } from '../../contract/site-config';
import { configFromMatches, pageMeta } from '../seo/meta';
import { ReviewedBy } from '../components/ui/ReviewedBy';
import { FigureNote } from '../components/ui/FigureNote';

export const meta: Route.MetaFunction = ({ matches }) => {
  const config = configFromMatches(matches);
  const { seo } = sepComparisonContent(config);
  return pageMeta(config, {
    title: seo.title,
    description: seo.description,
    path: productPaths(config).sepComparison,
  });
};

export default function SepComparisonPage() {
  const config = useSiteConfig();
  const content = sepComparisonContent(config);
  const { hero, stats, explainer, comparison, reasons, whenSep, cta } = content;
  const columns: ReadonlyArray<DisclosureColumn<SepComparisonRow>> = [
    { key: 'sep-ira', header: comparison.sepHeader, render: (row) => row.sepIra },
    { key: 'iul', header: comparison.iulHeader, render: (row) => row.iul },
  ];

  return (
    <>
      <section className="sep-hero" aria-labelledby="sep-title">
        <div className="container">
          <p className="eyebrow sep-eyebrow">{hero.eyebrow}</p>
          <h1 id="sep-title">{hero.heading}</h1>
          <ReviewedBy className="reviewed-by-on-dark" />
          <p className="sep-hero-lead">{hero.lead}</p>
          <div className="button-row sep-hero-actions">
            <Link to="/get-quote" className="button button-accent" data-testid="sep-hero-quote">
              {hero.buttonLabel} <ArrowRight aria-hidden="true" size={18} />
            </Link>
            <Link to={productPaths(config).ultimateGuide} className="button button-outline-light" data-testid="sep-guide-link">
              <BookOpen aria-hidden="true" size={18} /> {hero.guideLinkLabel}
            </Link>
          </div>
        </div>
      </section>

      <section className="page-section" aria-labelledby="sep-stats-heading">
        <div className="container">
          <h2 id="sep-stats-heading">{content.statsHeading}</h2>
          <ul className="sep-stats" data-testid="sep-stats">
            {stats.map((tile) => (
              <li key={tile.id} className="sep-stat" data-testid="sep-stat" data-stat-id={tile.id}>
                <span className="sep-stat-value">{tile.value}</span>
                <span className="sep-stat-label">{tile.label}</span>
                <span className="sep-stat-detail">{tile.detail}</span>
              </li>
            ))}
          </ul>
          <FigureNote target="sep-disclaimer" />
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="sep-explainer-heading">
        <div className="container">
          <h2 id="sep-explainer-heading">{explainer.heading}</h2>
          <p className="lead sep-intro">{explainer.intro}</p>
          <div className="sep-explainer">
            {explainer.blocks.map((block) => (
              <article key={block.id} className="card sep-explainer-block" aria-labelledby={`sep-block-${block.id}`}>
                <h3 id={`sep-block-${block.id}`}>{block.heading}</h3>
                {block.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
                {block.bullets ? (
                  <ul className="sep-bullets">
                    {block.bullets.map((bullet) => (
                      <li key={bullet}>{bullet}</li>
                    ))}
                  </ul>
                ) : null}
              </article>
            ))}
          </div>
        </div>
      </section>

      <section className="page-section" aria-labelledby="sep-comparison-heading">
        <div className="container">
          <h2 id="sep-comparison-heading">{comparison.heading}</h2>
          <p className="sep-intro">{comparison.intro}</p>
          <DisclosureTable
            caption={comparison.caption}
            columns={columns}
            rows={comparison.rows}
            explanationLabel="Why it matters"
            name="compare" testId="sep-comparison-table"
          />
        </div>
      </section>

      <section className="page-section section-alt" aria-labelledby="sep-reasons-heading">
        <div className="container">
          <h2 id="sep-reasons-heading">{reasons.heading}</h2>
          <p className="lead sep-intro">{reasons.intro}</p>
          <ol className="sep-reasons">
            {reasons.items.map((reason, index) => (
              <li key={reason.id} className="card sep-reason" data-testid="sep-reason">
                <span className="sep-reason-number" aria-hidden="true">
                  {index + 1}
                </span>
                <h3>{reason.title}</h3>
                <p>{reason.text}</p>
              </li>
            ))}
          </ol>
          <div className="sep-when" data-testid="sep-when">
            <h3 id="sep-when-heading">{whenSep.heading}</h3>
            <p>{whenSep.intro}</p>
            <ul className="sep-bullets">
              {whenSep.bullets.map((bullet) => (
                <li key={bullet}>{bullet}</li>
              ))}
            </ul>
            <p>{whenSep.closing}</p>
          </div>
        </div>
      </section>

      <CallToAction id="sep-cta" heading={cta.heading} text={cta.text} />

      <div className="container">
        <p id="sep-disclaimer" className="disclaimer sep-disclaimer">{content.disclaimer}</p>
      </div>
    </>
  );
}
