/** The guide's disclosures: informational only, projections not guaranteed, loans, insurer, tax advice. */
import { GUIDE_DISCLOSURES } from '../../content/guide/closing';

export function DisclosuresSection() {
  return (
    <section id={GUIDE_DISCLOSURES.id} className="page-section guide-disclosures" aria-labelledby="disclosures-heading">
      <div className="container">
        <h2 id="disclosures-heading">{GUIDE_DISCLOSURES.title}</h2>
        <ul className="disclaimer" data-testid="guide-disclosures">
          {GUIDE_DISCLOSURES.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
