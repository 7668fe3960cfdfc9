/** The Tax Train: top tax rates past, present and future, and the national debt behind the question. */
import { TrainFront } from 'lucide-react';
import { TAX_TRAIN } from '../../content/home';
import { SectionHeading } from './SectionHeading';

export function TaxTrain() {
  return (
    <section id="tax-train" className="page-section" aria-labelledby="tax-train-title">
      <div className="container">
        <SectionHeading intro={TAX_TRAIN} headingId="tax-train-title" />
        <h3 className="subheading tax-train-label">
          <TrainFront aria-hidden="true" size={22} /> {TAX_TRAIN.stationsLabel}
        </h3>
        <ol className="tax-stations" data-testid="tax-stations">
          {TAX_TRAIN.stations.map((station) => (
            <li key={station.period} className="tax-station">
              <span className="tax-station-period">{station.period}</span>
              <span className="tax-station-rate">{station.rate}</span>
              <span className="tax-station-text">{station.text}</span>
            </li>
          ))}
        </ol>
        <dl className="debt-figures">
          {TAX_TRAIN.figures.map((figure) => (
            <div key={figure.label} className="debt-figure">
              <dt>{figure.label}</dt>
              <dd>{figure.value}</dd>
            </div>
          ))}
        </dl>
        {TAX_TRAIN.paragraphs.map((paragraph) => (
          <p key={paragraph} className="section-text">
            {paragraph}
          </p>
        ))}
      </div>
    </section>
  );
}
