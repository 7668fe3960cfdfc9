/** Three buckets of money, shown as four columns: tax-deferred, government tax-free, insurance tax-free, taxable. */
import { THREE_BUCKETS } from '../../content/home';
import { SectionHeading } from './SectionHeading';

export function ThreeBuckets() {
  return (
    <section id="three-buckets" className="page-section" aria-labelledby="three-buckets-title">
      <div className="container">
        <SectionHeading intro={THREE_BUCKETS} headingId="three-buckets-title" />
        <ul className="bucket-grid plain-list" data-testid="bucket-columns">
          {THREE_BUCKETS.buckets.map((bucket) => (
            <li key={bucket.title} className="bucket">
              <h3>{bucket.title}</h3>
              <p className="bucket-treatment">{bucket.taxTreatment}</p>
              <p className="bucket-examples">{bucket.examples.join(' · ')}</p>
              <ul>
                {bucket.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
        <p className="section-text">{THREE_BUCKETS.note}</p>
      </div>
    </section>
  );
}
