/** Is it right for you? Who the strategy fits and who it does not, with the two actions. */
import { CheckCircle2, Phone, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { RIGHT_FOR_YOU } from '../../content/home';
import { SectionHeading } from './SectionHeading';

export function RightForYou() {
  const config = useSiteConfig();
  return (
    <section id="right-for-you" className="page-section" aria-labelledby="right-for-you-title">
      <div className="container">
        <SectionHeading intro={RIGHT_FOR_YOU} headingId="right-for-you-title" />
        <div className="fit-panel">
          <div className="fit-column fit-yes" data-testid="fit-perfect">
            <h3>{RIGHT_FOR_YOU.perfectHeading}</h3>
            <ul className="check-list">
              {RIGHT_FOR_YOU.perfect.map((item) => (
                <li key={item}>
                  <CheckCircle2 aria-hidden="true" size={18} />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
          <div className="fit-column fit-no" data-testid="fit-not-ideal">
            <h3>{RIGHT_FOR_YOU.notIdealHeading}</h3>
            <ul className="check-list">
              {RIGHT_FOR_YOU.notIdeal.map((item) => (
                <li key={item}>
                  <XCircle aria-hidden="true" size={18} />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
        <p className="section-text fit-premium">{RIGHT_FOR_YOU.premiumNote}</p>
        <div className="button-row">
          <Link to="/get-quote" className="button button-primary">
            {RIGHT_FOR_YOU.requestLabel}
          </Link>
          <a href={`tel:${config.phoneE164}`} className="button button-outline">
            <Phone aria-hidden="true" size={18} /> {RIGHT_FOR_YOU.callLabel}: <span className="phone-number">{config.phoneDisplay}</span>
          </a>
        </div>
      </div>
    </section>
  );
}
